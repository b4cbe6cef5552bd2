import CBlazeSync
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A persistent pool of worker threads that run one job at a time in `parts` pieces, the calling thread
/// taking piece 0.
///
/// Made for jobs of a few microseconds (one kernel's share of a layer), where waking threads through the
/// operating system would cost as much as the work: after a job, each worker spins on an atomic generation
/// counter (with the CPU's spin-wait hint) for about `spinIterations` checks, then sleeps on a condition
/// variable until the next job. The caller spins until every worker has finished its piece.
///
/// A job is a C function pointer and a context pointer, so dispatching one performs no heap allocation.
/// `run` is not reentrant and must be called from one thread at a time (the interpreter that owns the pool
/// is not thread-safe either).
package final class WorkerPool: @unchecked Sendable {
    /// A piece of a job: `(context, part, parts)`.
    package typealias Job = @convention(c) (UnsafeMutableRawPointer?, Int, Int) -> Void

    /// Threads that run jobs, the caller included.
    package let threadCount: Int

    /// Spin-wait checks a worker makes before it sleeps (about 50-100 µs on current x86 CPUs).
    static let spinIterations = 4_000

    private let shared: Shared
    private var threads: [pthread_t] = []

    /// Starts `threadCount - 1` worker threads.
    /// - Precondition: `threadCount >= 1`.
    package init(threadCount: Int) {
        precondition(threadCount >= 1, "a worker pool needs at least one thread")
        self.threadCount = threadCount
        shared = Shared()
        for index in 1..<max(threadCount, 1) {
            let start = Unmanaged.passRetained(WorkerStart(shared: shared, index: index)).toOpaque()
            #if canImport(Darwin)
            var thread: pthread_t?
            let status = pthread_create(&thread, nil, workerMain, start)
            guard status == 0, let created = thread else { fatalError("pthread_create failed (\(status))") }
            threads.append(created)
            #else
            var thread = pthread_t()
            let status = pthread_create(&thread, nil, workerMain, start)
            guard status == 0 else { fatalError("pthread_create failed (\(status))") }
            threads.append(thread)
            #endif
        }
    }

    deinit {
        shared.shutdown = true
        shared.publish(job: nil, context: nil, parts: 0, workers: 0)
        for thread in threads { pthread_join(thread, nil) }
    }

    /// Runs `job(context, part, parts)` for every `part` in `0 ..< parts`: part 0 on the calling thread, the
    /// others on workers, and returns when all have finished. With `parts == 1` it is a plain call.
    /// - Precondition: `1 <= parts <= threadCount`.
    @inline(__always)
    package func run(parts: Int, job: Job, context: UnsafeMutableRawPointer?) {
        if parts <= 1 {
            job(context, 0, 1)
            return
        }
        let workers = threadCount - 1
        shared.publish(job: job, context: context, parts: parts, workers: workers)
        job(context, 0, parts)
        shared.waitForWorkers()
    }
}

/// What a worker thread is started with.
private final class WorkerStart {
    let shared: WorkerPool.Shared
    let index: Int
    init(shared: WorkerPool.Shared, index: Int) {
        self.shared = shared
        self.index = index
    }
}

/// The body of a worker thread.
#if canImport(Darwin)
private func workerMain(_ argument: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    let start = Unmanaged<WorkerStart>.fromOpaque(argument).takeRetainedValue()
    start.shared.workerLoop(index: start.index)
    return nil
}
#else
private func workerMain(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let start = Unmanaged<WorkerStart>.fromOpaque(argument!).takeRetainedValue()
    start.shared.workerLoop(index: start.index)
    return nil
}
#endif

extension WorkerPool {
    /// The state shared by the caller and the workers. The counters live in memory of their own, a cache
    /// line each, and are only touched through `CBlazeSync`'s atomics.
    final class Shared: @unchecked Sendable {
        /// [generation, remaining, sleepers], 64 bytes apart.
        private let words: UnsafeMutablePointer<Int>
        private var generation: UnsafeMutablePointer<Int> { words }
        private var remaining: UnsafeMutablePointer<Int> { words + 8 }
        private var sleepers: UnsafeMutablePointer<Int> { words + 16 }

        // Written by the caller before the generation is released, read by workers after acquiring it.
        private var job: Job?
        private var context: UnsafeMutableRawPointer?
        private var parts = 0
        var shutdown = false

        // Allocated, not stored inline: pthread objects must not move.
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>
        private let condition: UnsafeMutablePointer<pthread_cond_t>

        init() {
            words = UnsafeMutablePointer<Int>.allocate(capacity: 24)
            words.initialize(repeating: 0, count: 24)
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
            condition = .allocate(capacity: 1)
            condition.initialize(to: pthread_cond_t())
            pthread_cond_init(condition, nil)
        }

        deinit {
            pthread_cond_destroy(condition)
            pthread_mutex_destroy(mutex)
            condition.deallocate()
            mutex.deallocate()
            words.deallocate()
        }

        private func word(_ pointer: UnsafeMutablePointer<Int>) -> UnsafeMutablePointer<CLong> {
            UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: CLong.self)
        }

        /// Announces a job to the workers and wakes those that sleep.
        func publish(job: Job?, context: UnsafeMutableRawPointer?, parts: Int, workers: Int) {
            self.job = job
            self.context = context
            self.parts = parts
            blaze_atomic_store(word(remaining), CLong(workers))
            blaze_atomic_fetch_add(word(generation), 1)
            // A worker counts itself as a sleeper before it checks the generation a last time, under the
            // mutex; both sides use sequentially consistent operations, so either it sees the new generation
            // or this sees it as a sleeper and signals under the same mutex.
            if blaze_atomic_load(word(sleepers)) > 0 {
                pthread_mutex_lock(mutex)
                pthread_cond_broadcast(condition)
                pthread_mutex_unlock(mutex)
            }
        }

        /// Spins until every worker has finished its part, yielding the processor after a while (when the
        /// machine has fewer free cores than threads).
        func waitForWorkers() {
            var spins = 0
            while blaze_atomic_load_acquire(word(remaining)) > 0 {
                if spins < WorkerPool.spinIterations {
                    blaze_cpu_relax()
                    spins += 1
                } else {
                    sched_yield()
                }
            }
        }

        /// A worker's life: wait for a new generation, run its part, report, repeat until shut down.
        func workerLoop(index: Int) {
            // Generation 0 is the pool's state at creation: a worker that starts late still sees the jobs
            // published before it ran.
            var seen = 0
            while true {
                var spins = 0
                var current = blaze_atomic_load_acquire(word(generation))
                while current == seen {
                    if spins < WorkerPool.spinIterations {
                        blaze_cpu_relax()
                        spins += 1
                    } else {
                        pthread_mutex_lock(mutex)
                        blaze_atomic_fetch_add(word(sleepers), 1)
                        while blaze_atomic_load(word(generation)) == seen {
                            pthread_cond_wait(condition, mutex)
                        }
                        blaze_atomic_fetch_add(word(sleepers), -1)
                        pthread_mutex_unlock(mutex)
                        spins = 0
                    }
                    current = blaze_atomic_load_acquire(word(generation))
                }
                seen = current
                if shutdown { return }
                if index < parts, let job { job(context, index, parts) }
                blaze_atomic_fetch_add(word(remaining), -1)
            }
        }
    }
}
