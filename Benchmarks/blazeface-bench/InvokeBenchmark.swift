import BlazeRuntime
import CAllocationCounter
import Foundation

/// What one model's invoke benchmark measured.
struct InvokeResult {
    var model: ModelChoice
    var threads: Int
    var inputShapes: [[Int]]
    var loadMs: [Double]
    var invoke: Summary
    var allocations: Int
    var iterations: Int
    var warmup: Int
    var multiplyAccumulates: Int
    var arenaBytes: Int
    var peakResidentBytes: Int
    var stepCount: Int
    var profile: [StepProfile]?

    /// 2·MACs per median invoke, in 10^9 per second.
    var gflops: Double { 2 * Double(multiplyAccumulates) / (invoke.medianMs * 1e-3) / 1e9 }
}

/// One step of a per-operator profile.
struct StepProfile {
    var step: Int
    var description: Interpreter.StepDescription
    var medianMicroseconds: Double
}

enum InvokeBenchmark {
    /// Loads `model` `loads` times (the last interpreter is kept), fills its inputs with the fixed pattern,
    /// runs `warmup` untimed invokes, then `iterations` timed ones with every thread's heap
    /// allocations counted; with `perOp`, `iterations` more runs timing each step.
    static func run(_ model: ModelChoice, threads: Int, iterations: Int, warmup: Int, loads: Int,
                    perOp: Bool, timeLimit: Double? = nil) throws -> InvokeResult {
        ResidentMemory.resetPeak()
        var loadMs: [Double] = []
        var kept: Interpreter?
        for _ in 0..<loads {
            kept = nil  // free the previous one first: the peak is one interpreter's
            let start = nowNanoseconds()
            let interpreter = try Interpreter(modelPath: model.path, options: .init(threadCount: threads))
            loadMs.append(Double(nowNanoseconds() - start) / 1e6)
            kept = interpreter
        }
        let interpreter = kept!
        for index in interpreter.inputs.indices {
            interpreter.withInput(at: index) { input in
                for i in 0..<input.count { input[i] = patternValue(i) }
            }
        }
        let limit = Deadline(seconds: timeLimit)
        let warmupLimit = Deadline(seconds: timeLimit.map { $0 / 4 })
        var warm = 0
        while warm < warmup, !warmupLimit.passed {
            interpreter.invoke()
            warm += 1
        }

        let times = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: iterations)
        defer { times.deallocate() }
        var runs = 0
        blaze_allocation_counting_begin_all_threads()
        while runs < iterations {
            let start = nowNanoseconds()
            interpreter.invoke()
            let end = nowNanoseconds()
            times[runs] = end &- start
            runs += 1
            if limit.passed(at: end) { break }
        }
        let allocations = blaze_allocation_counting_end_all_threads()
        let summary = Summary(nanoseconds: Array(times[0..<runs]))

        var profile: [StepProfile]?
        if perOp { profile = try profileSteps(interpreter, iterations: runs, warmup: warm) }

        return InvokeResult(
            model: model, threads: threads, inputShapes: interpreter.inputs.map(\.shape), loadMs: loadMs,
            invoke: summary, allocations: allocations, iterations: runs, warmup: warm,
            multiplyAccumulates: interpreter.multiplyAccumulates, arenaBytes: interpreter.arenaByteCount,
            peakResidentBytes: ResidentMemory.peakBytes(), stepCount: interpreter.plan.count, profile: profile)
    }

    /// Median time of each step over `iterations` profiled invokes (each step timed on its own).
    static func profileSteps(_ interpreter: Interpreter, iterations: Int, warmup: Int) throws -> [StepProfile] {
        let plan = interpreter.plan
        let steps = plan.count
        let scratch = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: steps)
        defer { scratch.deallocate() }
        // samples[s * iterations + i]: step s in run i.
        var samples = [UInt64](repeating: 0, count: steps * iterations)
        for _ in 0..<min(warmup, 5) {
            scratch.update(repeating: 0)
            try interpreter.invoke(addingStepNanosecondsTo: scratch)
        }
        for i in 0..<iterations {
            scratch.update(repeating: 0)
            try interpreter.invoke(addingStepNanosecondsTo: scratch)
            for s in 0..<steps { samples[s * iterations + i] = scratch[s] }
        }
        return (0..<steps).map { s in
            let run = Array(samples[(s * iterations)..<((s + 1) * iterations)])
            return StepProfile(step: s, description: plan[s], medianMicroseconds: Summary(nanoseconds: run).medianMs * 1000)
        }
    }
}
