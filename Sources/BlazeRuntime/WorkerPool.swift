import CBlazeSync
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A persistent pool of worker threads that run one job at a time, split into `parts` chunks that the
/// calling thread and the workers claim one by one.
///
/// Made for jobs of a few microseconds (one kernel's share of a layer), where waking threads through the
/// operating system would cost as much as the work. Between jobs each worker spins on an atomic word (with
/// the CPU's spin-wait hint) for about `spinIterations` checks, then sleeps on a condition variable. On Apple
/// platforms the workers spin for fewer checks and take the quality-of-service class of the thread that
/// creates the pool (`posixThreadStarter`).
///
/// Each thread owns a contiguous range of the chunks (`threadStarts`; by default near-equal shares, the
/// caller's first): it claims them from the front, on an atomic word of its own, and when it has none left
/// it steals the others' remaining chunks from the back. The same thread therefore runs the same chunks of
/// consecutive layers (the same rows of the image, whose data are already in its core's caches) unless the
/// machine delays it, and nobody waits for a thread that is late: a worker that has not woken up yet (or whose
/// CPU the machine gave to another process) finds its chunks taken, and the caller ran them. Each claim word
/// holds the job's generation, so a claim fails once the generation has moved on; `run` returns when every
/// chunk has finished, and a worker that arrives after that touches nothing of the old job. Which thread runs
/// a chunk varies from run to run; what a chunk computes does not.
///
/// A job is a C function pointer and a context pointer, so dispatching one performs no heap allocation.
/// `run` is not reentrant and must be called from one thread at a time (the interpreter that owns the pool
/// is not thread-safe either).
package final class WorkerPool: @unchecked Sendable {
    /// Chunk `part` of a job split into `parts`: `(context, part, parts)`.
    package typealias Job = @convention(c) (UnsafeMutableRawPointer?, Int, Int) -> Void

    /// Threads that run jobs, the caller included.
    package let threadCount: Int

    /// Spin-wait checks a worker makes before it sleeps (and the caller before it starts yielding the CPU
    /// while it waits for the last chunks).
    ///
    /// Linux: 10,000 checks, a load and an x86 `pause` each, about 230 µs on the AMD EPYC (Zen 3) of the
    /// benchmarks (about 23 ns per `pause`): long enough to span the gap between two layers of an invoke.
    /// Apple platforms: 2,000. A spinning worker keeps a core busy and awake that would otherwise idle or go to
    /// an efficiency core, which on a phone or a laptop on battery costs energy for every frame; and arm64's
    /// `yield` hint does not stall the way x86's `pause` does, so a check there is probably a few cycles and
    /// 2,000 of them a few microseconds (not measured: no Apple hardware or CI here). A worker that sleeps
    /// costs the caller a condition-variable broadcast at the next job and no waiting: the caller and the
    /// awake workers take the chunks of a worker that is late.
    #if canImport(Darwin)
    static let spinIterations = 2_000
    #else
    static let spinIterations = 10_000
    #endif

    /// The most chunks one job may have.
    package static let maximumParts = 0xFFFF

    /// The last generation: generations run from 1 to `2^31 - 1` and wrap (0 is a pool's state at creation).
    package static let lastGeneration = (1 << 31) - 1

    /// A thread's claim word, `generation << 32 | front << 16 | back`, computed in 64 bits so that it is the
    /// same on every platform (`Int` and C's `long` have 32 bits on some).
    /// - Precondition: `1 <= generation <= lastGeneration` (or 0), `0 <= front, back <= maximumParts`.
    @inline(__always)
    package static func claimWord(generation: Int, front: Int, back: Int) -> Int64 {
        Int64(generation) << 32 | Int64(front) << 16 | Int64(back)
    }

    /// The fields of a claim word made by `claimWord(generation:front:back:)`.
    @inline(__always)
    package static func claimFields(_ word: Int64) -> (generation: Int, front: Int, back: Int) {
        (Int(word >> 32), Int((word >> 16) & 0xFFFF), Int(word & 0xFFFF))
    }

    private let shared: Shared
    private var threads: [pthread_t] = []

    /// Starts one worker thread running `workerMain(argument)`; returns its handle, or the error code of
    /// `pthread_create`.
    package typealias ThreadStarter = @Sendable (_ argument: UnsafeMutableRawPointer) -> Result<pthread_t, ThreadStartError>

    /// A worker thread could not be started (the process or system thread limit, or memory).
    package struct ThreadStartError: Error, Equatable {
        /// The `pthread_create` error code.
        package var code: Int32
        package init(code: Int32) { self.code = code }
    }

    /// Starts a thread with `pthread_create`.
    ///
    /// On Apple platforms the thread gets the quality-of-service class of the thread that calls this (the one
    /// that creates the pool, and so the interpreter) through `pthread_attr_set_qos_class_np`: workers of a
    /// user-interactive camera pipeline run as user-interactive, those of a background task as background (on
    /// efficiency cores, throttled), instead of the default class every new pthread gets. A thread without a
    /// class (`QOS_CLASS_UNSPECIFIED`) starts its workers without one, as before. Linux has no such classes:
    /// workers start with default attributes.
    package static let posixThreadStarter: ThreadStarter = { argument in
        #if canImport(Darwin)
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        let qos = qos_class_self()
        if qos != QOS_CLASS_UNSPECIFIED {
            // Fails only for a class out of range or an attribute with an explicit scheduling policy: neither
            // here. The thread then starts with the default class.
            _ = pthread_attr_set_qos_class_np(&attributes, qos, 0)
        }
        var thread: pthread_t?
        let status = pthread_create(&thread, &attributes, workerMain, argument)
        guard status == 0, let created = thread else { return .failure(ThreadStartError(code: status)) }
        return .success(created)
        #else
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, workerMain, argument)
        guard status == 0 else { return .failure(ThreadStartError(code: status)) }
        return .success(thread)
        #endif
    }

    /// Starts `threadCount - 1` worker threads.
    /// - Throws: `ThreadStartError` when a thread cannot be started; the threads already started are
    ///   stopped and joined first.
    /// - Precondition: `threadCount >= 1`.
    package init(threadCount: Int, startThread: ThreadStarter = WorkerPool.posixThreadStarter) throws(ThreadStartError) {
        precondition(threadCount >= 1, "a worker pool needs at least one thread")
        self.threadCount = threadCount
        shared = Shared(threadCount: threadCount)
        for _ in 1..<max(threadCount, 1) {
            let start = Unmanaged.passRetained(shared)
            switch startThread(start.toOpaque()) {
            case .success(let thread):
                threads.append(thread)
            case .failure(let error):
                start.release()  // the thread that would have taken it over does not exist
                stopThreads()
                throw error
            }
        }
    }

    deinit {
        stopThreads()
    }

    /// Tells the workers to exit and waits for them.
    private func stopThreads() {
        shared.shutDown()
        for thread in threads { pthread_join(thread, nil) }
        threads = []
    }

    /// Runs `job(context, part, parts)` once for every `part` in `0 ..< parts`, on the calling thread and
    /// the workers, and returns when all have finished. With `parts == 1` (or no workers) it is a plain loop
    /// on the calling thread.
    /// - Parameter threadStarts: nil (near-equal shares), or `threadCount + 1` ascending chunk indices from 0
    ///   to `parts`: thread `t` (the caller is 0) owns chunks `threadStarts[t] ..< threadStarts[t + 1]`.
    /// - Precondition: `parts <= WorkerPool.maximumParts`.
    @inline(__always)
    package func run(parts: Int, threadStarts: UnsafePointer<Int>? = nil, job: Job, context: UnsafeMutableRawPointer?) {
        precondition(parts <= WorkerPool.maximumParts, "a job of \(parts) parts")
        if parts <= 1 || threadCount == 1 {
            for part in 0..<parts { job(context, part, parts) }
            return
        }
        let generation = shared.publish(job: job, context: context, parts: parts, threadStarts: threadStarts)
        shared.participate(thread: 0, generation: generation)
        shared.waitForCompletion(parts: parts)
    }
}

