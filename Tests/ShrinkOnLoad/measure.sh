#!/bin/sh
# Issue 25's shrink-on-load measurements: every sample upscaled to 12 and 24 MP, decoded at 1/1 to 1/8, boxes and
# meshes against the full decode, printed as Markdown (Documentation/Imaging.md, "Photo libraries").
# Run from the repository's root after Models/fetch.sh: Tests/ShrinkOnLoad/measure.sh [extra swift test flags]
set -eu
BLAZEFACE_SHRINK_REPORT=1 exec swift test --disable-default-traits --filter ShrinkOnLoadMeasurements "$@"
