import Foundation

/// Crops a region of an image into a float tensor: orientation, rotation, letterbox or stretch, bilinear
/// sampling, border and value range in one pass, with no intermediate image and no allocation per call.
///
/// This is MediaPipe's CPU `ImageToTensorCalculator`: OpenCV's `warpPerspective` of the region's corners
/// onto the tensor's (tensor pixel `(i, j)` reads the image at the region's normalized point
/// `(i / width, j / height)`, corner-aligned), in OpenCV's fixed point (positions rounded to 1/32 pixel, the
/// four taps weighted in integers, the result rounded to 8 bits), then `value · (hi − lo) / 255 + lo`.
///
/// ```swift
/// let converter = try ImageToTensor(options: .init(width: 192, height: 192, range: 0...1, border: .replicate))
/// let footprint = try converter.convert(image, region: faceRegion, into: input)   // input: 192·192·3 floats
/// let p = footprint.point(u: x / 192, v: y / 192)                                 // back to image pixels
/// ```
///
/// Not thread-safe: a converter keeps sampling tables that each call rewrites. Use one per thread (a model
/// session owns one behind its lock).
public final class ImageToTensor {
    /// How sampling positions are rounded and computed.
    public enum Sampling: String, Hashable, Sendable, CaseIterable {
        /// MediaPipe's detector input as this library has always matched it to the pixel: positions from
        /// the region's centre and size in `Double`, rounded half up to 1/32 pixel. Unturned regions only.
        case detector
        /// OpenCV's `warpPerspective` as MediaPipe calls it for any rotated region: corners from
        /// `cv::RotatedRect::points` in `Float`, positions rounded half to even to 1/32 pixel.
        case warp
    }

    /// What taps outside the image read.
    public enum Border: String, Hashable, Sendable, CaseIterable {
        /// Black (0 before the range conversion): MediaPipe's detectors (`BORDER_ZERO`).
        case zero
        /// The nearest edge pixel: MediaPipe's default (`BORDER_REPLICATE`), used by the face mesh.
        case replicate
    }

    /// How a region whose aspect ratio differs from the tensor's is fitted.
    public enum Fit: String, Hashable, Sendable, CaseIterable {
        /// Grow the region (about its centre, in its own frame) to the tensor's aspect ratio, so the image
        /// keeps its proportions and the rest is border (`keep_aspect_ratio: true`).
        case letterbox
        /// Stretch the region over the whole tensor.
        case stretch
    }

    /// The tensor's size and value range, and how a region is fitted, bordered and sampled.
    public struct Options: Hashable, Sendable {
        /// Tensor width in pixels (1...`maximumSide`).
        public var width: Int
        /// Tensor height in pixels (1...`maximumSide`).
        public var height: Int
        /// The values pixel values 0 and 255 become.
        public var range: ClosedRange<Float>
        /// How a region whose aspect ratio differs from the tensor's is fitted (default `.letterbox`).
        public var fit: Fit
        /// What taps outside the image read (default `.zero`).
        public var border: Border
        /// How sampling positions are computed and rounded (default `.warp`).
        public var sampling: Sampling

        /// Creates options.
        /// - Parameters:
        ///   - width: tensor width, in pixels.
        ///   - height: tensor height, in pixels.
        ///   - range: the values that pixel values 0 and 255 become, such as `-1...1` or `0...1`.
        ///   - fit: how a region of another aspect ratio is fitted.
        ///   - border: what taps outside the image read.
        ///   - sampling: how sampling positions are computed.
        public init(width: Int, height: Int, range: ClosedRange<Float>, fit: Fit = .letterbox,
                    border: Border = .zero, sampling: Sampling = .warp) {
            self.width = width
            self.height = height
            self.range = range
            self.fit = fit
            self.border = border
            self.sampling = sampling
        }
    }

    /// The largest tensor side accepted.
    public static let maximumSide = 16_384
    /// The largest region coordinate or size accepted, in pixels (keeps every position exact in `Int`).
    public static let maximumCoordinate = 1.0e8
    /// The largest rotation magnitude accepted, in radians. The `.warp` frame turns the region in `Float`
    /// degrees, as MediaPipe does; beyond about 1.9e36 rad that angle is infinite and every position NaN.
    public static let maximumRotation = 1.0e8