/// The body of a worker thread.
#if canImport(Darwin)
private func workerMain(_ argument: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Unmanaged<WorkerPool.Shared>.fromOpaque(argument).takeRetainedValue().workerLoop()
    return nil
}
#else
private func workerMain(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<WorkerPool.Shared>.fromOpaque(argument!).takeRetainedValue().workerLoop()
    return nil
}
#endif

extension WorkerPool {
    /// The state shared by the caller and the workers: words in memory of their own (each hot one on a
    /// cache line of its own), only touched through `CBlazeSync`'s atomics.
    final class Shared: @unchecked Sendable {
        private let threadCount: Int
        private let words: UnsafeMutablePointer<Int64>
        /// Words per cache line.
        private static let line = 8
        /// Chunks finished in the current generation (each thread adds its count once it has claimed all it
        /// could).
        private var done: UnsafeMutablePointer<Int64> { words }
        /// Workers asleep (or about to sleep) on the condition variable.
        private var sleepers: UnsafeMutablePointer<Int64> { words + Shared.line }
        /// The job, its context, its chunk count and the shutdown flag: written by the caller before it
        /// publishes a generation (and only after every chunk of the previous one has finished); read by
        /// workers after they see it. Values read while a newer generation is being published are
        /// discarded: the claim that would use them fails.
        private var jobWord: UnsafeMutablePointer<Int64> { words + 2 * Shared.line }
        private var contextWord: UnsafeMutablePointer<Int64> { words + 2 * Shared.line + 1 }
        private var partsWord: UnsafeMutablePointer<Int64> { words + 2 * Shared.line + 2 }
        private var shutdownWord: UnsafeMutablePointer<Int64> { words + 2 * Shared.line + 3 }
        /// Which worker index the next thread to start takes (1, 2, ...).
        private var nextWorkerWord: UnsafeMutablePointer<Int64> { words + 2 * Shared.line + 4 }
        /// Thread `t`'s claim word, `generation << 32 | front << 16 | back`: the chunks `front ..< back` of
        /// its range not yet claimed. Its owner claims `front` (front + 1), others steal `back - 1`
        /// (back - 1), each by a compare-and-swap that fails once the generation has moved on. Workers watch
        /// the generation of their own word.
        private func claim(_ thread: Int) -> UnsafeMutablePointer<Int64> { words + (3 + thread) * Shared.line }

