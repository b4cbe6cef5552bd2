import BlazeTFLite

/// A stretch of the plan whose steps form independent chains (iris's eye-contour and iris branches, say),
/// run side by side with one synchronization for the whole stretch instead of one per step: lane `l` runs
/// its steps in plan order, each whole, on one thread.
struct ConcurrentSection: Equatable, Sendable {
    /// Step indices of the stretch.
    var range: Range<Int>
    /// Per lane, its step indices in plan order. Every step of `range` is in exactly one lane, and no step
    /// reads a tensor that a step of another lane writes.
    var lanes: [[Int]]
}

extension Interpreter {
    /// Estimated nanoseconds of step `step` on one thread: about 20 multiply-accumulates and 4 output floats
    /// per nanosecond (conservative for the SIMD kernels; it only ranks steps and sizes chunks).
    static func estimatedNanoseconds(_ step: PlannedStep, graph: SubGraph) -> Int {
        step.multiplyAccumulates / 20 + graph.tensors[step.output].elementCount / 4
    }

    /// Estimated cost of running a concurrent section: publishing it, waking a worker, waiting for it.
    static let sectionOverheadNanoseconds = 2_000

    /// Estimated cost of splitting one step across the threads (the same, per step).
    static let splitOverheadNanoseconds = 1_500

    /// The least estimated gain for which a stretch runs as a section. Measured at 2 threads (alternated
    /// release builds, paired per-round ratios): iris's two branches (estimated gain ~49 µs) 0.93x the time,
    /// full-range's two FPN stretches (16 and 20 µs) 0.98x; the sections of 4-5 µs in short-range, back and
    /// face mesh (their heads, their 3x3 layers) made no difference measurable here (0.99-1.04x, within the
    /// noise), so they are left to the row split.
    static let minimumSectionGainNanoseconds = 10_000

    /// The longest stretch of steps considered for one section.
    static let maximumSectionSteps = 512

    /// Concurrent sections for `threads` threads: stretches of `steps` that split into independent chains
    /// whose side-by-side run is estimated to beat running their steps one after another (each split
    /// across the threads if large enough, see `chunkPlan`) by at least `minimumSectionGainNanoseconds`.
    ///
    /// Left to right, for each first step the stretch with the largest estimated gain is taken (its chains
    /// dealt to `threads` lanes, longest first, each to the least loaded lane), and the search goes on after
    /// it. Returns no sections for one thread.
    static func concurrentSections(steps: [PlannedStep], threads: Int, graph: SubGraph) -> [ConcurrentSection] {
        guard threads > 1, steps.count > 2 else { return [] }
        // Which step writes each tensor, and what each step costs now and alone.
        var producer: [Int: Int] = [:]
        for (s, step) in steps.enumerated() { producer[step.output] = s }
        let dependencies = steps.map { step in step.inputs.compactMap { producer[$0] } }
        let alone = steps.map { estimatedNanoseconds($0, graph: graph) }
        let now = steps.indices.map { s in
            chunkPlan(pieces: steps[s].kernel.pieceCount, nanoseconds: alone[s], threads: threads) == nil
                ? alone[s] : alone[s] / threads + splitOverheadNanoseconds
        }

        var sections: [ConcurrentSection] = []
        var first = 0
        while first < steps.count - 1 {
            var chains = ChainSet(first: first)
            var best: (end: Int, gain: Int, lanes: [[Int]])?
            var nowTotal = 0
            for end in (first + 1)...min(steps.count, first + maximumSectionSteps) {
                let s = end - 1
                chains.add(step: s, cost: alone[s], dependencies: dependencies[s])
                nowTotal += now[s]
                guard chains.count >= 2 else { continue }
                let (lanes, makespan) = chains.lanes(count: threads)
                let gain = nowTotal - makespan - sectionOverheadNanoseconds
                if gain > (best?.gain ?? minimumSectionGainNanoseconds - 1) { best = (end, gain, lanes) }
            }
            if let best {
                sections.append(ConcurrentSection(range: first..<best.end, lanes: best.lanes))
                first = best.end
            } else {
                first += 1
            }
        }
        return sections
    }
}

/// The connected components ("chains") of the steps added so far, by data dependency, with their costs.
private struct ChainSet {
    let first: Int
    /// Union-find parent, by step index − `first`.
    private var parent: [Int] = []
    /// Cost of each component, at its root.
    private var cost: [Int] = []
    /// Number of components.
    private(set) var count = 0

    init(first: Int) { self.first = first }

    private mutating func root(_ i: Int) -> Int {
        var i = i
        while parent[i] != i {
            parent[i] = parent[parent[i]]
            i = parent[i]
        }
        return i
    }

    /// Adds step `step` (the next one), joined to the steps of the stretch it reads from.
    mutating func add(step: Int, cost stepCost: Int, dependencies: [Int]) {
        let i = step - first
        parent.append(i)
        cost.append(stepCost)
        count += 1
        for d in dependencies where d >= first && d < step {
            let a = root(i), b = root(d - first)
            guard a != b else { continue }
            parent[a] = b
            cost[b] += cost[a]
            count -= 1
        }
    }

