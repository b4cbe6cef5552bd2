#!/usr/bin/env bash
# Regenerates every golden file under Tests/Goldens/ — the one command:
#
#   Tests/Goldens/generate.sh
#
# 1. creates (or reuses) the virtual environment .venv-goldens/ at the repo root with the pinned packages
#    of Tests/Goldens/requirements.txt (ai-edge-litert, numpy, pillow and their dependencies);
# 2. runs Models/fetch.sh (idempotent; checks every model's sha256, and fetches the sample pictures,
#    among them Models/samples/astronaut.png, a public-domain NASA photo of Eileen Collins);
# 3. checks the sample picture's sha256;
# 4. runs Tests/Goldens/generate.py with the venv's python;
# 5. MediaPipe Tasks parity goldens: the Debian package libusb-1.0-0 (installed if missing), the separate venv
#    .venv-mediapipe/ with the pins of requirements-mediapipe.txt, Tests/Goldens/mediapipe_parity.py, then
#    mediapipe_crosscheck.py (LiteRT venv) re-deriving every MediaPipe detection from LiteRT.
# 6. legacy Face Mesh parity goldens: the separate venv .venv-mp-legacy/ with the pins of
#    requirements-mediapipe-legacy.txt (mediapipe 0.10.21, numpy < 2), then Tests/Goldens/face_mesh_parity.py.
# 7. legacy Selfie Segmentation parity goldens, in the same venv: Tests/Goldens/segmentation_parity.py.
# Needs python3 (3.10-3.13) with pip and venv, and access to PyPI (step 6 was made with Python 3.11;
# PYTHON_MP_LEGACY chooses its interpreter). Output is deterministic.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="$root/.venv-goldens"
python="${PYTHON:-python3}"

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

# 3. sample picture: Models/fetch.sh (step 2) fetched it from the pinned scikit-image wheel; check it again.
if [ ! -f "$sample" ] || [ "$(sha "$sample")" != "$sample_sha256" ]; then
  echo "error: $sample is missing or has the wrong checksum; run Models/fetch.sh" >&2
  exit 1
fi

# 4. goldens
"$venv/bin/python" "$here/generate.py"
echo "Goldens written to Tests/Goldens/ ($(du -sh "$here" | cut -f1))."

# 5. MediaPipe Tasks parity goldens (Tests/Goldens/mediapipe/); mediapipe's native library needs libusb-1.0-0.
if command -v dpkg >/dev/null 2>&1 && ! dpkg -s libusb-1.0-0 >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libusb-1.0-0
fi
venv_mp="$root/.venv-mediapipe"
if [ ! -x "$venv_mp/bin/python" ]; then
  echo "Creating $venv_mp ..."
  "$python" -m venv "$venv_mp"
fi
"$venv_mp/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements-mediapipe.txt"
"$venv_mp/bin/python" "$here/mediapipe_parity.py"
"$venv/bin/python" "$here/mediapipe_crosscheck.py"

# 6. Legacy Face Mesh parity goldens (Tests/Goldens/mediapipe/face_mesh.json and face_mesh_input_*.npy).
venv_legacy="$root/.venv-mp-legacy"
if [ ! -x "$venv_legacy/bin/python" ]; then
  echo "Creating $venv_legacy ..."
  "${PYTHON_MP_LEGACY:-$python}" -m venv "$venv_legacy"
fi
"$venv_legacy/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements-mediapipe-legacy.txt"
"$venv_legacy/bin/python" "$here/face_mesh_parity.py"

# 7. Legacy Selfie Segmentation parity goldens (Tests/Goldens/mediapipe/segmentation.json and segmentation_*.png).
"$venv_legacy/bin/python" "$here/segmentation_parity.py"
