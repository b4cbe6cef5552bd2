import Foundation

/// Runs one body on several threads at once, to check what the library says about sharing its objects.
///
/// `Hammer.run(threads: 4, rounds: 5) { thread, round in ... }` starts four threads of their own (not a
/// dispatch pool, which on a two-core machine would run two at a time), holds them at a barrier until all
/// have started, then each calls the body for rounds 0..<5. Results come back by thread then round; a throw
/// is collected as a failure naming the thread and round, never lost.
public enum Hammer {
    public struct Outcome<T> {
        /// `results[thread][round]`: nil where that call threw.
        public var results: [[T?]]
        /// "thread t round r: error", one per call that threw.
        public var failures: [String]
        /// Every result, thread by thread (those that threw left out).
        public var all: [T] { results.flatMap { $0.compactMap { $0 } } }
    }

    public static func run<T>(threads: Int, rounds: Int, _ body: @escaping @Sendable (_ thread: Int, _ round: Int) throws -> T) -> Outcome<T> {
        let box = Box<T>(threads: threads, rounds: rounds)
        let ready = DispatchGroup(), done = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        for thread in 0..<threads {
            ready.enter()
            done.enter()
            let worker = Thread {
                ready.leave()
                start.wait()
                for round in 0..<rounds {
                    do { box.set(thread, round, try body(thread, round)) } catch {
                        box.fail("thread \(thread) round \(round): \(error)")
                    }
                }
                done.leave()
            }
            worker.stackSize = 4 << 20
            worker.start()
        }
        ready.wait()
        for _ in 0..<threads { start.signal() }
        done.wait()
        return box.outcome
    }

    /// The results, written by the threads under a lock.
    private final class Box<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [[T?]]
        private var failures: [String] = []

        init(threads: Int, rounds: Int) {
            results = Array(repeating: Array(repeating: nil, count: rounds), count: threads)
        }

        func set(_ thread: Int, _ round: Int, _ value: T) {
            lock.lock()
            results[thread][round] = value
            lock.unlock()
        }

        func fail(_ message: String) {
            lock.lock()
            failures.append(message)
            lock.unlock()
        }

        var outcome: Outcome<T> {
            lock.lock()
            defer { lock.unlock() }
            return Outcome(results: results, failures: failures)
        }
    }
}
