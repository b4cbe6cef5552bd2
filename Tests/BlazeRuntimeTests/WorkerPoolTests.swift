@testable import BlazeRuntime
import Foundation
import Testing

/// The interpreter's worker pool: every part of every job runs exactly once, whichever thread claims it,
/// whether the workers are spinning or asleep; pools shut down cleanly.
func currentThreadID() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}

@Suite("Worker pool")
struct WorkerPoolTests {
    /// What the test job records: per part, how many times it ran and the thread it ran on. Raw memory,
    /// since parts write their own elements from several threads at once.
    struct Record {
        let capacity: Int
        let runCounts: UnsafeMutablePointer<Int>
        let threadIDs: UnsafeMutablePointer<UInt>

        init(runs: [Int], threads: [UInt]) {
            capacity = runs.count
            runCounts = .allocate(capacity: capacity)
            runCounts.initialize(from: runs, count: capacity)
            threadIDs = .allocate(capacity: capacity)
            threadIDs.initialize(from: threads, count: capacity)
        }

        var runs: [Int] { Array(UnsafeBufferPointer(start: runCounts, count: capacity)) }
        var threads: [UInt] { Array(UnsafeBufferPointer(start: threadIDs, count: capacity)) }

        func deallocate() {
            runCounts.deallocate()
            threadIDs.deallocate()
        }
    }

    /// Records its run, after about a microsecond of work (so that workers get to claim parts).
    static let job: WorkerPool.Job = { context, part, parts in
        var x: UInt64 = 1
        for i in 0..<300 { x = x &* 6364136223846793005 &+ UInt64(i) }
        let record = context!.assumingMemoryBound(to: Record.self)
        record.pointee.runCounts[part] += x == 0 ? 2 : 1
        record.pointee.threadIDs[part] = currentThreadID()
        _ = parts
    }

    /// Parts from 1 to 12, more than the threads: each runs exactly once per job (a late worker must not
    /// run a part of a finished job again).
    @Test("each part runs once per job; the workers take part", arguments: [2, 3, 4])
    func partsRunOnce(threads: Int) throws {
        let pool = try WorkerPool(threadCount: threads)
        let maximumParts = 12
        var record = Record(runs: Array(repeating: 0, count: maximumParts), threads: Array(repeating: 0, count: maximumParts))
        defer { record.deallocate() }
        var seen = Set<UInt>()
        let jobs = 5_000
        withUnsafeMutablePointer(to: &record) { pointer in
            for j in 0..<jobs {
                let parts = 1 + j % maximumParts
                pool.run(parts: parts, job: Self.job, context: UnsafeMutableRawPointer(pointer))
                for part in 0..<parts { seen.insert(pointer.pointee.threadIDs[part]) }
            }
        }
        // Part p runs in the jobs whose part count exceeds p.
        for part in 0..<maximumParts {
            let expected = (0..<jobs).filter { 1 + $0 % maximumParts > part }.count
            #expect(record.runs[part] == expected, "part \(part) of \(threads) threads")
        }
        #expect(seen.count >= 2, "only \(seen.count) thread ran parts")
        #expect(seen.count <= threads)
    }

    /// Explicit shares, uneven and empty ones among them: every part still runs exactly once per job, whoever
    /// owns it (a thread with no share steals; a late owner's chunks are taken by the others).
    @Test("explicit thread shares: each part runs once", arguments: [2, 3])
    func explicitShares(threads: Int) throws {
        let pool = try WorkerPool(threadCount: threads)
        let parts = 9
        // Shares per job, as `threads + 1` ascending chunk indices from 0 to `parts`.
        let shares: [[Int]] = threads == 2
            ? [[0, 0, 9], [0, 9, 9], [0, 1, 9], [0, 8, 9], [0, 4, 9]]
            : [[0, 0, 0, 9], [0, 9, 9, 9], [0, 3, 3, 9], [0, 1, 2, 9], [0, 3, 6, 9]]
        var record = Record(runs: Array(repeating: 0, count: parts), threads: Array(repeating: 0, count: parts))
        defer { record.deallocate() }
        let jobs = 2_000
        withUnsafeMutablePointer(to: &record) { pointer in
            for j in 0..<jobs {
                shares[j % shares.count].withUnsafeBufferPointer { starts in
                    pool.run(parts: parts, threadStarts: starts.baseAddress, job: Self.job,
                             context: UnsafeMutableRawPointer(pointer))
                }
            }
        }
        #expect(record.runs == Array(repeating: jobs, count: parts))
    }

