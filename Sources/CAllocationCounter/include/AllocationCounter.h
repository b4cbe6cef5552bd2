// Counts heap allocations made by the calling thread (or by every thread), for tests and benchmarks that
// check that a hot path (Interpreter.invoke, FaceDetector.detect) allocates nothing. Package-internal: no
// product exposes it, and only executables that must count (the test binary, blazeface-bench) link it.
//
// On Linux with glibc, linking this target into an executable interposes malloc, calloc, realloc,
// posix_memalign, aligned_alloc and memalign; each forwards to glibc's own implementation. Elsewhere
// counting is unavailable and blaze_allocation_counting_available() returns 0.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when allocations can be counted on this platform.
int blaze_allocation_counting_available(void);
/// Starts counting the calling thread's allocations from zero.
void blaze_allocation_counting_begin(void);
/// Stops counting and returns how many allocations the calling thread made since the begin call.
long blaze_allocation_counting_end(void);
/// Starts counting the allocations of every thread of the process from zero (for a process that runs
/// nothing else meanwhile, such as the benchmark; tests running in parallel would count each other's).
void blaze_allocation_counting_begin_all_threads(void);
/// Stops counting every thread's allocations and returns how many there were since the begin call.
long blaze_allocation_counting_end_all_threads(void);

#ifdef __cplusplus
}
#endif
