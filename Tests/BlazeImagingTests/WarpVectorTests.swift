@testable import BlazeImaging
import BlazeTestSupport
import Foundation
import Testing

/// The vector `.warp` loops (`fillWarped`: `warpVector`, and `warpSeparable` for unturned frames) against the
/// per-pixel reference they replace (`fillWarpedReference`): the same frame, bit for bit, over random images,
/// regions, tensors, borders and orientations, with the region inside, across or wholly outside the image.
@Suite("ImageToTensor vector warp")
struct WarpVectorTests {
    struct Trial: CustomStringConvertible {
        var width: Int, height: Int, padding: Int
        var orientation: ImageOrientation
        var region: RotatedRect
        var options: ImageToTensor.Options
        var description: String {
            "\(width)x\(height)+\(padding) \(orientation) \(region) -> \(options.width)x\(options.height) \(options.border)"
        }
    }

    static func randomTrial(_ rng: inout SplitMix64) -> Trial {
        let width = Int.random(in: 1...48, using: &rng), height = Int.random(in: 1...40, using: &rng)
        let orientation = ImageOrientation.allCases.randomElement(using: &rng)!
        let (uw, uh) = orientation.swapsDimensions ? (Double(height), Double(width)) : (Double(width), Double(height))
        // A quarter unturned (the tabulated vector loop), the rest turned (the per-pixel vector loop).
        let turns: [Double] = [0, 0, 0, .pi / 2, -.pi / 2, .pi, 0.3, -1.2]
        let rotation = Bool.random(using: &rng) ? turns.randomElement(using: &rng)! : Double.random(in: -4...4, using: &rng)
        // Centres anywhere from well outside to well inside, on 1/64 steps or anywhere.
        var cx = Double.random(in: -0.6 * uw...1.6 * uw, using: &rng)
        var cy = Double.random(in: -0.6 * uh...1.6 * uh, using: &rng)
        if Bool.random(using: &rng) { cx = (cx * 64).rounded() / 64; cy = (cy * 64).rounded() / 64 }
        let extent = max(uw, uh)
        let region = RotatedRect(center: Point(x: cx, y: cy), width: Double.random(in: 0.3...2 * extent, using: &rng),
                                 height: Double.random(in: 0.3...2 * extent, using: &rng), rotation: rotation)
        let ranges: [ClosedRange<Float>] = [0...1, -1...1, 0...255]
        let options = ImageToTensor.Options(
            width: Int.random(in: 1...33, using: &rng), height: Int.random(in: 1...29, using: &rng),
            range: ranges.randomElement(using: &rng)!, fit: .stretch,
            border: Bool.random(using: &rng) ? .zero : .replicate, sampling: .warp)
        return Trial(width: width, height: height, padding: Int.random(in: 0...5, using: &rng),
                     orientation: orientation, region: region, options: options)
    }

    /// Runs both loops on `trial`; the vector loop's output has 4 sentinel floats after the tensor, which it
    /// must leave alone. Returns (vector, reference, sentinels intact).
    static func run(_ trial: Trial, format: PixelFormat, rng: inout SplitMix64) throws -> ([UInt32], [UInt32], Bool) {
        let bpp = format.bytesPerPixel
        let bytesPerRow = trial.width * bpp + trial.padding
        // Exactly the bytes the view needs, so that a read past the last pixel leaves the array (which the
        // address sanitizer reports).
        let pixels = (0..<(bytesPerRow * (trial.height - 1) + trial.width * bpp)).map { _ in
            UInt8.random(in: 0...255, using: &rng)
        }
        let converter = try ImageToTensor(options: trial.options)
        let frame = WarpFrame(trial.region, width: trial.options.width, height: trial.options.height)
        var vector = [Float](repeating: .nan, count: converter.floatCount + 4)
        var reference = [Float](repeating: .nan, count: converter.floatCount)
        try ImageView.withPixels(pixels, width: trial.width, height: trial.height, bytesPerRow: bytesPerRow,
                                 pixelFormat: format, orientation: trial.orientation) { view in
            vector.withUnsafeMutableBufferPointer { converter.fillWarped($0.baseAddress!, image: view, frame: frame) }
            reference.withUnsafeMutableBufferPointer {
                converter.fillWarpedReference($0.baseAddress!, image: view, frame: frame)
            }
        }
        let intact = vector[converter.floatCount...].allSatisfy(\.isNaN)
        return (vector[..<converter.floatCount].map(\.bitPattern), reference.map(\.bitPattern), intact)
    }

    @Test("random frames equal the per-pixel reference bit for bit", arguments: [PixelFormat.rgb8, .rgba8, .bgra8, .argb8])
    func randomFrames(_ format: PixelFormat) throws {
        var rng = SplitMix64(seed: 0x3A7E_0000 + UInt64(format.bytesPerPixel) * 7 + UInt64(format.channelOffsets.r))
        for _ in 0..<400 {
            let trial = Self.randomTrial(&rng)
            let (vector, reference, intact) = try Self.run(trial, format: format, rng: &rng)
            #expect(vector == reference, "\(trial)")
            #expect(intact, "wrote past the tensor: \(trial)")
            if vector != reference || !intact { return }
        }
    }

    @Test("a face-mesh sized crop, mostly inside the image, equals the reference", arguments: [PixelFormat.rgb8, .bgra8])
    func faceMeshCrop(_ format: PixelFormat) throws {
        var rng = SplitMix64(seed: 192)
        for (rotation, orientation) in [(0.3, ImageOrientation.up), (-2.5, .right), (1.0, .leftMirrored), (0, .down)] {
            let trial = Trial(width: 160, height: 120, padding: 8, orientation: orientation,
                              region: RotatedRect(center: Point(x: 70.3, y: 58.7), width: 90, height: 96, rotation: rotation),
                              options: .init(width: 64, height: 64, range: 0...1, fit: .stretch, border: .replicate))
            let (vector, reference, intact) = try Self.run(trial, format: format, rng: &rng)
            #expect(vector == reference, "\(trial)")
            #expect(intact)
        }
    }
}
