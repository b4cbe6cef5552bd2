#!/usr/bin/env bash
# Builds the package's tests with a sanitizer and runs a set of them; prints the build and test times.
#
#   Tests/Sanitizers/run.sh thread               # ThreadSanitizer over the concurrency tests
#   Tests/Sanitizers/run.sh address              # AddressSanitizer over the corruption and fuzz-regression tests
#   Tests/Sanitizers/run.sh thread --all         # the whole suite (slow: every test at TSan's speed)
#   Tests/Sanitizers/run.sh address --filter 'PNGChunk'
#
# Each sanitizer builds into its own scratch folder (.build-thread, .build-address; git-ignored), so the
# ordinary debug build is left alone and a second run rebuilds only what changed. A sanitizer report fails
# the run: TSAN_OPTIONS=halt_on_error=1 and ASan's default. Set SANITIZER_BUILD_LOCK=<file> to flock the
# build and the run on a shared machine. The allocation counter is compiled out under a sanitizer (see
# Sources/CAllocationCounter), so the allocation tests are skipped. The Server trait stays off (the
# package's default: no `blazeface serve`, so neither Hummingbird nor its dependencies are built again under the
# sanitizer) unless SANITIZER_TRAITS=server; the worker pool's tests build without it. See Documentation/Reliability.md for what each set holds and the
# latest results.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

sanitizer="${1:-}"
case "$sanitizer" in
  thread)
    # Shared and per-thread detectors, landmarkers, segmenters, replacers, sessions and interpreters, trackers
    # sharing a landmarker or handed between threads, video readers and writers at once (FFmpeg), and the
    # worker pool and concurrent sections that every multi-threaded interpreter runs on, and the frame prefetcher's decoder thread.
    # The server's worker pool (WorkPoolTests) too.
    filter='Concurrency|ThreadSafety|ThreadTests|sharedAcrossThreads|WorkerPool|WorkPoolTests|ConcurrentSection|FramePrefetcherTests' ;;
  address)
    # Corrupted and truncated models, seeded image corruptions, hostile files, and the regression tests of
    # every fuzzing finding.
    filter='CorruptionTests|TruncationTests|FuzzTests|FuzzRegression|HostileFileTests|PNGChunkLength|ReaderTests|FlexBufferTests|ResourceLimit|HEIFDecodingTests|ColorProfileTests' ;;
  *)
    echo "usage: $0 thread|address [--all | --filter REGEX]" >&2
    exit 2 ;;
esac
shift
case "${1:-}" in
  --all) filter='' ;;
  --filter) filter="$2" ;;
  '') ;;
  *) echo "unknown option $1" >&2; exit 2 ;;
esac

# On a shared machine, hold the lock for the whole run (build and tests), so the times below are the run's own.
if [ -n "${SANITIZER_BUILD_LOCK:-}" ] && [ -z "${SANITIZER_LOCK_HELD:-}" ]; then
  exec env SANITIZER_LOCK_HELD=1 flock "$SANITIZER_BUILD_LOCK" "$0" "$sanitizer" "$@"
fi
export PATH="/opt/swift/usr/bin:$PATH"
# Swift's backtracer handles a trap before the sanitizer does and reads memory in a way ASan reports.
export SWIFT_BACKTRACE=enable=no
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
export ASAN_OPTIONS="detect_leaks=0 ${ASAN_OPTIONS:-}"
scratch=".build-$sanitizer"
traits=()
[ "${SANITIZER_TRAITS:-}" = server ] && traits=(--traits Server)

start=$(date +%s)
swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" ${traits[@]+"${traits[@]}"}
built=$(date +%s)
test_arguments=(--skip-build --sanitize="$sanitizer" --scratch-path "$scratch" ${traits[@]+"${traits[@]}"})
[ -n "$filter" ] && test_arguments+=(--filter "$filter")
status=0
swift test "${test_arguments[@]}" || status=$?
done_at=$(date +%s)
echo "sanitizer $sanitizer: build $((built - start)) s, tests $((done_at - built)) s, filter '${filter:-<all>}', exit $status"
exit "$status"