    /// The options the converter was created with.
    public let options: Options
    /// Floats written per call: `width · height · 3` (RGB, row-major, channels last).
    public var floatCount: Int { options.width * options.height * 3 }

    /// Per tensor column (and row): byte offsets of the two taps and their weights in 1/32 pixel (`fillSeparable`);
    /// `warpSeparable` keeps each column's position, tap offset and weight index in `columns`.
    let columns: UnsafeMutablePointer<Int>
    let rows: UnsafeMutablePointer<Int>
    /// Positions and weight vectors of the turned `.warp` loop.
    let warpScratch: WarpScratch
    /// The RGB of the stored pixels a `.warp` crop of a YUV view reads (`fillYUVWarped`): allocated at the first
    /// such crop, `yuvScratchBytes` long (RGB words of up to four times as many pixels as the tensor has taps, at most
    /// 16 MiB: a model's crop fits with room to spare), then reused.
    var yuvScratch: UnsafeMutablePointer<UInt8>?
    var yuvScratchBytes: Int { min(64 * options.width * options.height, 1 << 24) + 64 }

    /// - Parameter options: the tensor's size and value range, the fit, border and sampling.
    /// - Throws: `ImagingError.invalidOptions` for a side outside 1...`maximumSide` or a range that is not
    ///   finite and increasing, whose width (`upperBound - lowerBound`) overflows `Float`, or whose step per
    ///   pixel level (the width / 255) is subnormal (a width under about 3·10^-36, where `Float` cannot hold the
    ///   levels and the values would fall outside the range).
    public init(options: Options) throws(ImagingError) {
        guard (1...Self.maximumSide).contains(options.width), (1...Self.maximumSide).contains(options.height) else {
            throw .invalidOptions("the tensor is \(options.width)x\(options.height); each side must be 1...\(Self.maximumSide)")
        }
        // The width too: -3e38...3e38 is finite, but its width overflows Float, and 0 would become NaN.
        guard options.range.lowerBound.isFinite, options.range.upperBound.isFinite,
              options.range.lowerBound < options.range.upperBound,
              (options.range.upperBound - options.range.lowerBound).isFinite else {
            throw .invalidOptions("the value range \(options.range) must be finite and increasing, with a finite width")
        }
        // A subnormal step per level rounds by up to half of itself: 0...6e-43 gave 255 as 6.9e-43.
        guard ((options.range.upperBound - options.range.lowerBound) / 255).isNormal else {
            throw .invalidOptions("the value range \(options.range) is too narrow: its step per pixel level is below Float's normal range")
        }
        self.options = options
        columns = .allocate(capacity: 4 * options.width)
        rows = .allocate(capacity: 4 * options.height)
        warpScratch = WarpScratch(width: options.width)
    }

    deinit {
        columns.deallocate()
        rows.deallocate()
        warpScratch.deallocate()
        yuvScratch?.deallocate()
    }

    /// The region a `letterbox` fit actually samples: `region` grown to the tensor's aspect ratio (MediaPipe's
    /// `PadRoi`); `region` itself for `stretch`.
    /// - Parameter region: in upright image pixels.
    /// - Returns: the region the tensor covers, in upright image pixels.
    public func footprint(of region: RotatedRect) -> RotatedRect {
        guard options.fit == .letterbox else { return region }
        let tensorAspect = Double(options.height) / Double(options.width)
        var grown = region
        if tensorAspect > region.height / region.width {
            grown.height = region.width * tensorAspect
        } else {
            grown.width = region.height / tensorAspect
        }
        return grown
    }

