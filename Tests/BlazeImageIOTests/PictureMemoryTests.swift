import BlazeImageIO
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `PictureMemory.keepLargeBlocks()`: with glibc, a picture-sized block comes from the allocator's heap (where the
/// next picture reuses its pages) instead of a mapping of its own. What that saves is measured in Imaging.md; the
/// test checks the allocator's choice, which no other test's allocations can disturb.
@Suite struct PictureMemoryTests {
    #if canImport(Glibc)
    /// Whether glibc mapped the block at `pointer` on its own: the IS_MMAPPED bit (2) of the size word that
    /// precedes every block glibc's malloc returns.
    static func isMappedOnItsOwn(_ pointer: UnsafeMutableRawPointer) -> Bool {
        (pointer - MemoryLayout<Int>.size).load(as: Int.self) & 2 != 0
    }

    @Test("a 40 MB block (a 13 MP picture) comes from the heap once the setting is made, not from a mapping of its own")
    func largeBlocksFromTheHeap() throws {
        // Without the setting glibc maps such a block on its own: its dynamic threshold stops at 32 MiB.
        #expect(PictureMemory.keepLargeBlocks())
        let block = try #require(malloc(40 << 20))
        defer { free(block) }
        #expect(!Self.isMappedOnItsOwn(block))
        // Above the chosen size, blocks are still mapped on their own.
        let huge = try #require(malloc(300 << 20))
        defer { free(huge) }
        #expect(Self.isMappedOnItsOwn(huge))
    }
    #endif
}
