import Foundation

/// Why the pool did not run a job.
enum PoolRejection: Error, Equatable, Sendable {
    /// Every worker is busy and the queue holds its maximum: answer 503 at once.
    case queueFull
    /// The job's deadline passed before it finished: answer 504.
    case timedOut
    /// The pool is shutting down and takes no new job.
    case shuttingDown
    /// The caller's task was cancelled (the client went away).
    case cancelled
}

/// A fixed set of threads, each owning one `Worker` (its own pipelines and models), fed from a bounded queue.
///
/// At most `workerCount + queueCapacity` jobs are admitted at a time: the ones running and the ones waiting.
/// A job beyond that is refused at once (`PoolRejection.queueFull`), never queued, so the backlog, and the
/// memory it holds, cannot grow. A job that passes its deadline, or whose caller is cancelled, is answered at
/// once; if it was still waiting it is taken off the queue, and if it was running its result is dropped.
///
/// The work runs on the pool's own threads, not on Swift's cooperative pool, so the CPU-bound inference never
/// starves the event loops that read and write the sockets.
final class WorkPool<Worker: Sendable>: @unchecked Sendable {
    /// One admitted job: the work, which returns how to deliver its result, and whether its caller still
    /// waits for it.
    private final class Job {
        let execute: (Worker) -> () -> Void
        let isWanted: () -> Bool
        init(execute: @escaping (Worker) -> () -> Void, isWanted: @escaping () -> Bool) {
            self.execute = execute
            self.isWanted = isWanted
        }
    }

    /// The number of threads, one per worker.
    let workerCount: Int
    /// The most jobs that may wait while every worker is busy.
    let queueCapacity: Int
    private let condition = NSCondition()
    private var waiting: [Job] = []
    private var running = 0
    private var stopping = false
    private let finished = DispatchGroup()
    private let onChange: @Sendable (_ waiting: Int, _ running: Int) -> Void

    /// Starts one thread per worker.
    /// - Parameters:
    ///   - workers: one worker per thread; each is used by its thread only.
    ///   - queueCapacity: the most jobs that may wait (0: only as many jobs as workers are admitted).
    ///   - stackSize: each thread's stack, in bytes.
    ///   - onChange: called, under the pool's lock, whenever the numbers of waiting and running jobs change
    ///     (for gauges: keep it short and non-blocking).
    init(workers: [Worker], queueCapacity: Int, stackSize: Int = 4 << 20,
         onChange: @escaping @Sendable (_ waiting: Int, _ running: Int) -> Void = { _, _ in }) {
        precondition(!workers.isEmpty && queueCapacity >= 0, "a pool needs a worker and a non-negative queue")
        workerCount = workers.count
        self.queueCapacity = queueCapacity
        self.onChange = onChange
        waiting.reserveCapacity(queueCapacity + workers.count)
        for (index, worker) in workers.enumerated() {
            finished.enter()
            let thread = Thread { [self] in
                loop(worker)
                finished.leave()
            }
            thread.name = "blazeface-worker-\(index + 1)"
            thread.stackSize = stackSize
            thread.qualityOfService = .userInitiated
            thread.start()
        }
    }

    /// The numbers of jobs waiting and running now.
    var load: (waiting: Int, running: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (waiting.count, running)
    }

