#!/usr/bin/env bash
# Regenerates every golden file under Tests/Goldens/ — the one command:
#
#   Tests/Goldens/generate.sh
#
# 1. creates (or reuses) the virtual environment .venv-goldens/ at the repo root with the pinned packages
#    of Tests/Goldens/requirements.txt (ai-edge-litert, numpy, pillow and their dependencies);
# 2. runs Models/fetch.sh (idempotent; checks every model's sha256);
# 3. fetches the sample picture Models/samples/astronaut.png (public-domain NASA photo of Eileen Collins)
#    from the pinned scikit-image wheel on PyPI, checking the wheel's and the picture's sha256;
# 4. runs Tests/Goldens/generate.py with the venv's python.
# Needs python3 (3.10-3.13) with pip and venv, and access to PyPI. Output is deterministic.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="$root/.venv-goldens"
python="${PYTHON:-python3}"

skimage_version="0.25.2"
skimage_wheel="scikit_image-0.25.2-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
skimage_wheel_sha256="24cc986e1f4187a12aa319f777b36008764e856e5013666a4a83f8df083c2641"
sample="$root/Models/samples/astronaut.png"
sample_sha256="88431cd9653ccd539741b555fb0a46b61558b301d4110412b5bc28b5e3ea6cb5"

sha() { sha256sum "$1" | cut -d' ' -f1; }

# 1. virtual environment
if [ ! -x "$venv/bin/python" ]; then
  echo "Creating $venv ..."
  "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"

# 2. models
"$root/Models/fetch.sh"

# 3. sample picture
if [ -f "$sample" ] && [ "$(sha "$sample")" = "$sample_sha256" ]; then
  echo "Models/samples/astronaut.png present and verified."
else
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  echo "Downloading scikit-image==$skimage_version (wheel only, for skimage/data/astronaut.png) ..."
  "$venv/bin/python" -m pip download --quiet --no-deps --disable-pip-version-check --only-binary=:all: \
    --python-version 3.11 --implementation cp --platform manylinux_2_17_x86_64 \
    "scikit-image==$skimage_version" -d "$tmp"
  [ -f "$tmp/$skimage_wheel" ] || { echo "error: pip did not produce $skimage_wheel" >&2; exit 1; }
  got="$(sha "$tmp/$skimage_wheel")"
  if [ "$got" != "$skimage_wheel_sha256" ]; then
    echo "error: checksum mismatch for $skimage_wheel: got $got, want $skimage_wheel_sha256" >&2
    exit 1
  fi
  "$venv/bin/python" - "$tmp/$skimage_wheel" "$tmp/astronaut.png" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, open(sys.argv[2], "wb") as f:
    f.write(z.read("skimage/data/astronaut.png"))
PY
  got="$(sha "$tmp/astronaut.png")"
  if [ "$got" != "$sample_sha256" ]; then
    echo "error: checksum mismatch for astronaut.png: got $got, want $sample_sha256" >&2
    exit 1
  fi
  mkdir -p "$(dirname "$sample")"
  mv -f "$tmp/astronaut.png" "$sample"
  echo "Models/samples/astronaut.png fetched and verified."
fi

# 4. goldens
"$venv/bin/python" "$here/generate.py"
echo "Goldens written to Tests/Goldens/ ($(du -sh "$here" | cut -f1))."
