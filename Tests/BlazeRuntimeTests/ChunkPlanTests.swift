@testable import BlazeRuntime
import Testing

/// How the interpreter splits a step for its worker pool: contiguous chunks that cover the kernel's pieces
/// exactly once, near-equal contiguous shares per thread, chunks that shrink towards the end of each share,
/// and no split where the work is too small to share.
@Suite("Chunk plans")
struct ChunkPlanTests {
    @Test("chunks cover the pieces once, in per-thread shares", arguments: [2, 3, 4, 8])
    func coversPieces(threads: Int) throws {
        for pieces in [2, 3, 5, 8, 17, 64, 171, 1_000, 70_000] {
            for nanoseconds in [3_000, 10_000, 55_000, 1_000_000, 100_000_000] {
                let plan = try #require(Interpreter.chunkPlan(pieces: pieces, nanoseconds: nanoseconds, threads: threads))
                #expect(plan.isValid(pieces: pieces), "\(pieces) pieces, \(nanoseconds) ns")
                #expect(plan.threadStarts.count == threads + 1)
                #expect(plan.bounds.count - 1 <= WorkerPool.maximumParts)
                // Thread t's share is pieces [pieces·t/threads, pieces·(t+1)/threads).
                for thread in 0..<threads {
                    let first = plan.bounds[plan.threadStarts[thread]]
                    let last = plan.bounds[plan.threadStarts[thread + 1]]
                    #expect(first == pieces * thread / threads && last == pieces * (thread + 1) / threads)
                    // Within a share, chunks never grow, but for the last (the rest of the share).
                    let sizes = (plan.threadStarts[thread]..<plan.threadStarts[thread + 1]).map {
                        plan.bounds[$0 + 1] - plan.bounds[$0]
                    }
                    #expect(zip(sizes, sizes.dropFirst()).dropLast().allSatisfy { $0 >= $1 }, "\(sizes)")
                }
            }
        }
    }

    @Test("small steps, one piece or one thread: not split")
    func notSplit() {
        #expect(Interpreter.chunkPlan(pieces: 100, nanoseconds: Interpreter.minimumSplitNanoseconds - 1, threads: 2) == nil)
        #expect(Interpreter.chunkPlan(pieces: 1, nanoseconds: 1_000_000, threads: 2) == nil)
        #expect(Interpreter.chunkPlan(pieces: 100, nanoseconds: 1_000_000, threads: 1) == nil)
    }

    @Test("chunks are no smaller than the minimum work, and a large share starts with half of it")
    func chunkSizes() throws {
        // 171 pieces of ~320 ns (a 55 µs GEMM of 6-row tiles), 2 threads: shares of 85 and 86 pieces.
        let plan = try #require(Interpreter.chunkPlan(pieces: 171, nanoseconds: 55_000, threads: 2))
        let smallest = (171 * Interpreter.minimumChunkNanoseconds + 54_999) / 55_000
        let sizes = zip(plan.bounds, plan.bounds.dropFirst()).map { $1 - $0 }
        #expect(plan.threadStarts == [0, 5, 10])
        #expect(sizes == [43, 21, 11, 5, 5, 43, 22, 11, 5, 5])
        #expect(smallest == 5)
    }

    @Test("a plan that does not fit the kernel's pieces runs the step whole")
    func invalidPlans() {
        let good = ChunkPlan(bounds: [0, 4, 8], threadStarts: [0, 1, 2])
        #expect(good.isValid(pieces: 8))
        #expect(!good.isValid(pieces: 9))
        #expect(!ChunkPlan(bounds: [0, 4, 4, 8], threadStarts: [0, 1, 3]).isValid(pieces: 8))
        #expect(!ChunkPlan(bounds: [0, 8], threadStarts: [0, 1]).isValid(pieces: 8))
        #expect(!ChunkPlan(bounds: [0, 4, 8], threadStarts: [0, 2, 1]).isValid(pieces: 8))
        #expect(!ChunkPlan(bounds: [0, 4, 8], threadStarts: [0, 1]).isValid(pieces: 8))
    }
}
