#!/usr/bin/env bash
# Side-by-side load benchmark of the HTTP servers: `blazeface serve` against the anchor people deploy today,
# MediaPipe behind FastAPI + uvicorn (Benchmarks/mediapipe_server.py), on loopback, one server at a time, the same
# number of workers on both sides. One command, from anywhere:
#
#   Benchmarks/compare_serve.sh                # the comparison (detect and analyze, 1/4/16 clients, ROUNDS rounds)
#   Benchmarks/compare_serve.sh --soak 600     # ours only: detect at 16 clients for 600 s, RSS every 10 s
#
# 1. the anchor's environments, git-ignored venvs at the repo root (created when missing or when a pin differs;
#    the two MediaPipe versions cannot share one venv):
#    .venv-serve/         mediapipe 1.2.2 (Tests/Goldens/requirements-mediapipe.txt) + Benchmarks/requirements-serve.txt:
#                         the Tasks FaceDetector for /v1/detect, and the load generator (aiohttp);
#    .venv-serve-legacy/  mediapipe 0.10.21 (Tests/Goldens/requirements-mediapipe-legacy.txt) + the same file:
#                         the legacy FaceMesh (refine_landmarks=True) for /v1/analyze;
#    mediapipe's native library needs the Debian package libusb-1.0-0 (installed with apt-get when missing);
# 2. fetches the models and sample pictures if missing (Models/fetch.sh);
# 3. builds our release binary (swift build -c release --product blazeface --traits Server) unless SKIP_BUILD=1, and copies it
#    to a temporary folder so that a concurrent build cannot replace it mid-run;
# 4. runs Benchmarks/serve_load.py: for each round the sides alternate ABBA (ours, anchor | anchor, ours | ...);
#    per side and endpoint a fresh server (ours: `blazeface serve --workers $WORKERS --max-queue $MAX_QUEUE
#    --detector short-range --log-level warning`; anchor: `uvicorn --workers $WORKERS --no-access-log`), ready-checked,
#    then for each concurrency closed-loop clients post Models/samples/{astronaut.png,t1.jpg,obama.jpg,single_face.jpg}
#    for $WARMUP s (discarded) and $DURATION s (measured), then the server is stopped (SIGTERM);
# 5. prints the Markdown report and writes Benchmarks/results/latest-serve.md and latest-serve.json (the comparison
#    and the soak each replace only their own part).
#
# Environment (defaults in brackets): ROUNDS [2], DURATION [20] measured seconds per run, WARMUP [3] seconds,
# CONCURRENCY [1,4,16], ENDPOINTS [detect,analyze], WORKERS [2] on both sides, MAX_QUEUE [64] (ours), SKIP_BUILD=1
# to use the existing .build/release/blazeface, BLAZEFACE=path to use that binary as it is (implies no build),
# PYTHON [python3] (3.9-3.12, for mediapipe 0.10.21's wheels) to create the venvs.
# Arguments are passed on to Benchmarks/serve_load.py (--soak SECONDS, --soak-warmup [60], --soak-interval [10],
# --samples a,b,c, --out PATH-without-extension; --help lists them).
# Needs python3 with venv, PyPI the first time, and Swift 6 (/opt/swift/usr/bin is added to PATH when present).
# Quote figures as ratios from one run: the machine is shared and the load generator uses the same cores.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
python="${PYTHON:-python3}"

# 1. the anchor's environments
. "$here/mediapipe_venvs.sh"
ensure_libusb
mediapipe_venv "$root/.venv-serve" 1.2.2 "FastAPI, uvicorn, aiohttp" "$root/Tests/Goldens/requirements-mediapipe.txt" "$here/requirements-serve.txt"
mediapipe_venv "$root/.venv-serve-legacy" 0.10.21 "FastAPI, uvicorn, aiohttp" "$root/Tests/Goldens/requirements-mediapipe-legacy.txt" "$here/requirements-serve.txt"
echo "Anchor: $root/.venv-serve (detect, load generator), $root/.venv-serve-legacy (analyze)" >&2

# 2. models and pictures
for f in Models/face_detection_short_range.tflite Models/mediapipe_face_detection_short_range.tflite \
         Models/face_landmark_with_attention.tflite Models/samples/astronaut.png Models/samples/t1.jpg \
         Models/samples/obama.jpg Models/samples/single_face.jpg; do
  if [ ! -f "$root/$f" ]; then "$root/Models/fetch.sh"; break; fi
done

# 3. our server
if [ -n "${BLAZEFACE:-}" ]; then
  binary="$BLAZEFACE"
else
  if [ -z "${SKIP_BUILD:-}" ]; then
    echo "Building blazeface (release) ..." >&2
    swift build -c release --product blazeface --traits Server >&2
  fi
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/compare-serve.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  cp "$root/.build/release/blazeface" "$tmp/blazeface"
  binary="$tmp/blazeface"
fi
"$binary" serve --help >/dev/null 2>&1 || { echo "$binary has no 'serve' (built without the Server trait?)" >&2; exit 1; }

# 4-5. alternate, measure, report
"$root/.venv-serve/bin/python" "$here/serve_load.py" \
  --blazeface "$binary" --models-dir "$root/Models" \
  --anchor-python-detect "$root/.venv-serve/bin/python" \
  --anchor-python-analyze "$root/.venv-serve-legacy/bin/python" \
  --rounds "${ROUNDS:-2}" --duration "${DURATION:-20}" --warmup "${WARMUP:-3}" \
  --concurrency "${CONCURRENCY:-1,4,16}" --endpoints "${ENDPOINTS:-detect,analyze}" \
  --workers "${WORKERS:-2}" --max-queue "${MAX_QUEUE:-64}" "$@"