    /// Writes `height x width x 3` floats (RGB) for `region` of the upright `image` into `output`.
    ///
    /// A YUV view is sampled from its planes, each tap converted to RGB with the view's `colorSpace`
    /// (`ImageToTensor+YUV.swift`): the tensor equals, bit for bit, the one made of `uprightRGB()` of it.
    ///
    /// - Parameters:
    ///   - image: the pixels to sample, packed or YUV, in any orientation.
    ///   - region: in upright image pixels (after `image.orientation`); nil for the whole upright image.
    ///   - output: at least `floatCount` floats, written row by row in tensor pixels (`height x width x 3`,
    ///     NHWC without the batch); only the first `floatCount` are written.
    /// - Returns: the region the tensor covers (after a letterbox fit): tensor point `(x, y)` in tensor pixels
    ///   is image point `footprint.point(u: x / width, v: y / height)`.
    /// - Throws: `ImagingError.outputTooSmall`, `.invalidRegion` (not finite, a side not positive, beyond
    ///   `maximumCoordinate`, turned by more than `maximumRotation`; a turned region with `.detector` sampling).
    @discardableResult
    public func convert(_ image: ImageView, region: RotatedRect? = nil,
                        into output: UnsafeMutableBufferPointer<Float>) throws(ImagingError) -> RotatedRect {
        guard let base = output.baseAddress, output.count >= floatCount else {
            throw .outputTooSmall(floats: output.count, needed: floatCount)
        }
        let whole = RotatedRect(center: Point(x: Double(image.uprightWidth) / 2, y: Double(image.uprightHeight) / 2),
                                width: Double(image.uprightWidth), height: Double(image.uprightHeight))
        let requested = region ?? whole
        try Self.validate(requested)
        let footprint = footprint(of: requested)
        try Self.validate(footprint)
        switch options.sampling {
        case .detector:
            guard footprint.rotation == 0 else {
                throw .invalidRegion("detector sampling takes unturned regions; the region is turned by \(footprint.rotation) rad (use .warp)")
            }
            let origin = (footprint.center.x - footprint.width / 2, footprint.center.y - footprint.height / 2)
            let step = (footprint.width / Double(options.width), footprint.height / Double(options.height))
            if let chroma = image.chroma {
                fillYUVSeparable(base, image: image, chroma: chroma, origin: origin, step: step, roundHalfEven: false)
            } else {
                fillSeparable(base, image: image, origin: origin, step: step, roundHalfEven: false)
            }
        case .warp:
            fillWarped(base, image: image, frame: WarpFrame(footprint, width: options.width, height: options.height))
        }
        return footprint
    }

    static func validate(_ region: RotatedRect) throws(ImagingError) {
        guard region.isValid else {
            throw .invalidRegion("\(region) must be finite with positive sides")
        }
        let limit = maximumCoordinate
        guard abs(region.center.x) <= limit, abs(region.center.y) <= limit, region.width <= limit, region.height <= limit else {
            throw .invalidRegion("\(region) lies beyond \(limit) pixels")
        }
        guard abs(region.rotation) <= maximumRotation else {
            throw .invalidRegion("\(region) is turned by more than \(maximumRotation) rad")
        }
    }
}

/// The sampling frame of the `.warp` mode: tensor pixel `(i, j)` reads image point
/// `origin + i · xStep + j · yStep`, derived as OpenCV does from the float corners of `cv::RotatedRect`
/// (`RotatedRect::points`: top-left maps to tensor (0, 0), top-right to (width, 0), bottom-left to (0, height)).
struct WarpFrame {
    var origin: (Double, Double)
    var xStep: (x: Double, y: Double)
    var yStep: (x: Double, y: Double)

    init(_ region: RotatedRect, width: Int, height: Int) {
        // MediaPipe: `roi.rotation * 180.f / M_PI` into cv::RotatedRect's float angle; OpenCV: `angle * CV_PI / 180.`.
        let degrees = Float(Double(Float(region.rotation) * 180) / Double.pi)
        let angle = Double(degrees) * Double.pi / 180
        let b = Float(cos(angle)) * 0.5, a = Float(sin(angle)) * 0.5
        let cx = Float(region.center.x), cy = Float(region.center.y)
        let w = Float(region.width), h = Float(region.height)
        // OpenCV's corner order: 0 bottom-left, 1 top-left, 2 top-right (before the turn).
        let p0 = (x: cx - a * h - b * w, y: cy + b * h - a * w)
        let p1 = (x: cx + a * h - b * w, y: cy - b * h - a * w)
        let p2 = (x: 2 * cx - p0.x, y: 2 * cy - p0.y)
        origin = (Double(p1.x), Double(p1.y))
        xStep = ((Double(p2.x) - Double(p1.x)) / Double(width), (Double(p2.y) - Double(p1.y)) / Double(width))
        yStep = ((Double(p0.x) - Double(p1.x)) / Double(height), (Double(p0.y) - Double(p1.y)) / Double(height))
    }

    var isAxisAligned: Bool { xStep.y == 0 && yStep.x == 0 }
}
