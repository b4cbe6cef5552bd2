// The C allocator's policy for large blocks (see blz_keep_large_blocks in BlazeImageCodecs.h).
#include "BlazeImageCodecs.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int blz_keep_large_blocks(size_t bytes) {
#if defined(__GLIBC__)
    const size_t cap = (size_t)1 << 30;
    if (bytes > cap) bytes = cap;
    // The trim threshold above the mmap threshold: a freed picture buffer at the top of the heap stays mapped.
    int mapped = mallopt(M_MMAP_THRESHOLD, (int)bytes);
    int trimmed = mallopt(M_TRIM_THRESHOLD, (int)(bytes * 2 > (size_t)0x7fffffff ? 0x7fffffff : bytes * 2));
    // One heap for every thread. A thread other than the main one gets a heap of its own, which glibc caps at
    // 64 MiB (HEAP_MAX_SIZE) and unmaps once empty, whatever the trim threshold: a HEIC decode holds more than that
    // at once (libavcodec's frame, libheif's planes and its cropped copy, the picture), so its blocks were mapped
    // afresh per picture. The main heap grows without that cap and keeps its memory.
    int shared = mallopt(M_ARENA_MAX, 1);
    return mapped == 1 && trimmed == 1 && shared == 1;
#else
    (void)bytes;
    return 0;
#endif
}