        /// The caller's generation counter (only the caller writes generations).
        private var generation = 0

        // Allocated, not stored inline: pthread objects must not move.
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>
        private let condition: UnsafeMutablePointer<pthread_cond_t>


        init(threadCount: Int) {
            self.threadCount = threadCount
            let count = (3 + threadCount) * Shared.line
            words = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<Int64>.stride, alignment: 64)
                .bindMemory(to: Int64.self, capacity: count)
            words.initialize(repeating: 0, count: count)
            words[2 * Shared.line + 4] = 1  // `nextWorkerWord`: the workers are threads 1, 2, ...
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

        /// Announces a job to the workers, wakes those that sleep, and returns its generation.
        func publish(job: Job?, context: UnsafeMutableRawPointer?, parts: Int, threadStarts: UnsafePointer<Int>?) -> Int {
            let jobBits = job.map { unsafeBitCast($0, to: Int.self) } ?? 0
            blaze_atomic_store_relaxed(jobWord, Int64(jobBits))
            blaze_atomic_store_relaxed(contextWord, Int64(Int(bitPattern: context)))
            blaze_atomic_store_relaxed(partsWord, Int64(parts))
            blaze_atomic_store_relaxed(done, 0)
            generation = generation == WorkerPool.lastGeneration ? 1 : generation + 1
            // The caller's word first: a worker that sees its own word's new generation finds every lower
            // thread's word published too.
            for thread in 0..<threadCount {
                let front = threadStarts.map { $0[thread] } ?? parts * thread / threadCount
                let back = threadStarts.map { $0[thread + 1] } ?? parts * (thread + 1) / threadCount
                blaze_atomic_store(claim(thread), WorkerPool.claimWord(generation: generation, front: front, back: back))
            }
            // A worker counts itself as a sleeper before it checks its word a last time, under the mutex;
            // both sides use sequentially consistent operations, so either it sees the new generation or
            // this sees it as a sleeper and signals under the same mutex.
            if blaze_atomic_load(sleepers) > 0 {
                pthread_mutex_lock(mutex)
                pthread_cond_broadcast(condition)
                pthread_mutex_unlock(mutex)
            }
            return generation
        }

