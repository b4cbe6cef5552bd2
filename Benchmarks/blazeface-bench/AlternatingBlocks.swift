import CAllocationCounter

/// Times several calls side by side in one process: blocks of `block` calls of the first, then of the second,
/// and so on, until every call ran `iterations` times or the time limit passed, so that all of them see the
/// same machine load. Each call is timed on its own; the heap allocations of every thread are counted over
/// each call's blocks (nothing else runs inside a counted block: the times go into buffers allocated first).
struct AlternatingBlocks {
    /// Per call, in the order given: the timing of each call that ran.
    var summaries: [Summary]
    /// Per call: heap allocations over all its timed calls (every thread).
    var allocations: [Int]
    /// Timed calls of each call (the same for all).
    var iterations: Int
    /// Untimed rounds of all calls that ran first.
    var warmup: Int

    /// Allocations per timed call of call `index`.
    func allocationsPerCall(_ index: Int) -> Double { Double(allocations[index]) / Double(iterations) }

    /// Runs `warmup` untimed rounds of all `calls` (stopping after a quarter of `timeLimit`), then the timed
    /// blocks (stopping after `timeLimit` seconds, at a block's end). `calls` must not be empty; an error
    /// thrown by a call ends the measurement and is rethrown.
    static func run(_ calls: [() throws -> Void], iterations: Int, warmup: Int, timeLimit: Double?,
                    block: Int = 10) throws -> AlternatingBlocks {
        precondition(!calls.isEmpty && iterations >= 1 && block >= 1, "nothing to time")
        let times = calls.map { _ in UnsafeMutableBufferPointer<UInt64>.allocate(capacity: iterations) }
        defer { for buffer in times { buffer.deallocate() } }
        var allocations = [Int](repeating: 0, count: calls.count)

        let warmupLimit = Deadline(seconds: timeLimit.map { $0 / 4 })
        var warm = 0
        while warm < warmup, !warmupLimit.passed {
            for call in calls { try call() }
            warm += 1
        }
        let limit = Deadline(seconds: timeLimit)
        var done = 0
        while done < iterations, !limit.passed {
            let end = min(done + block, iterations)
            for (index, call) in calls.enumerated() {
                let buffer = times[index]
                blaze_allocation_counting_begin_all_threads()
                for i in done..<end {
                    let start = nowNanoseconds()
                    try call()
                    buffer[i] = nowNanoseconds() &- start
                }
                allocations[index] += blaze_allocation_counting_end_all_threads()
            }
            done = end
        }
        return AlternatingBlocks(summaries: times.map { Summary(nanoseconds: Array($0[0..<done])) },
                                 allocations: allocations, iterations: done, warmup: warm)
    }
}