    /// Parts of about 2 ms: a worker that was asleep is woken and claims part 1 while the caller runs
    /// part 0 (at least once in five rounds, even on a busy machine).
    static let slowJob: WorkerPool.Job = { context, part, parts in
        let start = DispatchTime.now().uptimeNanoseconds
        while DispatchTime.now().uptimeNanoseconds - start < 2_000_000 {}
        job(context, part, parts)
    }

    @Test("workers that fell asleep wake up for the next job")
    func wakesSleepingWorkers() throws {
        let pool = try WorkerPool(threadCount: 2)
        var record = Record(runs: [0, 0], threads: [0, 0])
        defer { record.deallocate() }
        var helped = 0
        withUnsafeMutablePointer(to: &record) { pointer in
            for _ in 0..<5 {
                Thread.sleep(forTimeInterval: 0.05)  // far longer than the spin: the worker sleeps
                pool.run(parts: 2, job: Self.slowJob, context: UnsafeMutableRawPointer(pointer))
                if pointer.pointee.threadIDs[1] != currentThreadID() || pointer.pointee.threadIDs[0] != currentThreadID() {
                    helped += 1
                }
            }
        }
        #expect(record.runs == [5, 5])
        #expect(helped >= 1)
    }

    @Test("pools start and stop without leaking or hanging")
    func startAndStop() throws {
        var record = Record(runs: [0, 0, 0], threads: [0, 0, 0])
        defer { record.deallocate() }
        for round in 0..<50 {
            let pool = try WorkerPool(threadCount: 3)
            if round % 2 == 0 {
                withUnsafeMutablePointer(to: &record) { pointer in
                    pool.run(parts: 3, job: Self.job, context: UnsafeMutableRawPointer(pointer))
                }
            }
        }
        #expect(record.runs == [25, 25, 25])
    }

    /// The thread limit reached while starting workers: a typed error, the workers already started are
    /// stopped (the test would hang in their join otherwise), and nothing leaks into the next pool.
    @Test("a worker that cannot start is a ThreadStartError, not a crash")
    func threadStartFailure() throws {
        final class Counter: @unchecked Sendable { var started = 0 }
        let counter = Counter()
        let starter: WorkerPool.ThreadStarter = { argument in
            counter.started += 1
            if counter.started >= 3 { return .failure(WorkerPool.ThreadStartError(code: 11)) }  // EAGAIN
            return WorkerPool.posixThreadStarter(argument)
        }
        #expect(throws: WorkerPool.ThreadStartError(code: 11)) {
            _ = try WorkerPool(threadCount: 4, startThread: starter)
        }
        #expect(counter.started == 3)
        // The pool still works when the threads can start.
        let pool = try WorkerPool(threadCount: 3)
        var record = Record(runs: [0, 0, 0], threads: [0, 0, 0])
        defer { record.deallocate() }
        withUnsafeMutablePointer(to: &record) { pointer in
            pool.run(parts: 3, job: Self.job, context: UnsafeMutableRawPointer(pointer))
        }
        #expect(record.runs == [1, 1, 1])
    }
}

@Suite("Worker pool claim words")
struct ClaimWordTests {
    @Test("generation, front and back round-trip through one 64-bit word, at their extremes too",
          arguments: [0, 1, 2, 0x7FFF, 0x10000, WorkerPool.lastGeneration - 1, WorkerPool.lastGeneration])
    func roundTrip(generation: Int) {
        let limit = WorkerPool.maximumParts
        for (front, back) in [(0, 0), (0, 1), (3, 7), (0, limit), (limit - 1, limit), (limit, limit)] {
            let word = WorkerPool.claimWord(generation: generation, front: front, back: back)
            let fields = WorkerPool.claimFields(word)
            #expect(fields.generation == generation && fields.front == front && fields.back == back,
                    "\(generation) \(front) \(back) -> \(fields)")
            #expect(word >= 0)
            // Claiming moves only its own field: the owner takes the front, a thief the back.
            if front < back {
                #expect(WorkerPool.claimFields(word + (1 << 16)) == (generation, front + 1, back))
                #expect(WorkerPool.claimFields(word - 1) == (generation, front, back - 1))
            }
        }
        // Words of consecutive generations never compare equal, whatever the ranges.
        let next = generation == WorkerPool.lastGeneration ? 1 : generation + 1
        #expect(WorkerPool.claimWord(generation: next, front: 0, back: 0)
            != WorkerPool.claimWord(generation: generation, front: 0, back: 0))
    }

    @Test("the words are 64 bits wide on every platform")
    func width() {
        #expect(MemoryLayout<Int64>.size == 8)
        #expect(WorkerPool.claimWord(generation: WorkerPool.lastGeneration, front: 0, back: 0) == Int64(Int32.max) << 32)
    }
}
