import BlazeImaging

/// Resizes a one-channel float image as OpenCV's `cv::resize(src, dst, size)` does with its default
/// interpolation, `INTER_LINEAR`, which is how MediaPipe's `TensorsToSegmentationCalculator` (CPU) brings the
/// model's mask to the image's size.
///
/// The mapping (OpenCV's `resizeGeneric_` for float): destination column `d` reads the source at
/// `f = Float((d + 0.5) · scale − 0.5)` with `scale = 1 / (dstWidth / srcWidth)` in `Double` (half-pixel
/// centres); `s = floor(f)`, weights `1 − (f − s)` and `f − s` on columns `s` and `s + 1`; before the first
/// column the weight is all on column 0, from the last column on all on the last column (edges clamp). Rows
/// alike. Each output is `(row s · wy0) + (row s + 1 · wy1)`, each row value `(src[s] · wx0) + (src[s + 1] ·
/// wx1)`, in `Float`, no fused multiply-add. It is plain bilinear when reducing too (no area averaging;
/// OpenCV's exact 2x reduction, which it hands to `INTER_AREA`, gives the same averages).
///
/// No allocation per call once the tables of a size pair exist (they are rebuilt when a size changes, and
/// reuse their storage when it fits). Not thread-safe: one per thread (a segmenter owns one behind its lock).
public final class MaskResizer {
    /// Per destination column (and row): the two source indices and their weights.
    private var columns = Taps()
    private var rows = Taps()
    /// The two source rows under the current destination row, resized horizontally.
    private var upper: [Float] = []
    private var lower: [Float] = []

    /// A resizer with no tables yet; the first `resize` builds them.
    public init() {}

    /// Writes `source` (`sourceWidth x sourceHeight`, row-major) resized to `width x height` into `destination`.
    /// - Parameters:
    ///   - source: the mask's values, row-major, at least `sourceWidth · sourceHeight`.
    ///   - sourceWidth: the source's width, in pixels.
    ///   - sourceHeight: the source's height, in pixels.
    ///   - destination: receives `width · height` values, row-major.
    ///   - width: the destination's width, in pixels.
    ///   - height: the destination's height, in pixels.
    /// - Throws: `ImagingError.emptyImage` (a side below 1 or above `maximumSide`), `.bufferTooSmall` (`source`
    ///   holds fewer than `sourceWidth · sourceHeight` floats; the count is in floats), `.outputTooSmall`.
    ///   Nothing is written then.
    public func resize(_ source: UnsafeBufferPointer<Float>, width sourceWidth: Int, height sourceHeight: Int,
                       into destination: UnsafeMutableBufferPointer<Float>, width: Int, height: Int) throws(ImagingError) {
        try Self.check(source: source.count, sourceWidth, sourceHeight, destination: destination.count, width, height)
        guard let src = source.baseAddress, let dst = destination.baseAddress else { return }
        columns.build(destination: width, source: sourceWidth)
        rows.build(destination: height, source: sourceHeight)
        if upper.count < width {
            upper = [Float](repeating: 0, count: width)
            lower = [Float](repeating: 0, count: width)
        }
        upper.withUnsafeMutableBufferPointer { upperRow in
            lower.withUnsafeMutableBufferPointer { lowerRow in
                var a = upperRow.baseAddress!, b = lowerRow.baseAddress!
                var rowsInA = -1, rowInB = -1
                for j in 0..<height {
                    let y0 = rows.first[j], y1 = rows.second[j]
                    // Reuse the horizontally resized rows of the previous destination row when they match.
                    if y0 == rowInB && y1 != rowInB { swap(&a, &b); swap(&rowsInA, &rowInB) }
                    if rowsInA != y0 { horizontal(src + y0 * sourceWidth, into: a, width: width); rowsInA = y0 }
                    if rowInB != y1 { horizontal(src + y1 * sourceWidth, into: b, width: width); rowInB = y1 }
                    Self.vertical(a, b, rows.weight0[j], rows.weight1[j], into: dst + j * width, count: width)
                }
            }
        }
    }

    /// One source row resized horizontally: `row[first] · weight0 + row[second] · weight1` per column.
    @inline(__always)
    private func horizontal(_ row: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>, width: Int) {
        columns.first.withUnsafeBufferPointer { first in
            columns.second.withUnsafeBufferPointer { second in
                columns.weight0.withUnsafeBufferPointer { w0 in
                    columns.weight1.withUnsafeBufferPointer { w1 in
                        for i in 0..<width {
                            out[i] = row[first[i]] * w0[i] + row[second[i]] * w1[i]
                        }
                    }
                }
            }
        }
    }

