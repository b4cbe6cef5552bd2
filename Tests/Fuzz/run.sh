#!/usr/bin/env bash
# Builds the libFuzzer targets of this package and runs them one after the other.
#
#   Tests/Fuzz/run.sh [target...] [--runs N | --minutes T] [--no-build]
#
# Targets: tflite image imagetotensor flexbuffers npy video (default: all). Each runs for N executions (default
# 1,000,000) or T minutes, at nice 19, one at a time. Seeds are made at run time from the repository's files
# (Models/*.tflite and samples, the image fixtures, the goldens' .npy, flatc-built test models) into
# .work/seeds/<target>; the corpus grows in .work/corpus/<target> and is kept between runs. Crash, timeout and
# out-of-memory inputs land in findings/<target>/ (libFuzzer stops a target at its first). Both folders are
# git-ignored; a finding becomes a regression test in the main package's tests. To replay one:
#   SWIFT_BACKTRACE=enable=no Tests/Fuzz/.build/release/fuzz-<target> Tests/Fuzz/findings/<target>/crash-...
#
# Environment: SWIFT (default: swift), FUZZ_BUILD_LOCK (a file to flock around the build, for shared machines),
# FUZZ_ZOO (a folder of .tflite files, such as Tests/Conformance/Zoo's, whose small models join the tflite seeds).
# There is no parallel mode on purpose: one fuzzer, one process, at a time.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$here"

all_targets=(tflite image imagetotensor flexbuffers npy video)
targets=()
runs=1000000
minutes=""
build=1
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --minutes) minutes="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        tflite|image|imagetotensor|flexbuffers|npy|video) targets+=("$1"); shift ;;
        *) echo "run.sh: unknown argument '$1' (targets: ${all_targets[*]})" >&2; exit 2 ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

# MARK: build

swift="${SWIFT:-swift}"
build_command=("$swift" build -c release
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
    -Xcc -fsanitize=fuzzer-no-link,address)
if [ "$build" = 1 ]; then
    if [ -n "${FUZZ_BUILD_LOCK:-}" ]; then
        flock "$FUZZ_BUILD_LOCK" "${build_command[@]}"
    else
        "${build_command[@]}"
    fi
fi
bin="$here/.build/release"

# MARK: seeds

work="$here/.work"
mkdir -p "$work/logs"

# Copies the files given (those that exist and are at most $1 bytes) into the seed folder $2.
copy_seeds() {
    local limit="$1" dir="$2"; shift 2
    local file
    for file in "$@"; do
        if [ -f "$file" ] && [ "$(wc -c < "$file")" -le "$limit" ]; then cp "$file" "$dir/"; fi
    done
}

