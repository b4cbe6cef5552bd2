import BlazeRuntime
import BlazeTestSupport
import CAllocationCounter
import Testing

/// `invoke()` must not touch the heap: the calling thread's malloc/calloc/realloc/posix_memalign calls
/// are counted by the CAllocationCounter target, which interposes glibc's allocator in the test binary.
@Suite("Allocations")
struct AllocationTests {
    @Test("the counter sees an allocation", .enabled(if: blaze_allocation_counting_available() == 1))
    func counterWorks() throws {
        blaze_allocation_counting_begin()
        let array = [Int](repeating: 7, count: 1000 + Int.random(in: 0..<2))
        let count = blaze_allocation_counting_end()
        #expect(array.count > 999)
        #expect(count >= 1)
    }

    /// With 2 threads the calling thread runs its share of every split step and dispatches the rest; the
    /// workers run the same kernel code (the benchmark counts every thread's allocations in its own process,
    /// where no other test runs).
    @Test("invoke() performs no heap allocation", .enabled(if: blaze_allocation_counting_available() == 1), arguments: GoldenManifest.modelKeys, [1, 2])
    func invokeDoesNotAllocate(model: String, threads: Int) throws {
        let manifest = try GoldenManifest.load()
        let entry = try #require(manifest.models[model])
        let interpreter = try Interpreter(
            modelPath: try TestResources.modelPath(entry.file), options: .init(threadCount: threads))
        interpreter.withInput(at: 0) { buffer in
            for i in buffer.indices { buffer[i] = Float(i % 255) / 127.5 - 1 }
        }
        interpreter.invoke()  // first run: nothing lazy may remain after this
        blaze_allocation_counting_begin()
        interpreter.invoke()
        interpreter.invoke()
        let count = blaze_allocation_counting_end()
        #expect(count == 0, "\(model), \(threads) threads: \(count) allocations in two invoke() calls")
    }
}