    /// The components dealt to at most `count` lanes, longest first, each to the least loaded lane; lanes
    /// hold step indices in order. Returns the lanes and the longest lane's cost.
    mutating func lanes(count laneCount: Int) -> (lanes: [[Int]], makespan: Int) {
        var roots: [Int] = []
        for i in parent.indices where root(i) == i { roots.append(i) }
        roots.sort { cost[$0] != cost[$1] ? cost[$0] > cost[$1] : $0 < $1 }
        let lanes = min(laneCount, roots.count)
        var load = Array(repeating: 0, count: lanes)
        var laneOfRoot: [Int: Int] = [:]
        for r in roots {
            let lane = load.indices.min { load[$0] != load[$1] ? load[$0] < load[$1] : $0 < $1 }!
            laneOfRoot[r] = lane
            load[lane] += cost[r]
        }
        var result = Array(repeating: [Int](), count: lanes)
        for i in parent.indices { result[laneOfRoot[root(i)]!].append(first + i) }
        return (result, load.max() ?? 0)
    }
}

/// Concurrent sections laid out in raw memory for `invoke()`, which runs one with a single job of the
/// worker pool (one chunk per lane, lane `l` owned by thread `l`) and allocates nothing.
final class SectionSchedule: @unchecked Sendable {
    /// What the pool's job for a section reads: the bound steps (set by each run) and the section's lanes.
    struct Context {
        var steps: UnsafePointer<BoundStep>?
        /// The lanes' step indices, lane after lane.
        var laneSteps: UnsafeMutablePointer<Int>
        /// Lane `l` is `laneSteps[laneStarts[l] ..< laneStarts[l + 1]]`.
        var laneStarts: UnsafeMutablePointer<Int>
        /// `threads + 1` chunk indices: thread `t` owns lane `t` (none past the last lane).
        var threadStarts: UnsafeMutablePointer<Int>
        var lanes: Int
    }

    private let stepCount: Int
    /// Per step index: the index of the section starting there, or -1.
    private let sectionAt: UnsafeMutablePointer<Int>
    /// Per step index: the end of the section starting there (the step itself when none does).
    private let ends: UnsafeMutablePointer<Int>
    private let contexts: UnsafeMutablePointer<Context>
    private let sectionCount: Int
    /// Per step index: whether a section runs it.
    private let inSection: UnsafeMutablePointer<Bool>

    init(sections: [ConcurrentSection], stepCount: Int, threads: Int) {
        self.stepCount = stepCount
        sectionCount = sections.count
        sectionAt = .allocate(capacity: max(stepCount, 1))
        sectionAt.initialize(repeating: -1, count: max(stepCount, 1))
        ends = .allocate(capacity: max(stepCount, 1))
        for s in 0..<max(stepCount, 1) { (ends + s).initialize(to: s) }
        inSection = .allocate(capacity: max(stepCount, 1))
        inSection.initialize(repeating: false, count: max(stepCount, 1))
        contexts = .allocate(capacity: max(sections.count, 1))
        for (k, section) in sections.enumerated() {
            for s in section.range { inSection[s] = true }
            sectionAt[section.range.lowerBound] = k
            ends[section.range.lowerBound] = section.range.upperBound
            let all = section.lanes.flatMap { $0 }
            let laneSteps = UnsafeMutablePointer<Int>.allocate(capacity: max(all.count, 1))
            laneSteps.initialize(from: all, count: all.count)
            var starts = [0]
            for lane in section.lanes { starts.append(starts.last! + lane.count) }
            let laneStarts = UnsafeMutablePointer<Int>.allocate(capacity: starts.count)
            laneStarts.initialize(from: starts, count: starts.count)
            let owners = (0...threads).map { min($0, section.lanes.count) }
            let threadStarts = UnsafeMutablePointer<Int>.allocate(capacity: owners.count)
            threadStarts.initialize(from: owners, count: owners.count)
            (contexts + k).initialize(to: Context(steps: nil, laneSteps: laneSteps, laneStarts: laneStarts,
                                                   threadStarts: threadStarts, lanes: section.lanes.count))
        }
    }

    deinit {
        for k in 0..<sectionCount {
            contexts[k].laneSteps.deallocate()
            contexts[k].laneStarts.deallocate()
            contexts[k].threadStarts.deallocate()
        }
        contexts.deallocate()
        inSection.deallocate()
        ends.deallocate()
        sectionAt.deallocate()
    }

    /// Whether a section runs step `index`.
    @inline(__always)
    func isInSection(_ index: Int) -> Bool { inSection[index] }

    /// The end of the section that starts at step `index`, or `index` when none does.
    @inline(__always)
    func sectionEnd(startingAt index: Int) -> Int { ends[index] }

    /// Runs the section that starts at step `index`: each lane's steps in order, whole, the lanes on the
    /// pool's threads side by side. Performs no heap allocation.
    @inline(__always)
    func run(sectionStartingAt index: Int, steps: UnsafeBufferPointer<BoundStep>, on pool: WorkerPool) {
        let context = contexts + sectionAt[index]
        context.pointee.steps = steps.baseAddress
        pool.run(parts: context.pointee.lanes, threadStarts: context.pointee.threadStarts, job: { context, lane, _ in
            let c = context!.assumingMemoryBound(to: Context.self).pointee
            for j in c.laneStarts[lane]..<c.laneStarts[lane + 1] { c.steps![c.laneSteps[j]].run() }
        }, context: UnsafeMutableRawPointer(context))
    }
}
