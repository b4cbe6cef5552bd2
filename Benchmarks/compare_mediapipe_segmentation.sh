#!/usr/bin/env bash
# Side-by-side benchmark of the person segmentation: swift-blazeface's PersonSegmenter (blazeface-bench --pipelines
# --pipeline-set segmentation: general and landscape model, mask at the frame's size) against MediaPipe 0.10.21's
# legacy SelfieSegmentation (mp.solutions.selfie_segmentation, model_selection=0 and 1), on the face-mesh
# comparison's 1280x720 frame, one CPU. One command, from anywhere:
#
#   Benchmarks/compare_mediapipe_segmentation.sh
#
# The steps, environment and arguments are Benchmarks/compare_mediapipe_facemesh.sh's (this runs it with
# SUITE=segmentation): it writes Benchmarks/results/latest-segmentation.md and .json,
# Documentation/benchmarks-segmentation.svg, and the segmentation block of Documentation/Benchmarks.md and
# Documentation/Segmentation.md (Benchmarks/compare_segmentation.py).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SUITE=segmentation exec "$here/compare_mediapipe_facemesh.sh" "$@"
