import BlazeImaging
import Testing

/// Inputs found by `Tests/Fuzz` (fuzz-imagetotensor) that once crashed, kept as regression tests
/// (Documentation/Reliability.md lists them).
struct ImageToTensorFuzzRegressionTests {
    /// A 81x38 gray view (orientation `.right`) and a region turned by 3e232 rad: `Float(rotation)` is infinite,
    /// so the `.warp` frame was NaN and `roundHalfEven` trapped converting it to `Int`. Now a typed error.
    @Test("a region turned by more than maximumRotation is an invalidRegion error, not a trap",
          arguments: [PixelFormat.gray8, .rgb8, .rgba8], [3.001494955843923e+232, -1.0e37, 1.0e8.nextUp])
    func hugeRotation(format: PixelFormat, rotation: Double) throws {
        let converter = try ImageToTensor(options: .init(width: 68, height: 85, range: -6.9375...6.8125,
                                                         border: .zero, sampling: .warp))
        let (width, height) = (81, 38)
        let pixels = [UInt8](repeating: 0x55, count: width * height * format.bytesPerPixel)
        var output = [Float](repeating: 0, count: converter.floatCount)
        let region = RotatedRect(center: Point(x: 3109.714285714286, y: 3525.5), width: 5587.6, height: 10035.0,
                                 rotation: rotation)
        #expect {
            try ImageView.withPixels(pixels, width: width, height: height, pixelFormat: format, orientation: .right) {
                view in try output.withUnsafeMutableBufferPointer { _ = try converter.convert(view, region: region, into: $0) }
            }
        } throws: { error in
            guard case ImagingError.invalidRegion(let message)? = error as? ImagingError else { return false }
            return message.contains("turned by more than")
        }
    }

    /// The largest accepted rotation still samples: every value is the zero border or the image's gray.
    @Test("a region turned by exactly maximumRotation converts")
    func largestRotation() throws {
        let converter = try ImageToTensor(options: .init(width: 8, height: 8, range: 0...255, border: .zero, sampling: .warp))
        let pixels = [UInt8](repeating: 200, count: 16 * 16)
        var output = [Float](repeating: -1, count: converter.floatCount)
        let region = RotatedRect(center: Point(x: 8, y: 8), width: 4, height: 4, rotation: ImageToTensor.maximumRotation)
        try ImageView.withPixels(pixels, width: 16, height: 16, pixelFormat: .gray8) { view in
            try output.withUnsafeMutableBufferPointer { _ = try converter.convert(view, region: region, into: $0) }
        }
        // A 4x4 region in the middle of a uniform 16x16 image reads only inside pixels.
        #expect(output.allSatisfy { $0 == 200 })
    }

    /// A range of -3.1e38...Float.greatestFiniteMagnitude: both bounds finite and increasing, but the width
    /// overflows to infinity, so black (0 · ∞) became NaN and the rest infinite. Now refused at creation.
    static let overflowingRanges: [ClosedRange<Float>] = [-3.1025535e38...Float.greatestFiniteMagnitude,
                                                            -Float.greatestFiniteMagnitude...1e38]

    @Test("a value range whose width overflows Float is an invalidOptions error", arguments: overflowingRanges)
    func rangeWidthOverflow(range: ClosedRange<Float>) {
        let (low, high) = (range.lowerBound, range.upperBound)
        #expect {
            try ImageToTensor(options: .init(width: 101, height: 1, range: low...high))
        } throws: { error in
            guard case ImagingError.invalidOptions(let message)? = error as? ImagingError else { return false }
            return message.contains("finite width")
        }
    }

    /// A range of 0...5.96e-43 (fuzz-imagetotensor, after 675,644 executions): finite, increasing, with a finite
    /// width, but its step per level (width / 255) is subnormal, so rounding made white 6.9e-43, past the upper
    /// bound. Now refused at creation, like the fuzzer's converter (254x254, stretch, zero border, warp).
    /// (Subnormal bounds are written as Double literals converted at run time: a Float literal that underflows
    /// is a compiler warning.)
    static let subnormalStepRanges: [ClosedRange<Float>] = [0...Float(5.96e-43 as Double),
                                                            Float(-1e-40 as Double)...Float(1e-40 as Double), 1...1,
                                                            Float.leastNonzeroMagnitude...(2 * Float.leastNonzeroMagnitude)]

    @Test("a value range whose step per pixel level is subnormal is an invalidOptions error", arguments: subnormalStepRanges)
    func subnormalStep(range: ClosedRange<Float>) {
        #expect {
            try ImageToTensor(options: .init(width: 254, height: 254, range: range, fit: .stretch, border: .zero,
                                             sampling: .warp))
        } throws: { error in
            guard case ImagingError.invalidOptions(let message)? = error as? ImagingError else { return false }
            return message.contains("too narrow") || message.contains("increasing")
        }
    }

    /// The narrowest accepted range (a step of Float's least normal magnitude) maps every level inside it, the
    /// fuzzer's 300x1 gray view turned left included.
    @Test("the narrowest accepted range keeps every value inside it")
    func narrowestRange() throws {
        let high = 255 * Float.leastNormalMagnitude
        let converter = try ImageToTensor(options: .init(width: 254, height: 254, range: 0...high, fit: .stretch,
                                                         border: .zero, sampling: .warp))
        let pixels = (0..<300).map { UInt8($0 % 256) }
        var output = [Float](repeating: .nan, count: converter.floatCount)
        try ImageView.withPixels(pixels, width: 300, height: 1, pixelFormat: .gray8, orientation: .left) { view in
            try output.withUnsafeMutableBufferPointer { _ = try converter.convert(view, into: $0) }
        }
        #expect(output.allSatisfy { $0 >= 0 && $0 <= high }, "\(output.filter { !($0 >= 0 && $0 <= high) }.prefix(4))")
        #expect(output.contains(0) && (output.max() ?? 0) > high / 2, "the levels spread over the range")
    }

    /// The widest accepted range still maps 0 and 255 onto its bounds.
    @Test("a range as wide as Float allows maps black and white onto its bounds")
    func widestRange() throws {
        let high = Float.greatestFiniteMagnitude / 2, low = -high
        let converter = try ImageToTensor(options: .init(width: 2, height: 1, range: low...high, fit: .stretch))
        let pixels: [UInt8] = [0, 255]
        var output = [Float](repeating: .nan, count: converter.floatCount)
        try ImageView.withPixels(pixels, width: 2, height: 1, pixelFormat: .gray8) { view in
            try output.withUnsafeMutableBufferPointer { _ = try converter.convert(view, into: $0) }
        }
        #expect(output.allSatisfy { $0.isFinite && $0 >= low && $0 <= high }, "\(output)")
        #expect(output[0] == low)
    }
}
