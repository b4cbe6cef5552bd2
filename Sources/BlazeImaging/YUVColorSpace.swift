/// How the Y, Cb and Cr samples of a YUV view become RGB: the matrix (the standard's luma weights) and the
/// range of the samples.
///
/// The default is BT.601 limited range, what FFmpeg's libswscale assumes for a stream that says nothing and what
/// SD video uses. HD video and most phone cameras use BT.709: take the matrix from the source (an AVFrame's
/// `colorspace`, a CVPixelBuffer's `kCVImageBufferYCbCrMatrixKey`) and the range from the format (Apple's
/// "420v" is `.limited`, "420f" `.full`; JPEG and Android camera frames are full range).
///
/// The conversion (`YUVConversion`, in `Float`, clamped to 0...255 and rounded to 8 bits, as decoders convert):
/// `R = Ys + cr·(Cr − 128)`, `G = Ys − gb·(Cb − 128) − gr·(Cr − 128)`, `B = Ys + cb·(Cb − 128)` with
/// `Ys = (Y − 16)·255/219` (limited) or `Y` (full), and the chroma coefficients from the matrix's `Kr`, `Kb`
/// scaled by 255/224 (limited) or 1 (full). It is within one 8-bit step of the exact real-number conversion.
public struct YUVColorSpace: Hashable, Sendable {
    /// The luma weights.
    public enum Matrix: String, Hashable, Sendable, CaseIterable {
        /// ITU-R BT.601 (`Kr` 0.299, `Kb` 0.114): SD video, JPEG, Android cameras.
        case bt601
        /// ITU-R BT.709 (`Kr` 0.2126, `Kb` 0.0722): HD video, Apple cameras.
        case bt709
    }

    /// The sample range.
    public enum Range: String, Hashable, Sendable, CaseIterable {
        /// Video range: luma 16...235, chroma 16...240 ("420v", FFmpeg's `tv`/`mpeg`).
        case limited
        /// Full range: 0...255 ("420f", FFmpeg's `pc`/`jpeg`).
        case full
    }

    /// The conversion coefficients (BT.601 or BT.709).
    public var matrix: Matrix
    /// Whether samples use the limited (video) or the full range.
    public var range: Range

    /// A colour space of the given matrix and range.
    /// - Parameters:
    ///   - matrix: the conversion coefficients.
    ///   - range: the sample range.
    public init(matrix: Matrix, range: Range) {
        self.matrix = matrix
        self.range = range
    }

    /// BT.601, limited range: standard-definition video, and most cameras' "420v".
    public static let bt601Limited = YUVColorSpace(matrix: .bt601, range: .limited)
    /// BT.601, full range: JPEG's YCbCr, and cameras' "420f".
    public static let bt601Full = YUVColorSpace(matrix: .bt601, range: .full)
    /// BT.709, limited range: high-definition video.
    public static let bt709Limited = YUVColorSpace(matrix: .bt709, range: .limited)
    /// BT.709, full range.
    public static let bt709Full = YUVColorSpace(matrix: .bt709, range: .full)
    /// BT.601 limited range (FFmpeg's default for an unspecified stream).
    public static let `default` = bt601Limited

    /// The real-number coefficients: `Ys = luma · (Y − lumaOffset)`, and the chroma terms of R, G, B.
    public var coefficients: (luma: Double, lumaOffset: Double, crToR: Double, cbToG: Double, crToG: Double,
                              cbToB: Double) {
        let (kr, kb) = matrix == .bt601 ? (0.299, 0.114) : (0.2126, 0.0722)
        let kg = 1 - kr - kb
        let (luma, lumaOffset, chroma) = range == .limited ? (255.0 / 219, 16.0, 255.0 / 224) : (1.0, 0.0, 1.0)
        return (luma, lumaOffset, chroma * 2 * (1 - kr), chroma * 2 * kb * (1 - kb) / kg,
                chroma * 2 * kr * (1 - kr) / kg, chroma * 2 * (1 - kb))
    }

