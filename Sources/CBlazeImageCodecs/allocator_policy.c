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
    return mapped == 1 && trimmed == 1;
#else
    (void)bytes;
    return 0;
#endif
}
