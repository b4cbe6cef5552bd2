import BlazeKernels
import BlazeTestSupport
import Foundation
import Testing

/// MediaPipe's custom operators against values computed here independently, in double precision, from the
/// operators' definitions: the crop matrix by its formula, bilinear sampling of a linear ramp (which bilinear
/// interpolation reproduces exactly), and landmarks through a known matrix.
@Suite("MediaPipe custom operator kernels")
struct MediaPipeOperatorTests {
    // MARK: Landmarks2TransformMatrix

    /// The matrix by its definition: rotation r = target − atan2(Δy, Δx); the subset's bounding box in the frame
    /// rotated by r; its centre rotated back; M = T(c) · R(−r) · S · T(−W/2, −H/2).
    static func expectedMatrix(_ points: [Float], subset: [Int], left: Int, right: Int, target: Double,
                               width: Int, height: Int, scaleX: Double, scaleY: Double) -> [Float] {
        func p(_ i: Int) -> (Double, Double) { (Double(points[3 * i]), Double(points[3 * i + 1])) }
        let r = target - atan2(p(right).1 - p(left).1, p(right).0 - p(left).0)
        let rotated = subset.map { i in (cos(r) * p(i).0 - sin(r) * p(i).1, sin(r) * p(i).0 + cos(r) * p(i).1) }
        let (x0, x1) = (rotated.map(\.0).min()!, rotated.map(\.0).max()!)
        let (y0, y1) = (rotated.map(\.1).min()!, rotated.map(\.1).max()!)
        let (mx, my) = ((x0 + x1) / 2, (y0 + y1) / 2)
        let (cx, cy) = (cos(-r) * mx - sin(-r) * my, sin(-r) * mx + cos(-r) * my)
        let sx = scaleX * (x1 - x0) / Double(width), sy = scaleY * (y1 - y0) / Double(height)
        let (c, s) = (cos(-r), sin(-r))
        let (hw, hh) = (Double(width) / 2, Double(height) / 2)
        return [c * sx, -s * sy, 0, cx - c * sx * hw + s * sy * hh,
                s * sx, c * sy, 0, cy - s * sx * hw - c * sy * hh,
                0, 0, 1, 0,
                0, 0, 0, 1].map { Float($0) }
    }

    @Test("Landmarks2TransformMatrix matches the formula over rotations, subsets, sizes and scales",
          arguments: [0.0, 0.5, -1.25, Double.pi])
    func landmarksToMatrix(target: Double) throws {
        var rng = SplitMix64(seed: UInt64(abs(target * 100)) + 1)
        for trial in 0..<40 {
            let count = 5 + trial % 20
            let points = rng.floats(3 * count).map { $0 * 96 + 96 }
            let subset = (0..<(1 + trial % count)).map { ($0 * 7 + trial) % count }
            let left = trial % count, right = (trial * 3 + 1) % count
            guard left != right else { continue }
            let (width, height) = ([16, 48, 192][trial % 3], [16, 32, 192][(trial / 3) % 3])
            let (sx, sy) = ([1.0, 1.5, 2.25][trial % 3], [1.0, 1.25][trial % 2])
            let kernel = try LandmarksToTransformMatrix(
                landmarkCount: count, subset: subset, leftIndex: left, rightIndex: right, targetRotation: Float(target),
                outputWidth: width, outputHeight: height, scaleX: Float(sx), scaleY: Float(sy))
            let got = produce(16) { out in points.withUnsafeBufferPointer { kernel.run(landmarks: $0.baseAddress!, output: out) } }
            let want = Self.expectedMatrix(points, subset: subset, left: left, right: right, target: target,
                                           width: width, height: height, scaleX: sx, scaleY: sy)
            expectClose(got, want, relative: 2e-5, "trial \(trial) target \(target)")
        }
    }

    @Test("Landmarks2TransformMatrix: a level face maps the crop's centre to the box centre, corners to its corners")
    func landmarksToMatrixGeometry() throws {
        // Four points of a 40 x 20 box centred at (100, 50); left/right on a horizontal line.
        let points: [Float] = [80, 40, 0, 120, 40, 0, 80, 60, 0, 120, 60, 0]
        let kernel = try LandmarksToTransformMatrix(landmarkCount: 4, subset: [0, 1, 2, 3], leftIndex: 0, rightIndex: 1,
                                                    targetRotation: 0, outputWidth: 20, outputHeight: 10,
                                                    scaleX: 1, scaleY: 1)
        let m = produce(16) { out in points.withUnsafeBufferPointer { kernel.run(landmarks: $0.baseAddress!, output: out) } }
        func map(_ x: Float, _ y: Float) -> (Float, Float) { (m[0] * x + m[1] * y + m[3], m[4] * x + m[5] * y + m[7]) }
        #expect(map(10, 5) == (100, 50))
        #expect(map(0, 0) == (80, 40))
        #expect(map(20, 10) == (120, 60))
        #expect(Array(m[8...]) == [0, 0, 1, 0, 0, 0, 0, 1])
    }

