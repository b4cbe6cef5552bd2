// The columns of one row of a GEMM register tile: one vector of 8 (the 8x8 tile) or two (the 6x16 tile). The
// tile kernel (`Microkernels.gemmTile`) is written once over them; each operation here is lane for lane what
// the hand-unrolled tiles did to each of their vectors, in the same order, so the results are the same bits.

/// The accumulators (or weights, slopes, residual values) of one tile row: `width` floats as 8-lane vectors.
protocol TileColumns {
    /// Floats in a row (8 or 16).
    static var width: Int { get }
    /// The first `width` floats at `p`.
    init(loading p: UnsafePointer<Float>)
    /// The first `lanes` floats at `p` (reading only those), zeros after them; `lanes` below `width`.
    init(loadingPartial p: UnsafePointer<Float>, lanes: Int)
    /// Stores the `width` floats at `p`.
    func store(_ p: UnsafeMutablePointer<Float>)
    /// `self += x · weights`, vector by vector (`multiplyAdd`, fused where the build has FMA): `x` broadcast.
    mutating func accumulate(_ x: Float, times weights: Self)
    /// `self += other`, vector by vector.
    mutating func add(_ other: Self)
    /// `clamp(self, lower, upper)`, vector by vector.
    mutating func applyClamp(_ lower: Vec8, _ upper: Vec8)
    /// `preluLanes(self, slopes)`, vector by vector.
    mutating func applyPReLU(_ slopes: Self)
    /// TFLite's HARD_SWISH (`hardSwish8`), vector by vector.
    mutating func applyHardSwish()
}

extension SIMD8: TileColumns where Scalar == Float {
    static var width: Int { 8 }

    @inline(__always) init(loading p: UnsafePointer<Float>) { self = load8(p) }

    @inline(__always) init(loadingPartial p: UnsafePointer<Float>, lanes: Int) { self = loadPartial(p, lanes) }

    @inline(__always) func store(_ p: UnsafeMutablePointer<Float>) { store8(self, p) }

    @inline(__always) mutating func accumulate(_ x: Float, times weights: Vec8) {
        multiplyAdd(&self, Vec8(repeating: x), weights)
    }

    @inline(__always) mutating func add(_ other: Vec8) { self += other }

    @inline(__always) mutating func applyClamp(_ lower: Vec8, _ upper: Vec8) {
        self = clampLanes(self, lower, upper)
    }

    @inline(__always) mutating func applyPReLU(_ slopes: Vec8) { self = preluLanes(self, slopes) }

    @inline(__always) mutating func applyHardSwish() { self = Microkernels.hardSwish8(self) }

}

/// `clamp(v, lower, upper)`, reachable from inside `SIMD8`'s extension (where `clamp` names SIMD's own method).
@inline(__always)
private func clampLanes(_ v: Vec8, _ lower: Vec8, _ upper: Vec8) -> Vec8 { clamp(v, lower, upper) }

/// Two vectors: 16 columns.
struct Vec8x2: TileColumns {
    var v0, v1: Vec8

    static var width: Int { 16 }

    @inline(__always) init(loading p: UnsafePointer<Float>) { (v0, v1) = (load8(p), load8(p + 8)) }

    /// Lanes `0 ..< lanes` from `p`: the second vector gets `lanes - 8` (none when negative).
    @inline(__always) init(loadingPartial p: UnsafePointer<Float>, lanes: Int) {
        (v0, v1) = (loadPartial(p, lanes), loadPartial(p + 8, lanes &- 8))
    }

    @inline(__always) func store(_ p: UnsafeMutablePointer<Float>) {
        store8(v0, p)
        store8(v1, p + 8)
    }

    @inline(__always) mutating func accumulate(_ x: Float, times weights: Vec8x2) {
        let broadcast = Vec8(repeating: x)
        multiplyAdd(&v0, broadcast, weights.v0)
        multiplyAdd(&v1, broadcast, weights.v1)
    }

    @inline(__always) mutating func add(_ other: Vec8x2) {
        v0 += other.v0
        v1 += other.v1
    }

