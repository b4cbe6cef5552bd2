// Small helpers shared by the SIMD kernels. All work on raw pointers with no alignment assumption beyond
// Float's, and never touch memory outside the `count` elements they are given.

typealias Vec8 = SIMD8<Float>

/// Loads 8 consecutive floats (no alignment requirement).
@inline(__always)
func load8(_ p: UnsafePointer<Float>) -> Vec8 {
    UnsafeRawPointer(p).loadUnaligned(as: Vec8.self)
}

/// Stores 8 consecutive floats (no alignment requirement).
@inline(__always)
func store8(_ v: Vec8, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: Vec8.self)
}

/// Loads the first `count` (0...8) floats; the other lanes are zero. Reads only `count` elements.
@inline(__always)
func loadPartial(_ p: UnsafePointer<Float>, _ count: Int) -> Vec8 {
    var v = Vec8()
    for i in 0..<count { v[i] = p[i] }
    return v
}

/// Stores the first `count` (0...8) lanes. Writes only `count` elements.
@inline(__always)
func storePartial(_ v: Vec8, _ p: UnsafeMutablePointer<Float>, _ count: Int) {
    for i in 0..<count { p[i] = v[i] }
}

/// `min(max(v, lower), upper)` lane-wise with TFLite's NaN behaviour (NaN passes through). Written with
/// `replacing(with:where:)`, which compiles to `vmaxps`/`vminps`, unlike `pointwiseMin`/`clamped`.
@inline(__always)
func clamp(_ v: Vec8, _ lower: Vec8, _ upper: Vec8) -> Vec8 {
    let low = v.replacing(with: lower, where: v .< lower)
    return low.replacing(with: upper, where: low .> upper)
}

/// Scalar `min(max(x, lower), upper)` with TFLite's NaN behaviour (`ActivationFunctionWithMinMax`).
@inline(__always)
func clamp(_ x: Float, _ lower: Float, _ upper: Float) -> Float {
    let low = x < lower ? lower : x
    return upper < low ? upper : low
}
