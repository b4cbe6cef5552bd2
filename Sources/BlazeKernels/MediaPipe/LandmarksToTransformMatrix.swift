#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// MediaPipe's `Landmarks2TransformMatrix` (version 2): from a set of landmarks, the 4x4 affine matrix that maps
/// pixel `(x, y)` of an output crop of `outputWidth x outputHeight` to the landmarks' own coordinates, for a crop
/// aligned with the line from landmark `leftIndex` to `rightIndex` and covering the `subset` landmarks.
///
/// With `r = targetRotation − atan2(y_right − y_left, x_right − x_left)` and the subset landmarks rotated by
/// `R(r)`, their bounding box (width `w`, height `h`, centre `c`, mapped back by `R(−r)`), the matrix is
/// `T(c) · R(−r) · S(scaleX · w / outputWidth, scaleY · h / outputHeight) · T(−outputWidth/2, −outputHeight/2)`,
/// row-major, with z passed through. Arithmetic is float32 in MediaPipe's order of operations.
///
/// Input: `landmarkCount` landmarks of 3 floats (x, y, z), of which z is ignored. Output: 16 floats.
///
/// Thread safety: immutable; `run` may be called concurrently with different outputs.
package struct LandmarksToTransformMatrix: Sendable, Equatable {
    package let landmarkCount: Int
    /// Landmark indices whose bounding box the crop covers.
    package let subset: [Int]
    package let leftIndex: Int
    package let rightIndex: Int
    /// Radians the left→right line is rotated to.
    package let targetRotation: Float
    package let outputWidth: Int
    package let outputHeight: Int
    package let scaleX: Float
    package let scaleY: Float

    /// - Throws: `KernelError.invalidParameter` for an index outside `0..<landmarkCount`, an empty subset, an
    ///   output size that is not positive, a scale that is not positive and finite, or a target rotation that
    ///   is not finite; `.invalidShape` for a landmark count that is not positive.
    package init(landmarkCount: Int, subset: [Int], leftIndex: Int, rightIndex: Int, targetRotation: Float,
                outputWidth: Int, outputHeight: Int, scaleX: Float, scaleY: Float) throws(KernelError) {
        guard landmarkCount > 0 else { throw .invalidShape("\(landmarkCount) landmarks") }
        guard !subset.isEmpty else { throw .invalidParameter("the subset of landmarks is empty") }
        for (name, index) in [("left_rotation_idx", leftIndex), ("right_rotation_idx", rightIndex)]
            + subset.map({ ("subset_idxs", $0) }) where !(0..<landmarkCount).contains(index) {
            throw .invalidParameter("\(name) \(index) is outside the \(landmarkCount) landmarks")
        }
        guard outputWidth > 0, outputHeight > 0, outputWidth <= 1 << 24, outputHeight <= 1 << 24 else {
            throw .invalidParameter("output size \(outputWidth)x\(outputHeight) is not positive or too large")
        }
        guard scaleX > 0, scaleY > 0, scaleX.isFinite, scaleY.isFinite else {
            throw .invalidParameter("scale \(scaleX) x \(scaleY) is not positive and finite")
        }
        guard targetRotation.isFinite else { throw .invalidParameter("target rotation \(targetRotation) is not finite") }
        self.landmarkCount = landmarkCount
        self.subset = subset
        (self.leftIndex, self.rightIndex, self.targetRotation) = (leftIndex, rightIndex, targetRotation)
        (self.outputWidth, self.outputHeight, self.scaleX, self.scaleY) = (outputWidth, outputHeight, scaleX, scaleY)
    }

    /// Writes the 16 floats of the matrix, row-major. NaN landmarks give NaN entries (never a crash).
    package func run(landmarks: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let (lx, ly) = (landmarks[3 * leftIndex], landmarks[3 * leftIndex + 1])
        let (rx, ry) = (landmarks[3 * rightIndex], landmarks[3 * rightIndex + 1])
        let rotation = targetRotation - atan2f(ry - ly, rx - lx)
        let (c, s) = (cosf(rotation), sinf(rotation))
        // The subset rotated by R(rotation), as a 3x3 matrix times (x, y, 1): sums from 0 in column order.
        func rotated(_ index: Int) -> (x: Float, y: Float) {
            let x = landmarks[3 * index], y = landmarks[3 * index + 1]
            return (((0 + c * x) + -s * y) + 0 * 1, ((0 + s * x) + c * y) + 0 * 1)
        }
        // The first point starts the box (MediaPipe's order); indices read in place, without an iterator.
        let first = rotated(subset[0])
        var minX = first.x, minY = first.y, maxX = first.x, maxY = first.y
        var k = 1
        while k < subset.count {
            let p = rotated(subset[k])
            if maxX < p.x { maxX = p.x }
            if maxY < p.y { maxY = p.y }
            if minX > p.x { minX = p.x }
            if minY > p.y { minY = p.y }
            k += 1
        }
        let width = maxX - minX, height = maxY - minY
        let midX = (minX + maxX) / 2, midY = (minY + maxY) / 2
        let (ci, si) = (cosf(-rotation), sinf(-rotation))
        let cropX = ((0 + ci * midX) + -si * midY) + 0 * 1
        let cropY = ((0 + si * midX) + ci * midY) + 0 * 1
        let scaleX = self.scaleX * width / Float(outputWidth)
        let scaleY = self.scaleY * height / Float(outputHeight)
        let r = -rotation
        var t = Matrix4.identity
        t.multiply(by: Matrix4(1, 0, 0, cropX, 0, 1, 0, cropY, 0, 0, 1, 0, 0, 0, 0, 1))
        t.multiply(by: Matrix4(cosf(r), -sinf(r), 0, 0, sinf(r), cosf(r), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))
        t.multiply(by: Matrix4(scaleX, 0, 0, 0, 0, scaleY, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))
        t.multiply(by: Matrix4(1, 0, 0, -Float(Double(outputWidth) / 2), 0, 1, 0, -Float(Double(outputHeight) / 2),
                               0, 0, 1, 0, 0, 0, 0, 1))
        for i in 0..<16 { output[i] = t.entries[i] }
    }
}

/// A row-major 4x4 float matrix on the stack, multiplied as MediaPipe does (each entry a sum from 0 over k in
/// order).
struct Matrix4 {
    var entries: SIMD16<Float>

    init(_ e: SIMD16<Float>) { entries = e }

    init(_ a: Float, _ b: Float, _ c: Float, _ d: Float, _ e: Float, _ f: Float, _ g: Float, _ h: Float,
         _ i: Float, _ j: Float, _ k: Float, _ l: Float, _ m: Float, _ n: Float, _ o: Float, _ p: Float) {
        entries = SIMD16(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p)
    }

    static let identity = Matrix4(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)

    mutating func multiply(by other: Matrix4) {
        var result = SIMD16<Float>()
        for row in 0..<4 {
            for column in 0..<4 {
                var sum: Float = 0
                for k in 0..<4 { sum += entries[row * 4 + k] * other.entries[k * 4 + column] }
                result[row * 4 + column] = sum
            }
        }
        entries = result
    }
}

extension LandmarksToTransformMatrix: UnaryStepKernel {
    package var planDescription: String { "LandmarksToTransformMatrix.reference" }

    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        run(landmarks: input, output: output)
    }
}
