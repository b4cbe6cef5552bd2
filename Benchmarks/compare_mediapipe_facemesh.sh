#!/usr/bin/env bash
# Side-by-side benchmark of the face-mesh pipelines: swift-blazeface's FaceLandmarker (blazeface-bench --pipelines)
# against MediaPipe 0.10.21's legacy FaceMesh (mp.solutions.face_mesh, refine_landmarks=True), static-image and
# video mode, on the same 1280x720 frame. One command, from anywhere:
#
#   Benchmarks/compare_mediapipe_facemesh.sh
#
# 1. MediaPipe: uses .venv-mp-legacy/ when it has mediapipe 0.10.21, else creates it (pip install mediapipe==0.10.21;
#    the venv is git-ignored);
# 2. fetches the models if missing (Models/fetch.sh);
# 3. builds blazeface-bench in release (swift build -c release --product blazeface-bench);
# 4. runs Benchmarks/compare_facemesh.py: builds the frame (Models/samples/astronaut.png scaled to 720x720 and
#    centred on a gray 1280x720 canvas, one PNG both sides decode), then for each of ROUNDS rounds runs our bench
#    and MediaPipe's, one process each, alternating which goes first, both pinned to CPU $CPU with taskset
#    (MediaPipe's legacy solutions have no thread option; ours runs with --threads 1);
# 5. prints the Markdown report and writes Benchmarks/results/latest-facemesh.md and latest-facemesh.json,
#    Documentation/benchmarks-facemesh.svg, and the facemesh block of Documentation/Benchmarks.md.
#
# Environment (defaults in brackets): ROUNDS [5], ITERATIONS [200], WARMUP [20], TIME_LIMIT [5] seconds per run,
# CPU [0] (-1: do not pin), SKIP_BUILD=1 to use the existing .build/release/blazeface-bench, SUITE [facemesh]
# (Benchmarks/compare_mediapipe_segmentation.sh sets segmentation: the selfie segmentation models, and step 4 runs
# Benchmarks/compare_segmentation.py, which shares compare_facemesh.py's code).
# Arguments are passed on to Benchmarks/compare_facemesh.py (for example --docs "" leaves the docs alone).
# Needs python3 (3.9-3.12, for mediapipe 0.10.21's wheels) with venv, PyPI the first time, and Swift 6
# (/opt/swift/usr/bin is added to PATH when present).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
python="${PYTHON:-python3}"

# 1. MediaPipe environment
venv="$root/.venv-mp-legacy"
if ! { [ -x "$venv/bin/python" ] && "$venv/bin/python" - <<'PY' 2>/dev/null
from importlib.metadata import version
import mediapipe, numpy, PIL
assert version("mediapipe") == "0.10.21"
PY
}; then
  echo "Creating $venv with mediapipe 0.10.21 ..." >&2
  [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$root/Tests/Goldens/requirements-mediapipe-legacy.txt"
fi
echo "MediaPipe: $venv" >&2

suite="${SUITE:-facemesh}"
case "$suite" in
  facemesh) models="face_detection_short_range face_landmark_with_attention" ;;
  segmentation) models="selfie_segmentation selfie_segmentation_landscape" ;;
  *) echo "SUITE must be facemesh or segmentation, not '$suite'" >&2; exit 64 ;;
esac

# 2. models
for f in $models; do
  if [ ! -f "$root/Models/$f.tflite" ] || [ ! -f "$root/Models/samples/astronaut.png" ]; then
    "$root/Models/fetch.sh"
    break
  fi
done

# 3. our bench
if [ -z "${SKIP_BUILD:-}" ]; then
  echo "Building blazeface-bench (release) ..." >&2
  swift build -c release --product blazeface-bench >&2
fi
bench="$root/.build/release/blazeface-bench"

# 4-5. alternate, summarize, chart
"$venv/bin/python" "$here/compare_$suite.py" \
  --bench "$bench" --mediapipe-python "$venv/bin/python" \
  --rounds "${ROUNDS:-5}" --iterations "${ITERATIONS:-200}" --warmup "${WARMUP:-20}" \
  --time-limit "${TIME_LIMIT:-5}" --cpu "${CPU:-0}" "$@"