    @Test("Landmarks2TransformMatrix refuses out-of-range parameters")
    func landmarksToMatrixErrors() {
        func make(count: Int = 4, subset: [Int] = [0, 1], left: Int = 0, right: Int = 1, width: Int = 8, height: Int = 8,
                  sx: Float = 1, sy: Float = 1, target: Float = 0) throws -> LandmarksToTransformMatrix {
            try LandmarksToTransformMatrix(landmarkCount: count, subset: subset, leftIndex: left, rightIndex: right,
                                           targetRotation: target, outputWidth: width, outputHeight: height,
                                           scaleX: sx, scaleY: sy)
        }
        expectError(.invalidParameter("right_rotation_idx 4 is outside the 4 landmarks")) { try make(right: 4) }
        expectError(.invalidParameter("left_rotation_idx -1 is outside the 4 landmarks")) { try make(left: -1) }
        expectError(.invalidParameter("subset_idxs 9 is outside the 4 landmarks")) { try make(subset: [0, 9]) }
        expectError(.invalidParameter("the subset of landmarks is empty")) { try make(subset: []) }
        expectThrows { try make(width: 0) }
        expectThrows { try make(height: -3) }
        expectThrows { try make(sx: 0) }
        expectThrows { try make(sy: .nan) }
        expectThrows { try make(target: .infinity) }
        expectThrows { try make(count: 0) }
    }

    // MARK: TransformTensorBilinear

    /// A linear ramp in (row, column, channel), which bilinear interpolation reproduces exactly.
    static func ramp(_ h: Double, _ w: Double, _ c: Int) -> Double { 0.5 + 0.75 * h - 0.5 * w + 0.125 * Double(c) }

    static func sample(input: Shape4, outputHeight: Int, outputWidth: Int, matrix: [Float]) throws -> [Float] {
        let kernel = try TransformTensorBilinear(inputShape: input, outputHeight: outputHeight, outputWidth: outputWidth)
        var tensor: [Float] = []
        for h in 0..<input.h { for w in 0..<input.w { for c in 0..<input.c { tensor.append(Float(ramp(Double(h), Double(w), c))) } } }
        return produce(kernel.outputShape.count) { out in
            tensor.withUnsafeBufferPointer { t in matrix.withUnsafeBufferPointer { kernel.run(input: t.baseAddress!, matrix: $0.baseAddress!, output: out) } }
        }
    }

    @Test("TransformTensorBilinear samples a ramp through scalings, shifts and rotations; outside is 0",
          arguments: [1, 3, 8, 32])
    func bilinear(channels: Int) throws {
        let input = Shape4(n: 1, h: 12, w: 10, c: channels)
        let (oh, ow) = (7, 9)
        for (k, angle) in [0.0, 0.3, -1.1, 2.5].enumerated() {
            let scale = [1.0, 1.5, 0.7, 1.2][k], tx = [0.0, 2.25, -1.5, 12.0][k], ty = [0.0, 1.75, 4.0, 6.0][k]
            let (c, s) = (cos(angle) * scale, sin(angle) * scale)
            let matrix = [c, -s, 0, tx, s, c, 0, ty, 0, 0, 1, 0, 0, 0, 0, 1].map { Float($0) }
            let got = try Self.sample(input: input, outputHeight: oh, outputWidth: ow, matrix: matrix)
            var checked = 0
            for y in 0..<oh {
                for x in 0..<ow {
                    // Pixel centres: the source of (x + 0.5, y + 0.5) minus 0.5.
                    let u = c * (Double(x) + 0.5) - s * (Double(y) + 0.5) + tx - 0.5
                    let v = s * (Double(x) + 0.5) + c * (Double(y) + 0.5) + ty - 0.5
                    let margin = 1e-4
                    let inside = u >= margin && u <= Double(input.w - 1) - margin && v >= margin && v <= Double(input.h - 1) - margin
                    let outside = u < -margin || u > Double(input.w - 1) + margin || v < -margin || v > Double(input.h - 1) + margin
                    for z in 0..<channels {
                        let value = got[(y * ow + x) * channels + z]
                        if inside {
                            #expect(abs(Double(value) - Self.ramp(v, u, z)) < 1e-3, "(\(x), \(y), \(z)) angle \(angle)")
                            checked += 1
                        } else if outside {
                            #expect(value == 0, "(\(x), \(y)) outside, angle \(angle)")
                        }
                    }
                }
            }
            #expect(checked > 0)
        }
    }

