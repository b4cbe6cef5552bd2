// The float vectors the transcendental functions (`exponential`, `logistic`) are written once over: 8 lanes in
// every build, 16 (a zmm register) in the AVX-512 build. Each requirement is the concrete type's own operation,
// so a function generic over `LaneVector` and inlined compiles to the vector instructions of that width. Lane
// for lane the same operations at either width, so the same bits.

protocol LaneVector: SIMD where Scalar == Float {
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, b: Self) -> Self
    static func / (a: Self, b: Self) -> Self
    static prefix func - (a: Self) -> Self
    static func .< (a: Self, b: Self) -> SIMDMask<MaskStorage>
    static func .> (a: Self, b: Self) -> SIMDMask<MaskStorage>
    func replacing(with other: Self, where mask: SIMDMask<MaskStorage>) -> Self
    mutating func addProduct(_ a: Self, _ b: Self)
    /// `self · 2^n` where `t`'s low mantissa bits hold `n` (`t = n + 1.5·2^23`, `|n| ≤ 127`): the exponent
    /// field built from `t`'s bits.
    func scaled(byPowerOfTwoIn t: Self) -> Self
}

extension SIMD8: LaneVector where Scalar == Float {
    @inline(__always)
    func scaled(byPowerOfTwoIn t: Self) -> Self {
        let bits = ((unsafeBitCast(t, to: SIMD8<Int32>.self) &- 0x4B40_0000) &+ 127) &<< 23
        return self * unsafeBitCast(bits, to: Self.self)
    }
}

#if BLAZE_KERNELS_AVX512
extension SIMD16: LaneVector where Scalar == Float {
    @inline(__always)
    func scaled(byPowerOfTwoIn t: Self) -> Self {
        let bits = ((unsafeBitCast(t, to: SIMD16<Int32>.self) &- 0x4B40_0000) &+ 127) &<< 23
        return self * unsafeBitCast(bits, to: Self.self)
    }
}
#endif

/// `acc += a · b`: one fused multiply-add per lane where the target has it (the AVX2/FMA and AVX-512 builds and
/// arm64), a multiply and an add otherwise (the x86-64 baseline has no FMA instruction, and `addProduct` there
/// would become a call to `fmaf` per lane).
@inline(__always)
func multiplyAdd<V: LaneVector>(_ acc: inout V, _ a: V, _ b: V) {
    #if BLAZE_KERNELS_FMA || arch(arm64)
    acc.addProduct(a, b)
    #else
    acc = acc + a * b
    #endif
}
