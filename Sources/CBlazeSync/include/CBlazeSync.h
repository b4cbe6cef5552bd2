#ifndef CBLAZESYNC_H
#define CBLAZESYNC_H

#include <stdint.h>

/// Atomic operations on 64-bit words (`int64_t`) and a spin-wait hint, for BlazeRuntime's worker pool.
///
/// They are static inline wrappers of the compiler's `__atomic` builtins, so Swift code can use them on
/// memory it allocated itself (an `UnsafeMutablePointer<Int64>`), without the deployment-target
/// requirements of the Synchronization module. The words are 64 bits on every platform (not `long`, which
/// has 32 bits on Windows and on 32-bit systems): the pool packs a 31-bit generation above two 16-bit
/// fields into one word, and stores pointers in words.

/// Loads `*word` with acquire ordering.
static inline int64_t blaze_atomic_load_acquire(const int64_t *word) {
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

/// Loads `*word` with sequentially consistent ordering.
static inline int64_t blaze_atomic_load(const int64_t *word) {
    return __atomic_load_n(word, __ATOMIC_SEQ_CST);
}

/// Loads `*word` with relaxed ordering.
static inline int64_t blaze_atomic_load_relaxed(const int64_t *word) {
    return __atomic_load_n(word, __ATOMIC_RELAXED);
}

/// Stores `value` into `*word` with relaxed ordering.
static inline void blaze_atomic_store_relaxed(int64_t *word, int64_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELAXED);
}

/// Replaces `*word` with `desired` if it equals `expected` (sequentially consistent); returns 1 if it did.
static inline int blaze_atomic_compare_exchange(int64_t *word, int64_t expected, int64_t desired) {
    return __atomic_compare_exchange_n(word, &expected, desired, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

/// Stores `value` into `*word` with release ordering.
static inline void blaze_atomic_store_release(int64_t *word, int64_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

/// Stores `value` into `*word` with sequentially consistent ordering.
static inline void blaze_atomic_store(int64_t *word, int64_t value) {
    __atomic_store_n(word, value, __ATOMIC_SEQ_CST);
}

/// Adds `delta` to `*word` (sequentially consistent) and returns the previous value.
static inline int64_t blaze_atomic_fetch_add(int64_t *word, int64_t delta) {
    return __atomic_fetch_add(word, delta, __ATOMIC_SEQ_CST);
}

/// Tells the CPU that this thread is spinning (x86 `pause`, arm64 `yield`), which saves power and lets a
/// sibling hyper-thread run.
static inline void blaze_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

#endif
