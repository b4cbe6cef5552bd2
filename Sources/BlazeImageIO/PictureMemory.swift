internal import CBlazeImageCodecs

/// How a process that decodes many large pictures one after the other keeps their memory.
///
/// A decoded 12 MP picture is a 36 MB block. glibc's allocator maps a block that large afresh on each request and
/// unmaps it when it is freed, so every picture's pixels are new pages: the kernel zeroes them and takes a page
/// fault per 4 KiB as the decoder writes them (about 9,000 for 12 MP). Measured with `blazeface-bench --library`
/// on 12 MP JPEGs, one thread: 36.9 ms of CPU per decode, 15 of them in the kernel; with
/// `keepLargeBlocks()`, 21.2 ms (Documentation/Imaging.md). The blocks are then served from the allocator's heap
/// and reused by the next picture, at the price of keeping the largest picture's memory per thread until the
/// process ends (its resident size stays at its peak instead of falling between pictures).
///
/// Process-wide and best called once at start-up, before the threads that decode start: the `blazeface`
/// command calls it. A library embedded in an app should leave the app's allocator alone unless the app scans
/// pictures; this type only offers the switch.
public enum PictureMemory {
    /// Serves blocks up to `bytes` from the allocator's heap and keeps freed memory for the next block (glibc's
    /// `M_MMAP_THRESHOLD` to `bytes`, `M_TRIM_THRESHOLD` to twice that; at most 1 GiB), and has every thread
    /// allocate from the main heap (`M_ARENA_MAX` 1): glibc caps each other thread's heap at 64 MiB and unmaps it
    /// once empty, which a HEIC decode outgrows. Blocks larger than `bytes` are still mapped and unmapped each time.
    /// The arena setting only holds if made before threads have allocated: call this first thing in `main`.
    /// - Parameter bytes: the largest block kept: 256 MiB by default (an 85 MP RGB picture).
    /// - Returns: whether the allocator took the setting; false where there is none (not glibc: Darwin,
    ///   musl), and under sanitizers that replace the allocator it may be true with no effect.
    @discardableResult
    public static func keepLargeBlocks(upTo bytes: Int = 256 << 20) -> Bool {
        blz_keep_large_blocks(max(bytes, 0)) == 1
    }
}
