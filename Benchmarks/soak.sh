#!/usr/bin/env bash
# The soak: builds blazeface-soak in release and runs detect, landmarks, segment and track on the sample pictures, and
# decodes a short video made from the first one (one frame per soak frame, a new reader at its end), for
# N frames or T seconds, sampling resident memory; writes the CSV and the SVG plot and fails when memory grows
# after warm-up. At nice 19: it measures memory, not speed. See Documentation/Reliability.md.
#
#   Benchmarks/soak.sh                       # 1,000,000 frames
#   Benchmarks/soak.sh --seconds 600         # ten minutes
#   Benchmarks/soak.sh --frames 20000 --svg Documentation/soak-rss.svg
#
# Options are blazeface-soak's (swift run -c release blazeface-soak --help). Defaults added here: every picture
# of Models/samples, --csv Benchmarks/results/soak-rss.csv, --svg Benchmarks/results/soak-rss.svg (the CSV and
# the SVG are git-ignored there; copy the SVG to Documentation/soak-rss.svg to publish a run).
# Set SOAK_BUILD_LOCK=<file> to flock the build on a shared machine; SOAK_NO_BUILD=1 to skip it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build=(swift build -c release --product blazeface-soak)
if [ -z "${SOAK_NO_BUILD:-}" ]; then
  if [ -n "${SOAK_BUILD_LOCK:-}" ]; then flock "$SOAK_BUILD_LOCK" "${build[@]}"; else "${build[@]}"; fi
fi
binary="$(swift build -c release --show-bin-path)/blazeface-soak"

arguments=("$@")
has() { local flag; for flag in "${arguments[@]}"; do [ "$flag" = "$1" ] && return 0; done; return 1; }
defaults=()
if ! has --image; then
  for picture in Models/samples/*.png Models/samples/*.jpg; do defaults+=(--image "$picture"); done
fi
has --csv || defaults+=(--csv Benchmarks/results/soak-rss.csv)
has --svg || defaults+=(--svg Benchmarks/results/soak-rss.svg)
has --models-dir || defaults+=(--models-dir Models)

exec nice -n 19 "$binary" "${defaults[@]}" "${arguments[@]}"