        /// Claims and runs chunks of generation `generation` as thread `thread`: its own from the front,
        /// then the other threads' from the back, until none is left (or a newer generation has replaced
        /// it); then counts them as done.
        @inline(__always)
        func participate(thread: Int, generation: Int) {
            var finished = 0
            for k in 0..<threadCount {
                let victim = thread + k < threadCount ? thread + k : thread + k - threadCount
                let word = claim(victim)
                let own = k == 0
                while true {
                    let old = blaze_atomic_load_acquire(word)
                    let (oldGeneration, front, back) = WorkerPool.claimFields(old)
                    guard oldGeneration == generation, front < back else { break }
                    // Read before the claim: a successful claim proves these belong to `generation` (its
                    // chunks are not all finished, so the caller has not moved on).
                    let jobBits = Int(blaze_atomic_load_relaxed(jobWord))
                    let context = UnsafeMutableRawPointer(bitPattern: Int(blaze_atomic_load_relaxed(contextWord)))
                    let parts = Int(blaze_atomic_load_relaxed(partsWord))
                    guard jobBits != 0 else { break }
                    let claimed = own ? old + (1 << 16) : old - 1
                    guard blaze_atomic_compare_exchange(word, old, claimed) != 0 else { continue }
                    let job = unsafeBitCast(jobBits, to: Job.self)
                    job(context, own ? front : back - 1, parts)
                    finished += 1
                }
            }
            if finished > 0 { blaze_atomic_fetch_add(done, Int64(finished)) }
        }

        /// Spins until all `parts` chunks of the current job have finished, yielding the processor after a
        /// while (when the thread finishing the last chunk has to share a CPU with this one).
        func waitForCompletion(parts: Int) {
            var spins = 0
            while Int(blaze_atomic_load_acquire(done)) < parts {
                if spins < WorkerPool.spinIterations {
                    blaze_cpu_relax()
                    spins += 1
                } else {
                    sched_yield()
                }
            }
        }

        /// Tells the workers to exit.
        func shutDown() {
            blaze_atomic_store(shutdownWord, 1)
            _ = publish(job: nil, context: nil, parts: 0, threadStarts: nil)
        }

        /// A worker's life: take a thread index, wait for a new generation on its own claim word, claim
        /// chunks, repeat until shut down.
        func workerLoop() {
            let thread = Int(blaze_atomic_fetch_add(nextWorkerWord, 1))
            guard thread < threadCount else { return }
            let word = claim(thread)
            // Generation 0 is the pool's state at creation, so a worker that starts late still sees the
            // jobs published before it ran.
            var seen = 0
            while true {
                var spins = 0
                var current = WorkerPool.claimFields(blaze_atomic_load_acquire(word)).generation
                while current == seen {
                    if spins < WorkerPool.spinIterations {
                        blaze_cpu_relax()
                        spins += 1
                    } else {
                        pthread_mutex_lock(mutex)
                        blaze_atomic_fetch_add(sleepers, 1)
                        while WorkerPool.claimFields(blaze_atomic_load(word)).generation == seen {
                            pthread_cond_wait(condition, mutex)
                        }
                        blaze_atomic_fetch_add(sleepers, -1)
                        pthread_mutex_unlock(mutex)
                        spins = 0
                    }
                    current = WorkerPool.claimFields(blaze_atomic_load_acquire(word)).generation
                }
                seen = current
                if blaze_atomic_load(shutdownWord) != 0 { return }
                participate(thread: thread, generation: seen)
            }
        }
    }
}