    /// `a · w0 + b · w1`, eight lanes at a time (the same operations lane by lane as the scalar tail).
    @inline(__always)
    static func vertical(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ w0: Float, _ w1: Float,
                         into out: UnsafeMutablePointer<Float>, count: Int) {
        var i = 0
        let v0 = SIMD8<Float>(repeating: w0), v1 = SIMD8<Float>(repeating: w1)
        while i + 8 <= count {
            let x = UnsafeRawPointer(a + i).loadUnaligned(as: SIMD8<Float>.self)
            let y = UnsafeRawPointer(b + i).loadUnaligned(as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(out + i).storeBytes(of: x * v0 + y * v1, as: SIMD8<Float>.self)
            i += 8
        }
        while i < count {
            out[i] = a[i] * w0 + b[i] * w1
            i += 1
        }
    }

    /// The taps of destination index `d` for a `source`-long axis resized to `destination` (OpenCV's mapping).
    @inline(__always)
    static func tap(_ d: Int, destination: Int, source: Int) -> (first: Int, second: Int, weight0: Float, weight1: Float) {
        let scale = 1 / (Double(destination) / Double(source))
        var f = Float((Double(d) + 0.5) * scale - 0.5)
        var s = Int(f.rounded(.down))
        f -= Float(s)
        if s < 0 { f = 0; s = 0 }
        if s >= source - 1 { f = 0; s = source - 1 }
        return (s, min(s + 1, source - 1), 1 - f, f)
    }

    /// The sizes a resize accepts: every side 1...`maximumSide`, `source` at least `sourceWidth · sourceHeight`
    /// floats, `destination` at least `width · height`.
    static func check(source: Int, _ sourceWidth: Int, _ sourceHeight: Int, destination: Int, _ width: Int,
                      _ height: Int) throws(ImagingError) {
        let sides = 1...maximumSide
        guard sides.contains(sourceWidth), sides.contains(sourceHeight) else {
            throw .emptyImage(width: sourceWidth, height: sourceHeight)
        }
        guard sides.contains(width), sides.contains(height) else { throw .emptyImage(width: width, height: height) }
        guard source >= sourceWidth * sourceHeight else {
            throw .bufferTooSmall(bytes: source, needed: sourceWidth * sourceHeight)
        }
        guard destination >= width * height else { throw .outputTooSmall(floats: destination, needed: width * height) }
    }

    /// The largest side `resize` accepts (so that every count and position stays exact).
    public static let maximumSide = 1 << 20

    /// The scalar reference: every destination pixel computed on its own from `tap`, with the same operations.
    /// - Parameters:
    ///   - source: the mask's values, row-major, at least `sourceWidth · sourceHeight`.
    ///   - sourceWidth: the source's width, in pixels.
    ///   - sourceHeight: the source's height, in pixels.
    ///   - width: the destination's width, in pixels.
    ///   - height: the destination's height, in pixels.
    /// - Returns: `width · height` values, row-major, equal to `resize`'s.
    /// - Throws: as `resize`.
    public static func referenceResize(_ source: [Float], width sourceWidth: Int, height sourceHeight: Int,
                                       width: Int, height: Int) throws(ImagingError) -> [Float] {
        try check(source: source.count, sourceWidth, sourceHeight, destination: width * height, width, height)
        var out = [Float](repeating: 0, count: width * height)
        for j in 0..<height {
            let (y0, y1, b0, b1) = tap(j, destination: height, source: sourceHeight)
            for i in 0..<width {
                let (x0, x1, a0, a1) = tap(i, destination: width, source: sourceWidth)
                let top = source[y0 * sourceWidth + x0] * a0 + source[y0 * sourceWidth + x1] * a1
                let bottom = source[y1 * sourceWidth + x0] * a0 + source[y1 * sourceWidth + x1] * a1
                out[j * width + i] = top * b0 + bottom * b1
            }
        }
        return out
    }

    /// The taps of one axis, kept for the last size pair.
    private struct Taps {
        var first: [Int] = []
        var second: [Int] = []
        var weight0: [Float] = []
        var weight1: [Float] = []
        var key = (destination: 0, source: 0)

        mutating func build(destination: Int, source: Int) {
            guard key != (destination, source) else { return }
            first.removeAll(keepingCapacity: true)
            second.removeAll(keepingCapacity: true)
            weight0.removeAll(keepingCapacity: true)
            weight1.removeAll(keepingCapacity: true)
            for d in 0..<destination {
                let t = MaskResizer.tap(d, destination: destination, source: source)
                first.append(t.first)
                second.append(t.second)
                weight0.append(t.weight0)
                weight1.append(t.weight1)
            }
            key = (destination, source)
        }
    }
}
