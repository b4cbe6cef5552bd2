@testable import BlazeServer
import Foundation
import Testing

/// The bounded pool: admission, deadlines, cancellation and shutdown.
@Suite struct WorkPoolTests {
    /// A gate a job waits at until the test opens it.
    final class Gate: @unchecked Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        func wait() { semaphore.wait() }
        func open(_ count: Int = 1) { for _ in 0..<count { semaphore.signal() } }
    }

    /// Waits (briefly polling) until the pool shows `waiting` and `running` jobs.
    static func settle(_ pool: WorkPool<Int>, waiting: Int, running: Int) async throws {
        for _ in 0..<500 {
            let load = pool.load
            if load.waiting == waiting && load.running == running { return }
            try await Task.sleep(for: .milliseconds(2))
        }
        Issue.record("the pool did not reach \(waiting) waiting, \(running) running: \(pool.load)")
    }

    @Test("Workers plus queue are admitted; the next job is refused at once, not queued")
    func admission() async throws {
        let pool = WorkPool(workers: [1], queueCapacity: 1)
        defer { pool.shutdown(timeout: .seconds(5)) }
        let gate = Gate()
        async let first = pool.run(timeout: .seconds(30)) { worker -> Int in gate.wait(); return worker * 10 }
        try await Self.settle(pool, waiting: 0, running: 1)
        async let second = pool.run(timeout: .seconds(30)) { worker -> Int in worker * 20 }
        try await Self.settle(pool, waiting: 1, running: 1)
        let started = ContinuousClock.now
        await #expect(throws: PoolRejection.queueFull) {
            try await pool.run(timeout: .seconds(30)) { _ in 0 }
        }
        #expect(ContinuousClock.now - started < .seconds(5), "refused at once")
        gate.open()
        #expect(try await first == 10)
        #expect(try await second == 20)
        try await Self.settle(pool, waiting: 0, running: 0)
    }

    @Test("A job still waiting at its deadline times out and leaves the queue; a running one's result is dropped")
    func deadlines() async throws {
        let pool = WorkPool(workers: [1], queueCapacity: 4)
        defer { pool.shutdown(timeout: .seconds(5)) }
        let gate = Gate()
        let blocker = Task { try await pool.run(timeout: .milliseconds(100)) { _ -> Int in gate.wait(); return 1 } }
        try await Self.settle(pool, waiting: 0, running: 1)
        await #expect(throws: PoolRejection.timedOut) {
            try await pool.run(timeout: .milliseconds(50)) { _ in 2 }
        }
        #expect(pool.load.waiting == 0, "the expired job left the queue")
        await #expect(throws: PoolRejection.timedOut) { try await blocker.value }
        gate.open()
        try await Self.settle(pool, waiting: 0, running: 0)
        #expect(try await pool.run(timeout: .seconds(5)) { $0 + 1 } == 2, "the worker goes on")
    }

    @Test("A cancelled caller gets cancelled at once, before or while its job waits")
    func cancellation() async throws {
        let pool = WorkPool(workers: [1], queueCapacity: 4)
        defer { pool.shutdown(timeout: .seconds(5)) }
        let gate = Gate()
        async let blocker = pool.run(timeout: .seconds(30)) { _ -> Int in gate.wait(); return 1 }
        try await Self.settle(pool, waiting: 0, running: 1)
        let waiter = Task { try await pool.run(timeout: .seconds(30)) { _ in 2 } }
        try await Self.settle(pool, waiting: 1, running: 1)
        waiter.cancel()
        await #expect(throws: PoolRejection.cancelled) { try await waiter.value }
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await pool.run(timeout: .seconds(30)) { _ in 3 }
        }
        await #expect(throws: PoolRejection.cancelled) { try await early.value }
        gate.open()
        #expect(try await blocker == 1)
    }

    @Test("Shutdown finishes the admitted jobs, then refuses new ones")
    func shutdown() async throws {
        let pool = WorkPool(workers: [1, 2], queueCapacity: 2)
        let jobs = (0..<4).map { index in
            Task { try await pool.run(timeout: .seconds(30)) { worker -> Int in usleep(20_000); return index } }
        }
        try await Task.sleep(for: .milliseconds(5))
        let ended = await Task.detached { pool.shutdown(timeout: .seconds(10)) }.value
        #expect(ended)
        for (index, job) in jobs.enumerated() { #expect(try await job.value == index) }
        await #expect(throws: PoolRejection.shuttingDown) { try await pool.run(timeout: .seconds(1)) { _ in 0 } }
    }

    @Test("A finished job's work, and what it holds, is released at once, not at its deadline")
    func releasesFinishedJobs() async throws {
        final class Payload: Sendable { let bytes = [UInt8](repeating: 1, count: 1 << 20) }
        let pool = WorkPool(workers: [1], queueCapacity: 4)
        defer { pool.shutdown(timeout: .seconds(5)) }
        weak var watched: Payload?
        do {
            let payload = Payload()
            watched = payload
            let sum = try await pool.run(timeout: .seconds(3600)) { _ in payload.bytes.count }
            #expect(sum == 1 << 20)
        }
        for _ in 0..<200 where watched != nil { try await Task.sleep(for: .milliseconds(5)) }
        #expect(watched == nil, "the job's closure outlived its answer (a deadline timer kept it)")
    }

    @Test("Jobs spread over the workers, each job on one worker's own value")
    func spread() async throws {
        let pool = WorkPool(workers: [0, 1, 2], queueCapacity: 64)
        defer { pool.shutdown(timeout: .seconds(5)) }
        let seen = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<60 { group.addTask { try await pool.run(timeout: .seconds(30)) { w -> Int in usleep(500); return w } } }
            var workers = Set<Int>()
            for try await worker in group { workers.insert(worker) }
            return workers
        }
        #expect(seen.count >= 2, "\(seen)")
    }
}