    @inline(__always) mutating func applyClamp(_ lower: Vec8, _ upper: Vec8) {
        v0.applyClamp(lower, upper)
        v1.applyClamp(lower, upper)
    }

    @inline(__always) mutating func applyPReLU(_ slopes: Vec8x2) {
        v0 = preluLanes(v0, slopes.v0)
        v1 = preluLanes(v1, slopes.v1)
    }

    @inline(__always) mutating func applyHardSwish() {
        v0 = Microkernels.hardSwish8(v0)
        v1 = Microkernels.hardSwish8(v1)
    }

}

#if BLAZE_KERNELS_AVX512
/// One 16-lane vector (a zmm register): 16 columns, in the AVX-512 build only. Lane for lane the operations of
/// `Vec8x2` (a fused multiply-add per product, the clamp, the slopes, HARD_SWISH on each half), so the same bits.
struct Vec16: TileColumns {
    var v: SIMD16<Float>

    static var width: Int { 16 }

    @inline(__always) init(loading p: UnsafePointer<Float>) { v = load(p) }

    @inline(__always) init(loadingPartial p: UnsafePointer<Float>, lanes: Int) {
        v = SIMD16(lowHalf: loadPartial(p, lanes), highHalf: loadPartial(p + 8, lanes &- 8))
    }

    @inline(__always) func store(_ p: UnsafeMutablePointer<Float>) { storeLanes(v, p) }

    @inline(__always) mutating func accumulate(_ x: Float, times weights: Vec16) {
        v.addProduct(SIMD16(repeating: x), weights.v)
    }

    @inline(__always) mutating func add(_ other: Vec16) { v += other.v }

    @inline(__always) mutating func applyClamp(_ lower: Vec8, _ upper: Vec8) {
        let low = SIMD16(lowHalf: lower, highHalf: lower), high = SIMD16(lowHalf: upper, highHalf: upper)
        var r = v
        for i in 0..<16 {
            let x = v[i] < low[i] ? low[i] : v[i]
            r[i] = high[i] < x ? high[i] : x
        }
        v = r
    }

    @inline(__always) mutating func applyPReLU(_ slopes: Vec16) {
        v = SIMD16(lowHalf: preluLanes(v.lowHalf, slopes.v.lowHalf), highHalf: preluLanes(v.highHalf, slopes.v.highHalf))
    }

    @inline(__always) mutating func applyHardSwish() {
        v = SIMD16(lowHalf: Microkernels.hardSwish8(v.lowHalf), highHalf: Microkernels.hardSwish8(v.highHalf))
    }

}

/// `store(v, p)`, reachable from inside `Vec16` (where `store` names its own method).
@inline(__always)
private func storeLanes(_ v: SIMD16<Float>, _ p: UnsafeMutablePointer<Float>) { store(v, p) }
#endif

/// One row of a GEMM register tile: its running pointer into A and its accumulators.
struct TileRow<Columns: TileColumns> {
    var a: UnsafePointer<Float>
    var c: Columns
}

// The epilogue's activations, row by row, as visitors: always inlined (as closures on two vectors per row, the
// clamp and HARD_SWISH stayed calls per row; see RegisterBlock.swift).

/// The clamp of every row of a tile.
struct ClampTileRows<Columns: TileColumns>: RegisterBlockVisitor {
    let lower, upper: Vec8

    @inline(__always) func visit(_ row: inout TileRow<Columns>, _: Int) { row.c.applyClamp(lower, upper) }
}

/// PReLU with the panel's slopes on every row of a tile.
struct PReLUTileRows<Columns: TileColumns>: RegisterBlockVisitor {
    let slopes: Columns

    @inline(__always) func visit(_ row: inout TileRow<Columns>, _: Int) { row.c.applyPReLU(slopes) }
}

/// TFLite's HARD_SWISH on every row of a tile.
struct HardSwishTileRows<Columns: TileColumns>: RegisterBlockVisitor {
    @inline(__always) func visit(_ row: inout TileRow<Columns>, _: Int) { row.c.applyHardSwish() }
}