prepare_seeds() {
    local target="$1" dir="$work/seeds/$1"
    rm -rf "$dir"; mkdir -p "$dir"
    case "$target" in
        tflite)
            # The real detectors (the landmark models are over 1 MB, beyond -max_len), and the small test
            # models of Tests/Schema, and one-operator models of the landmark model's CUSTOM operators.
            copy_seeds 400000 "$dir" "$root"/Models/*.tflite
            # FUZZ_ZOO: a folder of models such as Tests/Conformance/Zoo's (those under 400 KB are seeds).
            [ -n "${FUZZ_ZOO:-}" ] && copy_seeds 400000 "$dir" "$FUZZ_ZOO"/*.tflite
            if command -v flatc > /dev/null; then
                flatc -b -o "$dir" "$root/Tests/Schema/tflite_subset.fbs" "$root"/Tests/Schema/models/*.json \
                    2> /dev/null || true
                rm -f "$dir/expected.tflite"
                # The operator conformance models (every general-purpose operator, a few KB each).
                flatc -b -o "$dir" "$root/Tests/Schema/tflite_subset.fbs" \
                    "$root"/Tests/Conformance/Operators/models/*.json 2> /dev/null || true
                if [ -f "$root/Models/face_landmark_with_attention.tflite" ] && command -v python3 > /dev/null; then
                    mkdir -p "$work/flex-extra"
                    python3 "$here/make_seeds.py" "$root/Tests/Schema/tflite_dump.fbs" \
                        "$root/Tests/Schema/tflite_subset.fbs" "$root/Models/face_landmark_with_attention.tflite" \
                        "$work/flex-extra" "$dir"
                fi
            fi ;;
        image)
            local fixtures="$root/Tests/BlazeImageIOTests/Fixtures"
            copy_seeds 1000000 "$dir" "$fixtures"/*.jpg "$fixtures"/*.png "$fixtures"/*.webp "$fixtures"/*.tif \
                "$fixtures"/*.gif "$fixtures"/*.bmp "$fixtures"/*.p[bgpn]m "$fixtures"/*.heic "$fixtures"/*.avif \
                "$root"/Models/samples/*.jpg "$root"/Models/samples/*.png ;;
        imagetotensor)
            cp "$here"/seeds/imagetotensor/*.bin "$dir/" ;;
        flexbuffers)
            if command -v flatc > /dev/null; then
                local json
                for json in "$here"/seeds/flexbuffers/*.json; do
                    flatc --flexbuffers -b -o "$dir" "$json"
                done
            fi
            if [ -f "$root/Models/face_landmark_with_attention.tflite" ] && command -v python3 > /dev/null \
                && command -v flatc > /dev/null; then
                mkdir -p "$work/tflite-extra"
                python3 "$here/make_seeds.py" "$root/Tests/Schema/tflite_dump.fbs" \
                    "$root/Tests/Schema/tflite_subset.fbs" "$root/Models/face_landmark_with_attention.tflite" \
                    "$dir" "$work/tflite-extra"
            fi ;;
        npy)
            copy_seeds 16384 "$dir" $(find "$root/Tests/Goldens" -name '*.npy' | sort) ;;
        video)
            # Tiny videos (64x48, 4 frames) in each container and codec the system's ffmpeg tool writes; without
            # the tool, libFuzzer starts from an empty corpus.
            if command -v ffmpeg > /dev/null; then
                local spec
                for spec in "h264.mp4 libx264" "h264.mkv libx264" "mpeg4.avi mpeg4" "mpeg4.mov mpeg4" \
                    "hevc.mp4 libx265" "vp9.webm libvpx-vp9" "h264.ts libx264" "vp8.ivf libvpx"; do
                    set -- $spec
                    ffmpeg -loglevel quiet -y -f lavfi -i testsrc=size=64x48:rate=10 -frames:v 4 -c:v "$2" \
                        -pix_fmt yuv420p "$dir/$1" < /dev/null 2> /dev/null || true
                done
                ffmpeg -loglevel quiet -y -f lavfi -i testsrc=size=64x48:rate=10 -frames:v 4 -c:v libx264 \
                    -metadata:s:v rotate=90 "$dir/rotated.mp4" < /dev/null 2> /dev/null || true
            fi ;;
    esac
}

# The longest input each target tries (the detectors are about 230 KB; pictures up to 1 MB).
max_len() {
    case "$1" in
        tflite) echo 400000 ;;
        image) echo 1000000 ;;
        imagetotensor) echo 4096 ;;
        flexbuffers) echo 4096 ;;
        npy) echo 65536 ;;
        video) echo 65536 ;;
    esac
}

# MARK: run

# Let libFuzzer and AddressSanitizer report a trap (a Swift runtime failure), not Swift's backtracer, whose
# crash handler reads memory that ASan then reports as a second, spurious error.
export SWIFT_BACKTRACE=enable=no

summary=()
for target in "${targets[@]}"; do
    prepare_seeds "$target"
    corpus="$work/corpus/$target"
    findings="$here/findings/$target"
    mkdir -p "$corpus" "$findings"
    log="$work/logs/$target.log"
    limit=(-runs="$runs")
    [ -n "$minutes" ] && limit=(-max_total_time="$((minutes * 60))")
    dict=()
    [ -f "$here/dictionaries/$target.dict" ] && dict=(-dict="$here/dictionaries/$target.dict")
    echo "== fuzz-$target (${limit[*]}, log: ${log#"$root/"})"
    start=$(date +%s)
    touch "$work/start-$target"
    status=0
    nice -n 19 "$bin/fuzz-$target" "${limit[@]}" -max_len="$(max_len "$target")" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$findings/" "${dict[@]}" "$corpus" "$work/seeds/$target" \
        > "$log" 2>&1 || status=$?
    seconds=$(( $(date +%s) - start ))
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    # libFuzzer's average_exec_per_sec divides by whole seconds of its own; this is over the whole run.
    speed="?"
    [ -n "$executions" ] && [ "$seconds" -gt 0 ] && speed=$((executions / seconds))
    last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$last")
    corpus_files=$(find "$corpus" -type f | wc -l)
    # Findings of this run only (earlier ones stay in the folder until removed).
    found=$(find "$findings" -type f -newer "$work/start-$target" | wc -l)
    line="fuzz-$target: ${executions:-?} executions in ${seconds}s (${speed}/s), cov ${cov:-?}, ft ${ft:-?}, corpus ${corpus_files}, findings ${found}, exit ${status}"
    echo "$line"
    if [ "$status" != 0 ]; then grep -E '^(==[0-9]+==ERROR|SUMMARY|Fatal error|.*Fatal error)' "$log" | head -5 || true; fi
    summary+=("$line")
done

echo
echo "Summary ($(date -u +%Y-%m-%d), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')):"
printf '  %s\n' "${summary[@]}"