    /// The conversion of one sample triple, as `ImageBuffer.uprightRGB` and `ImageToTensor` compute it.
    /// - Parameters:
    ///   - y: the luma sample.
    ///   - cb: the blue-difference chroma sample.
    ///   - cr: the red-difference chroma sample.
    /// - Returns: the 8-bit RGB values, clamped to 0...255 and rounded half to even.
    public func rgb(y: UInt8, cb: UInt8, cr: UInt8) -> (r: UInt8, g: UInt8, b: UInt8) {
        let v = YUVConversion(self).convert(SIMD8(repeating: Float(y)), SIMD8(repeating: Float(cb)),
                                            SIMD8(repeating: Float(cr)))
        return (UInt8(truncatingIfNeeded: v.r[0]), UInt8(truncatingIfNeeded: v.g[0]), UInt8(truncatingIfNeeded: v.b[0]))
    }
}

/// The conversion of `YUVColorSpace`, eight samples at a time in `Float`: each channel clamped to 0...255 and
/// rounded to an integer (half to even), from coefficients rounded to `Float`. Exact integers in, so the result
/// is within 2e-5 of the real-number value before rounding: it differs from the exactly rounded value only when
/// that lies within 2e-5 of a half.
struct YUVConversion {
    let luma: Float, lumaOffset: Float
    let crToR: Float, cbToG: Float, crToG: Float, cbToB: Float

    init(_ space: YUVColorSpace) {
        let c = space.coefficients
        (luma, lumaOffset) = (Float(c.luma), Float(c.lumaOffset))
        (crToR, cbToG, crToG, cbToB) = (Float(c.crToR), Float(c.cbToG), Float(c.crToG), Float(c.cbToB))
    }

    /// R, G, B (integers 0...255) of eight Y, Cb, Cr samples (integers 0...255), one per lane.
    @inline(__always)
    func convert(_ y: SIMD8<Float>, _ cb: SIMD8<Float>, _ cr: SIMD8<Float>)
        -> (r: SIMD8<Int32>, g: SIMD8<Int32>, b: SIMD8<Int32>) {
        let ys = (y - lumaOffset) * luma
        let u = cb - 128, v = cr - 128
        // Rounded half to even, then clamped with shifts and masks (lane comparisons compile to scalar loops).
        @inline(__always) func byte(_ x: SIMD8<Float>) -> SIMD8<Int32> {
            let s = FloatLanes.integers(x)
            let positive = s & ~(s &>> 31)
            return (positive | ((255 &- positive) &>> 31)) & 255
        }
        return (byte(ys + v * crToR), byte(ys - u * cbToG - v * crToG), byte(ys + u * cbToB))
    }
}

/// Conversions between integer lanes and `Float` lanes through the bits of `x + 1.5 · 2^23`, exact for
/// |x| < 2^22 (the standard library's lane conversions are generic, element by element).
enum FloatLanes {
    static let magic: Float = 12_582_912
    static let magicBits: Int32 = 0x4B40_0000

    /// The integers of integer-valued lanes; other values rounded half to even.
    @inline(__always)
    static func integers(_ x: SIMD8<Float>) -> SIMD8<Int32> {
        unsafeBitCast(x + magic, to: SIMD8<Int32>.self) &- magicBits
    }

    @inline(__always)
    static func floats(_ x: SIMD8<Int32>) -> SIMD8<Float> {
        unsafeBitCast(x &+ magicBits, to: SIMD8<Float>.self) - magic
    }

    @inline(__always)
    static func floats(_ x: SIMD4<Int32>) -> SIMD4<Float> {
        unsafeBitCast(x &+ magicBits, to: SIMD4<Float>.self) - magic
    }

    /// `(s + 512) >> 10` of non-negative integer lanes below 2^24 (the bilinear blend's rounding), as `Float`:
    /// `(s + 512) / 1024` has ten fractional bits, so subtracting 0.5 − 1/2048 leaves no tie to round.
    @inline(__always)
    static func blendRounded<V: SIMD>(_ s: V) -> V where V.Scalar == Float {
        ((s + 512) * (1.0 / 1024) - 0.49951171875 + magic) - magic
    }
}