    @Test("TransformTensorBilinear: any split into row pieces gives the same bits; NaN matrices give zeros")
    func bilinearPiecesAndNaN() throws {
        let input = Shape4(n: 1, h: 48, w: 48, c: 32)
        let kernel = try TransformTensorBilinear(inputShape: input, outputHeight: 16, outputWidth: 16)
        let tensor = randomFloats(input.count, seed: 3)
        let matrix: [Float] = [0.9, -0.3, 0, 14, 0.3, 0.9, 0, 9, 0, 0, 1, 0, 0, 0, 0, 1]
        func run(_ m: [Float], _ split: [Range<Int>]) -> [Float] {
            produce(kernel.outputShape.count) { out in
                tensor.withUnsafeBufferPointer { t in m.withUnsafeBufferPointer { mp in
                    for rows in split { kernel.run(input: t.baseAddress!, matrix: mp.baseAddress!, output: out, rows: rows) }
                } }
            }
        }
        let whole = run(matrix, [0..<16])
        #expect(whole.contains { $0 != 0 })
        #expect(run(matrix, [0..<3, 3..<4, 4..<16]).map(\.bitPattern) == whole.map(\.bitPattern))
        let nan = run([.nan] + matrix.dropFirst(), [0..<16])
        #expect(nan.allSatisfy { $0 == 0 })
        let huge = run([1e30, 0, 0, 0, 0, 1e30, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], [0..<16])
        #expect(huge.dropFirst(32).allSatisfy { $0 == 0 })
    }

    @Test("TransformTensorBilinear: the eight-channel path gives the reference's bits, edges and all",
          arguments: [1, 3, 8, 13, 32, 64])
    func bilinearMatchesReference(channels: Int) throws {
        let input = Shape4(n: 1, h: 20, w: 17, c: channels)
        let kernel = try TransformTensorBilinear(inputShape: input, outputHeight: 11, outputWidth: 13)
        let tensor = randomFloats(input.count, seed: UInt64(channels))
        var generator = SplitMix64(seed: 7)
        for _ in 0..<20 {
            let angle = Double.random(in: -3...3, using: &generator), scale = Double.random(in: 0.5...2.5, using: &generator)
            let (c, s) = (Float(cos(angle) * scale), Float(sin(angle) * scale))
            let tx = Float.random(in: -4...20, using: &generator), ty = Float.random(in: -4...22, using: &generator)
            let matrix: [Float] = [c, -s, 0, tx, s, c, 0, ty, 0, 0, 1, 0, 0, 0, 0, 1]
            let fast = produce(kernel.outputShape.count) { out in
                tensor.withUnsafeBufferPointer { t in matrix.withUnsafeBufferPointer { kernel.run(input: t.baseAddress!, matrix: $0.baseAddress!, output: out) } }
            }
            let reference = produce(kernel.outputShape.count) { out in
                tensor.withUnsafeBufferPointer { t in matrix.withUnsafeBufferPointer { kernel.runReference(input: t.baseAddress!, matrix: $0.baseAddress!, output: out) } }
            }
            #expect(fast.map(\.bitPattern) == reference.map(\.bitPattern), "channels \(channels), matrix \(matrix)")
            #expect(fast.contains { $0 != 0 } || reference.allSatisfy { $0 == 0 })
        }
    }

    @Test("TransformTensorBilinear refuses bad shapes")
    func bilinearErrors() {
        expectThrows { try TransformTensorBilinear(inputShape: Shape4(n: 2, h: 4, w: 4, c: 1), outputHeight: 2, outputWidth: 2) }
        expectThrows { try TransformTensorBilinear(inputShape: Shape4(n: 1, h: 4, w: 4, c: 1), outputHeight: 0, outputWidth: 2) }
        expectThrows { try TransformTensorBilinear(inputShape: Shape4(n: 1, h: 4, w: 4, c: 1), outputHeight: Int.max / 2, outputWidth: 4) }
    }

    // MARK: TransformLandmarks

    @Test("TransformLandmarks maps x and y through the matrix and copies z", arguments: [2, 3])
    func transformLandmarks(dimensions: Int) throws {
        for count in [1, 5, 71, 80] {
            let kernel = try TransformLandmarks(count: count, dimensions: dimensions)
            let points = randomFloats(count * dimensions, seed: UInt64(count * dimensions)).map { $0 * 50 }
            let matrix: [Float] = [0.8, -0.6, 7, 12.5, 0.6, 0.8, -3, -4.25, 9, 9, 9, 9, 9, 9, 9, 9]
            let got = produce(count * dimensions) { out in
                points.withUnsafeBufferPointer { p in matrix.withUnsafeBufferPointer { kernel.run(landmarks: p.baseAddress!, matrix: $0.baseAddress!, output: out) } }
            }
            var want: [Float] = []
            for i in 0..<count {
                let x = Double(points[i * dimensions]), y = Double(points[i * dimensions + 1])
                want += [Float(0.8 * x - 0.6 * y + 12.5), Float(0.6 * x + 0.8 * y - 4.25)]
                if dimensions == 3 { want.append(points[i * 3 + 2]) }
            }
            expectClose(got, want, relative: 1e-6, "\(count) x \(dimensions)")
            if dimensions == 3 { #expect(stride(from: 2, to: got.count, by: 3).allSatisfy { got[$0] == points[$0] }) }
        }
        expectThrows { try TransformLandmarks(count: 4, dimensions: 4) }
        expectThrows { try TransformLandmarks(count: 0, dimensions: 2) }
    }
}
