/// How the Y, Cb and Cr samples of a YUV view become RGB: the matrix (the standard's luma weights) and the
/// range of the samples.
///
/// The default is BT.601 limited range, what FFmpeg's libswscale assumes for a stream that says nothing and what
/// SD video uses. HD video and most phone cameras use BT.709: take the matrix from the source (an AVFrame's
/// `colorspace`, a CVPixelBuffer's `kCVImageBufferYCbCrMatrixKey`) and the range from the format (Apple's
/// "420v" is `.limited`, "420f" `.full`; JPEG and Android camera frames are full range).
///
/// The conversion is fixed point (16 fractional bits, rounded, clamped to 0...255), as decoders convert:
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

    public var matrix: Matrix
    public var range: Range

    public init(matrix: Matrix, range: Range) {
        self.matrix = matrix
        self.range = range
    }

    public static let bt601Limited = YUVColorSpace(matrix: .bt601, range: .limited)
    public static let bt601Full = YUVColorSpace(matrix: .bt601, range: .full)
    public static let bt709Limited = YUVColorSpace(matrix: .bt709, range: .limited)
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

    /// The coefficients in 1/65536, as the conversion uses them.
    public var fixedPoint: FixedPoint { FixedPoint(self) }

    /// The integer conversion of one sample triple (what `ImageBuffer.uprightRGB` and `ImageToTensor` compute).
    @inlinable
    public func rgb(y: UInt8, cb: UInt8, cr: UInt8) -> (r: UInt8, g: UInt8, b: UInt8) {
        let c = fixedPoint
        let v = c.convert(SIMD4(Int32(y), 0, 0, 0), SIMD4(Int32(cb), 0, 0, 0), SIMD4(Int32(cr), 0, 0, 0))
        return (UInt8(truncatingIfNeeded: v.r[0]), UInt8(truncatingIfNeeded: v.g[0]), UInt8(truncatingIfNeeded: v.b[0]))
    }

    /// The conversion in 16.16 fixed point, four samples at a time.
    public struct FixedPoint: Hashable, Sendable {
        public let luma: Int32, lumaOffset: Int32
        public let crToR: Int32, cbToG: Int32, crToG: Int32, cbToB: Int32

        init(_ space: YUVColorSpace) {
            let c = space.coefficients
            func fixed(_ value: Double) -> Int32 { Int32((value * 65536).rounded()) }
            luma = fixed(c.luma)
            lumaOffset = Int32(c.lumaOffset)
            crToR = fixed(c.crToR)
            cbToG = fixed(c.cbToG)
            crToG = fixed(c.crToG)
            cbToB = fixed(c.cbToB)
        }

        /// R, G, B (each 0...255) of four Y, Cb, Cr samples (each 0...255).
        @inlinable @inline(__always)
        public func convert(_ y: SIMD4<Int32>, _ cb: SIMD4<Int32>, _ cr: SIMD4<Int32>)
            -> (r: SIMD4<Int32>, g: SIMD4<Int32>, b: SIMD4<Int32>) {
            let ys = (y &- lumaOffset) &* luma &+ 32768
            let u = cb &- 128, v = cr &- 128
            @inline(__always) func clamp(_ x: SIMD4<Int32>) -> SIMD4<Int32> {
                let s = x &>> 16
                return s.replacing(with: 0, where: s .< 0).replacing(with: 255, where: s .> 255)
            }
            return (clamp(ys &+ v &* crToR), clamp(ys &- u &* cbToG &- v &* crToG), clamp(ys &+ u &* cbToB))
        }
    }
}
