import BlazeKernels
import Foundation

// Repeated rows: a letterboxed picture reaches a detector with bands of identical rows above and below the
// picture (a 1280x720 frame fills only 72 of short-range's 128 input rows). An output row of a convolution,
// pooling or elementwise step is a function of its window of input rows alone, computed by the same
// instructions wherever it lies, so output rows whose windows lie inside one band of identical input rows are
// identical too. With `Options.reuseRepeatedRows`, `invoke()` finds such bands in the inputs, follows them
// from step to step, computes the first row of each band and copies it to the band's other rows. The
// results are the same to the bit; the work saved is the bands' share of the early layers.

/// Up to two bands of rows of one tensor, each of identical rows (bit for bit); bands of fewer than two rows
/// are dropped. Ordered and disjoint.
struct RowBands: Equatable, Sendable {
    var first: Range<Int> = 0..<0
    var second: Range<Int> = 0..<0

    static let none = RowBands()

    init() {}

    /// The bands among `a` and `b` with at least two rows.
    init(_ a: Range<Int>, _ b: Range<Int>) {
        let kept = (a.count >= 2 ? a : 0..<0, b.count >= 2 ? b : 0..<0)
        if kept.0.isEmpty { first = kept.1 } else if kept.1.isEmpty || kept.0.lowerBound < kept.1.lowerBound {
            (first, second) = kept
        } else {
            (first, second) = (kept.1, kept.0)
        }
    }

    var isEmpty: Bool { first.isEmpty }

    /// Rows that are copies of an earlier row: every band row but the first.
    var repeatedRowCount: Int { max(first.count - 1, 0) + max(second.count - 1, 0) }

    /// The output bands of a step reading this tensor through `window`.
    func through(_ window: RowWindow, outputRows: Int) -> RowBands {
        RowBands(window.outputRows(inside: first, outputRows: outputRows),
                 window.outputRows(inside: second, outputRows: outputRows))
    }

    /// Rows in a band of both: of the up to three overlaps (up to two bands each, ordered and disjoint),
    /// the two longest. (No arrays: this runs in `invoke()`.)
    func intersection(_ other: RowBands) -> RowBands {
        @inline(__always) func overlap(_ a: Range<Int>, _ b: Range<Int>) -> Range<Int> {
            let lower = max(a.lowerBound, b.lowerBound), upper = min(a.upperBound, b.upperBound)
            return upper - lower >= 2 ? lower..<upper : 0..<0
        }
        // At most three are non-empty; keep the two longest (a dropped band is merely computed).
        @inline(__always) func keep(_ x: inout Range<Int>, _ y: inout Range<Int>, _ z: Range<Int>) {
            if x.count <= y.count { if z.count > x.count { x = z } } else if z.count > y.count { y = z }
        }
        var a = overlap(first, other.first), b = overlap(first, other.second)
        keep(&a, &b, overlap(second, other.first))
        keep(&a, &b, overlap(second, other.second))
        return RowBands(a, b)
    }

    /// The bands of identical rows at the top and at the bottom of a `rows x rowFloats` tensor.
    static func scan(_ tensor: UnsafePointer<Float>, rows: Int, rowFloats: Int) -> RowBands {
        guard rows >= 2, rowFloats > 0 else { return .none }
        let bytes = rowFloats * MemoryLayout<Float>.size
        func same(_ a: Int, _ b: Int) -> Bool { memcmp(tensor + a * rowFloats, tensor + b * rowFloats, bytes) == 0 }
        var top = 1
        while top < rows && same(top, 0) { top += 1 }
        if top == rows { return RowBands(0..<rows, 0..<0) }
        var bottom = rows - 1
        while bottom > top && same(bottom - 1, rows - 1) { bottom -= 1 }
        return RowBands(0..<top, bottom..<rows)
    }
}

/// What `invoke()` needs to follow repeated rows through one step.
struct StepRows: Sendable {
    /// For inputs 0 and 1: the slot of their bands (`Interpreter.repeatedRowsPlan`), or -1 when the input does not
    /// count (a step with `inputCount` 1) or has no bands (a constant).
    var sources: (Int, Int) = (-1, -1)
    var windows: (RowWindow, RowWindow) = (.identity, .identity)
    /// Inputs whose windows decide the output rows: 0 (the step's output rows are not followed), 1 or 2.
    var inputCount = 0
    /// Rows of the output, and floats per row.
    var outputRows = 0
    var rowFloats = 0
    /// Whether the step can compute a range of output rows (`BoundStep.run(outputRows:)`); otherwise it
    /// computes everything, and its output bands still hold.
    var runsRows = false

    /// How repeated rows pass through a kernel of `locality` (nil: they do not) whose input `j` has the
    /// bands of slot `slots[j]` (nil: no bands, a constant).
    init(_ locality: RowLocality?, slots: [Int?]) {
        // Followed through one or two inputs (a kernel declaring more is computed whole, without bands).
        guard let locality, (1...2).contains(locality.windows.count), locality.windows.count <= slots.count
        else { return }
        inputCount = locality.windows.count
        windows.0 = locality.windows[0]
        sources.0 = slots[0] ?? -1
        if inputCount > 1 {
            windows.1 = locality.windows[1]
            sources.1 = slots[1] ?? -1
        }
        (outputRows, rowFloats) = (locality.outputRows, locality.rowFloats)
        runsRows = locality.computesRowRanges
    }
}

extension BoundStep {
    /// Computes the output rows `rows` (of a batch of one). Only for kernels whose row-locality computes row
    /// ranges (`StepRows.runsRows`).
    @inline(__always)
    func run(outputRows rows: Range<Int>) {
        kernel.run(inputs: inputs, output: output, outputRows: rows)
    }

    /// Computes every output row outside `bands` and the first row of each band, then copies that row over
    /// the rest of its band.
    func run(skipping bands: RowBands, rows: Int, rowFloats: Int) {
        if bands.second.isEmpty {
            run(outputRows: 0 ..< bands.first.lowerBound + 1)
        } else {
            run(outputRows: 0 ..< bands.first.lowerBound + 1)
            run(outputRows: bands.first.upperBound ..< bands.second.lowerBound + 1)
        }
        run(outputRows: (bands.second.isEmpty ? bands.first : bands.second).upperBound ..< rows)
        copyFirstRow(over: bands.first, rowFloats: rowFloats)
        copyFirstRow(over: bands.second, rowFloats: rowFloats)
    }

    @inline(__always)
    private func copyFirstRow(over band: Range<Int>, rowFloats: Int) {
        guard !band.isEmpty else { return }
        let source = UnsafePointer(output + band.lowerBound * rowFloats)
        for row in band.lowerBound + 1 ..< band.upperBound {
            (output + row * rowFloats).update(from: source, count: rowFloats)
        }
    }
}
