#!/usr/bin/env bash
# Side-by-side photo-library scan: `blazeface-bench --library` against MediaPipe's Python, the way its users write a
# scan (Benchmarks/mediapipe_library_bench.py), on the same folders of 12 MP JPEG and HEIC files. One command, from
# anywhere:
#
#   Benchmarks/compare_library.sh
#
# 1. MediaPipe's environments, git-ignored venvs at the repo root (created when missing or when a pin differs; the
#    two MediaPipe versions cannot share one venv):
#    .venv-libscan/         mediapipe 1.2.2 (Tests/Goldens/requirements-mediapipe.txt) + Benchmarks/requirements-library.txt
#                           (pillow-heif): the Tasks FaceDetector for detect; it also makes the folder;
#    .venv-libscan-legacy/  mediapipe 0.10.21 (Tests/Goldens/requirements-mediapipe-legacy.txt) + the same file: the
#                           legacy FaceMesh for analyze;
#    mediapipe's native library needs the Debian package libusb-1.0-0 (installed with apt-get when missing);
# 2. fetches the models and sample pictures if missing (Models/fetch.sh), and makes the folder LIBRARY (out/library:
#    jpeg/ and heic/, COUNT files each) with Benchmarks/make_library.py when it has no manifest.json (about a minute
#    per HEIC on a busy 2-core machine: x265 is slow);
# 3. builds blazeface-bench in release unless SKIP_BUILD=1 (swift build -c release --disable-default-traits
#    --product blazeface-bench) and copies it to a temporary folder, so that a concurrent build cannot replace it
#    mid-run;
# 4. runs Benchmarks/compare_library.py: per round, format, verb and thread count, our process and MediaPipe's one
#    after the other (alternating which goes first), one-thread runs pinned to CPU $CPU;
# 5. prints the Markdown report and writes Benchmarks/results/latest-library.md and latest-library.json,
#    Documentation/benchmarks-library.svg and the library block of Documentation/Benchmarks.md.
#
# Environment (defaults in brackets): ROUNDS [3], PASSES [3] timed passes per run, THREADS [1,2], FORMATS [jpeg,heic],
# VERBS [detect,analyze], DECODES [full] (our ways of decoding, each a run in every round: full, shrink or shrink:N for
# --library-decode shrink --library-shrink-long-side N, JPEG detect only), CPU [0] (-1: do not pin), LIBRARY
# [out/library], COUNT [24] files per format when the folder is made, SKIP_BUILD=1, PYTHON [python3] (3.9-3.12, for
# mediapipe 0.10.21's wheels) to create the venvs. Arguments are passed on to Benchmarks/compare_library.py (for
# example --docs "" leaves the docs alone; --render-only redraws from the JSON).
# Needs python3 with venv, PyPI the first time, and Swift 6 (/opt/swift/usr/bin is added to PATH when present).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
python="${PYTHON:-python3}"
library="${LIBRARY:-$root/out/library}"

# 1. MediaPipe's environments
. "$here/mediapipe_venvs.sh"
ensure_libusb
mediapipe_venv "$root/.venv-libscan" 1.2.2 "pillow-heif" "$root/Tests/Goldens/requirements-mediapipe.txt" "$here/requirements-library.txt"
mediapipe_venv "$root/.venv-libscan-legacy" 0.10.21 "pillow-heif" "$root/Tests/Goldens/requirements-mediapipe-legacy.txt" "$here/requirements-library.txt"
echo "MediaPipe: $root/.venv-libscan (detect), $root/.venv-libscan-legacy (analyze)" >&2

# 2. models, pictures, the library folder
for f in Models/face_detection_full_range.tflite Models/face_landmark_with_attention.tflite Models/samples/t1.jpg; do
  if [ ! -f "$root/$f" ]; then "$root/Models/fetch.sh"; break; fi
done
if [ ! -f "$library/manifest.json" ]; then
  echo "Making $library (${COUNT:-24} 12 MP JPEGs and HEICs) ..." >&2
  "$root/.venv-libscan/bin/python" "$here/make_library.py" --out "$library" --count "${COUNT:-24}" >&2
fi

# 3. our bench
if [ -z "${SKIP_BUILD:-}" ]; then
  echo "Building blazeface-bench (release) ..." >&2
  swift build -c release --disable-default-traits --product blazeface-bench >&2
fi
tmp="$(mktemp -d "${TMPDIR:-/tmp}/compare-library.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
cp "$root/.build/release/blazeface-bench" "$tmp/blazeface-bench"

# 4-5. alternate, summarize, chart
python3 "$here/compare_library.py" \
  --bench "$tmp/blazeface-bench" --python "$root/.venv-libscan/bin/python" \
  --python-legacy "$root/.venv-libscan-legacy/bin/python" --library "$library" --models-dir "$root/Models" \
  --rounds "${ROUNDS:-3}" --passes "${PASSES:-3}" --threads "${THREADS:-1,2}" --formats "${FORMATS:-jpeg,heic}" \
  --verbs "${VERBS:-detect,analyze}" --decodes "${DECODES:-full}" --cpu "${CPU:-0}" "$@"
