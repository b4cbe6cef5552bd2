@testable import BlazeRuntime
import Foundation
import Testing

/// The interpreter's worker pool: every part of every job runs exactly once, on its own thread, whether
/// the workers are spinning or asleep; pools shut down cleanly.
func currentThreadID() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}

@Suite("Worker pool")
struct WorkerPoolTests {
    /// What the test job records: per part, how many times it ran and the thread it ran on.
    struct Record {
        var runs: [Int]
        var threads: [UInt]
    }

    static let job: WorkerPool.Job = { context, part, parts in
        let record = context!.assumingMemoryBound(to: Record.self)
        record.pointee.runs.withUnsafeMutableBufferPointer { $0[part] += 1 }
        record.pointee.threads.withUnsafeMutableBufferPointer { $0[part] = currentThreadID() }
        _ = parts
    }

    @Test("each part runs once per job, on distinct threads", arguments: [2, 3, 4])
    func partsRunOnce(threads: Int) {
        let pool = WorkerPool(threadCount: threads)
        var record = Record(runs: Array(repeating: 0, count: threads), threads: Array(repeating: 0, count: threads))
        let jobs = 5_000
        withUnsafeMutablePointer(to: &record) { pointer in
            for j in 0..<jobs {
                let parts = 1 + j % threads
                pool.run(parts: parts, job: Self.job, context: UnsafeMutableRawPointer(pointer))
            }
        }
        // Part p runs in the jobs whose part count exceeds p.
        for part in 0..<threads {
            let expected = (0..<jobs).filter { 1 + $0 % threads > part }.count
            #expect(record.runs[part] == expected, "part \(part) of \(threads)")
        }
        #expect(Set(record.threads).count == threads)
        #expect(record.threads[0] == currentThreadID())
    }

    @Test("workers that fell asleep wake up for the next job")
    func wakesSleepingWorkers() {
        let pool = WorkerPool(threadCount: 2)
        var record = Record(runs: [0, 0], threads: [0, 0])
        withUnsafeMutablePointer(to: &record) { pointer in
            for _ in 0..<5 {
                Thread.sleep(forTimeInterval: 0.02)  // far longer than the spin: the worker sleeps
                pool.run(parts: 2, job: Self.job, context: UnsafeMutableRawPointer(pointer))
            }
        }
        #expect(record.runs == [5, 5])
    }

    @Test("pools start and stop without leaking or hanging")
    func startAndStop() {
        var record = Record(runs: [0, 0, 0], threads: [0, 0, 0])
        for round in 0..<50 {
            let pool = WorkerPool(threadCount: 3)
            if round % 2 == 0 {
                withUnsafeMutablePointer(to: &record) { pointer in
                    pool.run(parts: 3, job: Self.job, context: UnsafeMutableRawPointer(pointer))
                }
            }
        }
        #expect(record.runs == [25, 25, 25])
    }
}
