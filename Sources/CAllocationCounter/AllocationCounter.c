#include "AllocationCounter.h"

#include <errno.h>
#include <stddef.h>

// Under a sanitizer (swift build --sanitize=thread or address), its runtime replaces malloc itself and must
// see every call from the first one, before it is initialized: an interposed malloc compiled with the
// sanitizer's instrumentation crashes the process at start-up (TSan, in its trace buffer). The counter is then
// compiled out, counting reports itself unavailable, and the allocation tests are skipped.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define BLAZE_ALLOCATION_COUNTER_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BLAZE_ALLOCATION_COUNTER_SANITIZED 1
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(BLAZE_ALLOCATION_COUNTER_SANITIZED)

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static __thread int counting;
static __thread long allocations;
static int counting_all_threads;
static long all_threads_allocations;

static inline void note(void) {
    if (counting) allocations += 1;
    if (__atomic_load_n(&counting_all_threads, __ATOMIC_RELAXED)) {
        __atomic_fetch_add(&all_threads_allocations, 1, __ATOMIC_RELAXED);
    }
}

void *malloc(size_t size) { note(); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { note(); return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { note(); return __libc_realloc(pointer, size); }
void *memalign(size_t alignment, size_t size) { note(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { note(); return __libc_memalign(alignment, size); }

int posix_memalign(void **result, size_t alignment, size_t size) {
    note();
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *memory = __libc_memalign(alignment, size);
    if (memory == NULL) return ENOMEM;
    *result = memory;
    return 0;
}

int blaze_allocation_counting_available(void) { return 1; }
void blaze_allocation_counting_begin(void) { allocations = 0; counting = 1; }
long blaze_allocation_counting_end(void) { counting = 0; return allocations; }

void blaze_allocation_counting_begin_all_threads(void) {
    __atomic_store_n(&all_threads_allocations, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&counting_all_threads, 1, __ATOMIC_SEQ_CST);
}

long blaze_allocation_counting_end_all_threads(void) {
    __atomic_store_n(&counting_all_threads, 0, __ATOMIC_SEQ_CST);
    return __atomic_load_n(&all_threads_allocations, __ATOMIC_SEQ_CST);
}

#else

int blaze_allocation_counting_available(void) { return 0; }
void blaze_allocation_counting_begin(void) {}
long blaze_allocation_counting_end(void) { return 0; }
void blaze_allocation_counting_begin_all_threads(void) {}
long blaze_allocation_counting_end_all_threads(void) { return 0; }

#endif