    /// Runs `body` on a worker and returns its result.
    /// - Parameters:
    ///   - timeout: the time the job may take from now, waiting included.
    ///   - body: the work; it runs on a pool thread with that thread's worker.
    /// - Returns: what `body` returned.
    /// - Throws: `PoolRejection` when the job was refused, timed out or abandoned; otherwise what `body` threw.
    func run<R: Sendable>(timeout: Duration, _ body: @escaping @Sendable (Worker) throws -> R) async throws -> R {
        let answer = Answer<R>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<R, any Error>) in
                guard answer.attach(continuation) else { return }
                let job = Job(execute: { worker in
                    guard answer.isPending else { return {} }
                    let result = Result { try body(worker) }
                    return { answer.resume(with: result) }
                }, isWanted: { answer.isPending })
                if let refusal = admit(job) {
                    answer.resume(with: .failure(refusal))
                    return
                }
                // Weak captures: a cancelled work item stays in Dispatch's timer list until its deadline,
                // and must not keep the job (and the picture its work holds) alive until then.
                let expiry = DispatchWorkItem { [weak self, weak answer, weak job] in
                    guard let answer, answer.resume(with: .failure(PoolRejection.timedOut)) else { return }
                    if let job { self?.discard(job) }
                }
                answer.onResume { expiry.cancel() }
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval, execute: expiry)
            }
        } onCancel: {
            answer.resume(with: .failure(PoolRejection.cancelled))
        }
    }

    /// Stops taking jobs, lets the workers finish the admitted ones, and waits for the threads to end.
    /// - Parameter timeout: the longest wait.
    /// - Returns: whether every thread ended in time.
    @discardableResult
    func shutdown(timeout: Duration) -> Bool {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
        return finished.wait(timeout: .now() + timeout.timeInterval) == .success
    }

    /// Queues `job`, or says why not.
    private func admit(_ job: Job) -> PoolRejection? {
        condition.lock()
        defer { condition.unlock() }
        if stopping { return .shuttingDown }
        guard waiting.count + running < workerCount + queueCapacity else { return .queueFull }
        waiting.append(job)
        onChange(waiting.count, running)
        condition.signal()
        return nil
    }

    /// Takes a job that is no longer wanted off the queue (a no-op once a worker took it).
    private func discard(_ job: Job) {
        condition.lock()
        defer { condition.unlock() }
        if let index = waiting.firstIndex(where: { $0 === job }) {
            waiting.remove(at: index)
            onChange(waiting.count, running)
        }
    }

    /// One thread's life: take the oldest wanted job, run it, until the pool stops and the queue is empty.
    private func loop(_ worker: Worker) {
        while true {
            condition.lock()
            while waiting.isEmpty && !stopping { condition.wait() }
            if waiting.isEmpty {
                condition.unlock()
                return
            }
            let job = waiting.removeFirst()
            running += 1
            onChange(waiting.count, running)
            condition.unlock()
            let deliver = job.isWanted() ? job.execute(worker) : {}
            condition.lock()
            running -= 1
            onChange(waiting.count, running)
            condition.unlock()
            deliver()  // after the count: a caller that sees its answer sees the worker free
        }
    }
}

/// A continuation resumed exactly once, by whichever comes first: the result, the deadline or a cancellation
/// (which may come before the continuation exists).
private final class Answer<R: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<R, any Error>?
    private var early: Result<R, any Error>?
    private var done = false
    private var cleanup: (() -> Void)?

    /// Whether no result has been given yet.
    var isPending: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !done
    }

    /// Sets the continuation; resumes it at once, and returns false, when a result came first.
    func attach(_ continuation: CheckedContinuation<R, any Error>) -> Bool {
        lock.lock()
        if let early {
            lock.unlock()
            continuation.resume(with: early)
            return false
        }
        self.continuation = continuation
        lock.unlock()
        return true
    }

    /// Runs `action` once the answer is given (at once if it was).
    func onResume(_ action: @escaping () -> Void) {
        lock.lock()
        if done {
            lock.unlock()
            action()
            return
        }
        cleanup = action
        lock.unlock()
    }

    /// Gives the result; false when one was given before.
    @discardableResult
    func resume(with result: Result<R, any Error>) -> Bool {
        lock.lock()
        guard !done else {
            lock.unlock()
            return false
        }
        done = true
        let continuation = self.continuation, action = cleanup
        self.continuation = nil
        cleanup = nil
        if continuation == nil { early = result }
        lock.unlock()
        continuation?.resume(with: result)
        action?()
        return true
    }
}

extension Duration {
    /// The duration in seconds, for Dispatch.
    var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
