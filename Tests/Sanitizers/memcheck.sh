#!/usr/bin/env bash
# valgrind memcheck over a short pipeline run of the command-line tool: detect, landmarks (attention mesh with
# iris) and segment with a blurred background, each on the sample pictures, one with two interpreter threads;
# and track (with landmarks, attributes and an annotated video written) on a 15-frame pan over a sample picture
# that the ffmpeg tool makes (skipped without it).
# Fails on any memcheck error (invalid read or write, uninitialised value, bad free) or "definitely lost"
# block. See Documentation/Reliability.md for what the output holds and why nothing is suppressed.
#
#   Tests/Sanitizers/memcheck.sh             # release build
#   Tests/Sanitizers/memcheck.sh debug       # debug build (slower; unoptimized code paths)
#   Tests/Sanitizers/memcheck.sh release track landmarks   # only these runs
#
# Needs valgrind and the fetched models and pictures (Models/fetch.sh). Logs go to .build/memcheck/.
# Set SANITIZER_BUILD_LOCK=<file> to flock the build on a shared machine.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export PATH="/opt/swift/usr/bin:$PATH"

configuration="${1:-release}"
shift || true
only=("$@")
locked() { if [ -n "${SANITIZER_BUILD_LOCK:-}" ]; then flock "$SANITIZER_BUILD_LOCK" "$@"; else "$@"; fi; }
locked swift build -c "$configuration" --product blazeface
work=.build/memcheck
rm -rf "$work" && mkdir -p "$work/out"
# valgrind 3.19 (Debian 12) cannot read the DWARF 5 that Swift 6 emits and gives up on the binary, so memcheck
# runs a copy without debug information: reports name functions (from the symbol table), not lines.
cp "$(swift build -c "$configuration" --show-bin-path)/blazeface" "$work/blazeface"
strip --strip-debug "$work/blazeface"

pictures=(Models/samples/astronaut.png Models/samples/camera.png Models/samples/rocket.jpg)
runs=(
  "detect:detect ${pictures[*]} --models-dir Models"
  "detect-threads:detect ${pictures[*]} --models-dir Models --threads 2"
  "landmarks:landmarks ${pictures[*]} --models-dir Models"
  "segment:segment ${pictures[*]} --models-dir Models --background blur --out $work/out"
)
if command -v ffmpeg > /dev/null; then
  # 15 frames of a 320x240 window panning over the astronaut, H.264 (MPEG-4 Part 2 without libx264).
  codec=mpeg4; ffmpeg -hide_banner -encoders 2> /dev/null | grep -q libx264 && codec=libx264
  ffmpeg -loglevel error -y -loop 1 -i Models/samples/astronaut.png -t 1 -r 15 \
    -vf "crop=320:240:80+t*40:40+t*20,format=yuv420p" -c:v "$codec" "$work/pan.mp4"
  runs+=("track:track $work/pan.mp4 --models-dir Models --landmarks --attributes --json-lines --annotate $work/out/pan.mp4")
else
  echo "track: skipped (no ffmpeg tool to make the video)"
fi
status=0
for run in "${runs[@]}"; do
  name="${run%%:*}"
  if [ "${#only[@]}" -gt 0 ] && [[ ! " ${only[*]} " == *" $name "* ]]; then continue; fi
  read -r -a arguments <<< "${run#*:}"
  log="$work/$name.log"
  code=0
  nice -n 19 valgrind --tool=memcheck --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 \
    --num-callers=30 "$work/blazeface" "${arguments[@]}" > "$log" 2>&1 || code=$?
  errors=$(grep -o 'ERROR SUMMARY: [0-9,]* errors' "$log" | tail -1)
  definite=$(grep -o 'definitely lost: [0-9,]* bytes in [0-9,]* blocks' "$log" | tail -1)
  possible=$(grep -o 'possibly lost: [0-9,]* bytes in [0-9,]* blocks' "$log" | tail -1)
  echo "$name: exit $code; ${errors:-no summary}; ${definite:-definitely lost: 0 (no leaks)}; ${possible:-possibly lost: 0}"
  [ "$code" = 0 ] || status=1
done
exit "$status"
