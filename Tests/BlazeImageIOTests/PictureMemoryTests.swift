import BlazeImageIO
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `PictureMemory.keepLargeBlocks()`: with glibc, a picture-sized block comes from the allocator's heap and its
/// pages are reused by the next one, instead of a fresh mapping that the kernel faults in page by page.
@Suite struct PictureMemoryTests {
    #if canImport(Glibc)
    /// Page faults taken by this thread so far.
    static func threadPageFaults() -> Int {
        var usage = rusage()
        _ = getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD
        return usage.ru_minflt
    }

    @Test("a 40 MB block (a 13 MP picture) written again after it is freed takes almost no page faults")
    func largeBlocksKeepTheirPages() {
        #expect(PictureMemory.keepLargeBlocks())
        let bytes = 40 << 20, pages = bytes / 4096
        var faults: [Int] = []
        for _ in 0..<4 {
            let before = Self.threadPageFaults()
            let block = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
            block.initializeMemory(as: UInt8.self, repeating: 1, count: bytes)
            block.deallocate()
            faults.append(Self.threadPageFaults() - before)
        }
        // Freshly mapped, each round would fault in every page (10,240). The first round may; the best of the
        // others must not (the minimum: another thread may take the freed block in between, rarely).
        #expect(faults.dropFirst().min()! < pages / 10, "page faults per round: \(faults)")
    }
    #endif
}
