// Vector helpers for the microkernels. This folder is compiled three times: into BlazeKernels (baseline: SSE2 on
// x86-64, NEON on arm64) and, through the symbolic links Sources/BlazeKernelsFMA/Microkernels and
// Sources/BlazeKernelsAVX512/Microkernels, into BlazeKernelsFMA with AVX2, FMA and F16C enabled (where
// `BLAZE_KERNELS_FMA` is defined) and into BlazeKernelsAVX512 with AVX-512 too (`BLAZE_KERNELS_AVX512` as well). Everything here
// works on raw pointers, never touches memory outside the elements it is given, and allocates nothing.

typealias Vec8 = SIMD8<Float>
typealias Vec4 = SIMD4<Float>
typealias Vec2 = SIMD2<Float>

/// Loads a vector of consecutive floats, `V.scalarCount` of them (no alignment requirement).
@inline(__always)
func load<V: SIMD>(_ p: UnsafePointer<Float>) -> V where V.Scalar == Float {
    UnsafeRawPointer(p).loadUnaligned(as: V.self)
}

/// Stores a vector's lanes as consecutive floats (no alignment requirement).
@inline(__always)
func store<V: SIMD>(_ v: V, _ p: UnsafeMutablePointer<Float>) where V.Scalar == Float {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: V.self)
}

/// Loads 8 consecutive floats, the microkernels' vector.
@inline(__always)
func load8(_ p: UnsafePointer<Float>) -> Vec8 { load(p) }

/// Stores 8 consecutive floats.
@inline(__always)
func store8(_ v: Vec8, _ p: UnsafeMutablePointer<Float>) { store(v, p) }

/// Loads the first `count` (0...4) floats; the other lanes are zero. Reads only `count` elements.
@inline(__always)
func loadPartial4(_ p: UnsafePointer<Float>, _ count: Int) -> Vec4 {
    switch count {
    case 4: return load(p)
    case 3: return Vec4(lowHalf: load(p), highHalf: Vec2(p[2], 0))
    case 2: return Vec4(lowHalf: load(p), highHalf: Vec2())
    case 1: return Vec4(p[0], 0, 0, 0)
    default: return Vec4()
    }
}

/// Loads the first `count` (0...8) floats; the other lanes are zero. Reads only `count` elements.
@inline(__always)
func loadPartial(_ p: UnsafePointer<Float>, _ count: Int) -> Vec8 {
    if count >= 8 { return load8(p) }
    if count >= 4 { return Vec8(lowHalf: load(p), highHalf: loadPartial4(p + 4, count - 4)) }
    return Vec8(lowHalf: loadPartial4(p, count), highHalf: Vec4())
}

/// Stores the first `count` (0...4) lanes. Writes only `count` elements.
@inline(__always)
func storePartial4(_ v: Vec4, _ p: UnsafeMutablePointer<Float>, _ count: Int) {
    switch count {
    case 4: store(v, p)
    case 3: store(v.lowHalf, p); p[2] = v[2]
    case 2: store(v.lowHalf, p)
    case 1: p[0] = v[0]
    default: break
    }
}

/// Stores the first `count` (0...8) lanes. Writes only `count` elements.
@inline(__always)
func storePartial(_ v: Vec8, _ p: UnsafeMutablePointer<Float>, _ count: Int) {
    if count >= 8 {
        store8(v, p)
    } else if count >= 4 {
        store(v.lowHalf, p)
        storePartial4(v.highHalf, p + 4, count - 4)
    } else {
        storePartial4(v.lowHalf, p, count)
    }
}

/// `min(max(v, lower), upper)` lane-wise with TFLite's NaN behaviour (NaN passes through). Written as a
/// lane loop of selects, which compiles to one `maxps` and one `minps` (ymm with AVX) in every context
/// measured; `replacing(with:where:)` became compare + blend inside loops (and compare/and/andnot on SSE2),
/// and `pointwiseMin`/`clamped` become scalar loops.
@inline(__always)
func clamp(_ v: Vec8, _ lower: Vec8, _ upper: Vec8) -> Vec8 {
    var r = v
    for i in 0..<8 {
        let low = v[i] < lower[i] ? lower[i] : v[i]
        r[i] = upper[i] < low ? upper[i] : low
    }
    return r
}

/// Lane-wise `a < b ? b : a` (TFLite's running maximum: a NaN `b` is ignored): one `maxps`.
@inline(__always)
func maximum(_ a: Vec8, _ b: Vec8) -> Vec8 {
    var r = a
    for i in 0..<8 { r[i] = a[i] < b[i] ? b[i] : a[i] }
    return r
}

/// Scalar `min(max(x, lower), upper)` with TFLite's NaN behaviour (`ActivationFunctionWithMinMax`).
@inline(__always)
func clamp(_ x: Float, _ lower: Float, _ upper: Float) -> Float {
    let low = x < lower ? lower : x
    return upper < low ? upper : low
}

/// The namespace of the dispatched kernels. Each build of this folder has its own `Microkernels`:
/// `BlazeKernels.Microkernels` (baseline) and `BlazeKernelsFMA.Microkernels` (AVX2/FMA). Entry points take
/// standard-library types or `BlazeKernelParameters`' argument structs, which both modules share, so that
/// the same call works with either module (through `MicrokernelTable`).
package enum Microkernels {
    /// Whether this build was compiled for AVX2/FMA (`BLAZE_KERNELS_FMA`, set by Package.swift together with
    /// the target-feature flags, on the platforms that get them). A BlazeKernelsFMA built without them is
    /// never selected.
    package static var isAVX2FMABuild: Bool {
        #if BLAZE_KERNELS_FMA
        return true
        #else
        return false
        #endif
    }

    /// Whether this build was compiled for AVX-512 (F, BW, DQ, VL) as well (`BLAZE_KERNELS_AVX512`): the
    /// BlazeKernelsAVX512 module, whose GEMM tiles are 16-lane zmm vectors.
    package static var isAVX512Build: Bool {
        #if BLAZE_KERNELS_AVX512
        return true
        #else
        return false
        #endif
    }
}
