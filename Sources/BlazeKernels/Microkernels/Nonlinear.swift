// Transcendental and piecewise activations (TFLite's LOGISTIC and HARD_SWISH): flat loops over 8-float vectors,
// partial vectors at the end (never touching memory outside the tensors).
//
// HARD_SWISH is TFLite's float formula `x · min(max(x + 3, 0), 6) / 6`, evaluated in that order with IEEE
// single operations, so every lane gives the bits of the scalar reference. LOGISTIC follows TFLite's float
// reference (`1 / (1 + exp(−x))` inside [−9, 16.619047], `exp(x)` below, 1 above) with a vector `exp` of
// Cephes' polynomial: within 2 ulp of the scalar reference's `expf` (the sweep tests' tolerance).

extension Microkernels {
    /// `exp(x)` lane-wise for `x` in [−87.33, 88.37] (callers clamp): `2^n · p(r)` with `x = n·ln 2 + r`,
    /// `|r| ≤ ln 2 / 2`, and Cephes' degree-7 polynomial for `exp(r)`. Relative error below 2 ulp.
    @inline(__always)
    static func exponential(_ x: Vec8) -> Vec8 {
        // Round to nearest with the 1.5·2^23 trick: the sum's low mantissa bits hold n (|n| ≤ 128).
        let magic = Vec8(repeating: 12582912)
        let t = x * Vec8(repeating: 1.44269504088896341) + magic
        let n = t - magic
        var r = x - n * Vec8(repeating: 0.693359375)
        r = r - n * Vec8(repeating: -2.12194440e-4)
        var p = Vec8(repeating: 1.9875691500e-4)
        p = p * r + Vec8(repeating: 1.3981999507e-3)
        p = p * r + Vec8(repeating: 8.3334519073e-3)
        p = p * r + Vec8(repeating: 4.1665795894e-2)
        p = p * r + Vec8(repeating: 1.6666665459e-1)
        p = p * r + Vec8(repeating: 5.0000001201e-1)
        p = p * (r * r) + r + Vec8(repeating: 1)
        let bits = ((unsafeBitCast(t, to: SIMD8<Int32>.self) &- 0x4B40_0000) &+ 127) &<< 23
        return p * unsafeBitCast(bits, to: Vec8.self)
    }

    /// The logistic function of 8 lanes, TFLite's float formula (see the file's comment); NaN passes through
    /// (every comparison with it is false, and the middle branch propagates it).
    @inline(__always)
    static func logistic8(_ x: Vec8) -> Vec8 {
        let upper: Float = 16.619047164916992188, lower: Float = -9, floor: Float = -87.33654
        let inner = clamp(-x, Vec8(repeating: -upper), Vec8(repeating: 9))      // −x in [−16.62, 9]
        let outer = clamp(x, Vec8(repeating: floor), Vec8(repeating: lower))    // x in [−87.34, −9]
        // One exponential per lane: of −x where the middle branch applies, of x below −9.
        let below = x .< Vec8(repeating: lower)
        let e = exponential(inner.replacing(with: outer, where: below))
        let middle = Vec8(repeating: 1) / (Vec8(repeating: 1) + e)
        let low = e.replacing(with: 0, where: x .< floor)
        return middle.replacing(with: low, where: below).replacing(with: 1, where: x .> upper)
    }

    /// `out[i] = logistic(in[i])` for `i < count` (TFLite's float LOGISTIC).
    package static func logistic(
        count: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>
    ) {
        var i = 0
        while i + 8 <= count {
            store8(logistic8(load8(input + i)), output + i)
            i += 8
        }
        if i < count {
            storePartial(logistic8(loadPartial(input + i, count - i)), output + i, count - i)
        }
    }

    /// `out[i] = in[i] · logistic(in[i])` for `i < count`: TFLite's LOGISTIC, then the MUL of its input by its
    /// output (SiLU), in one pass; each product the MUL's one IEEE multiplication.
    package static func silu(
        count: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>
    ) {
        var i = 0
        while i + 8 <= count {
            let x = load8(input + i)
            store8(x * logistic8(x), output + i)
            i += 8
        }
        if i < count {
            let x = loadPartial(input + i, count - i)
            storePartial(x * logistic8(x), output + i, count - i)
        }
    }

    /// `x · min(max(x + 3, 0), 6) / 6` of 8 lanes, in TFLite's order of operations.
    @inline(__always)
    static func hardSwish8(_ x: Vec8) -> Vec8 {
        clamp(x + Vec8(repeating: 3), Vec8(repeating: 0), Vec8(repeating: 6)) * x / Vec8(repeating: 6)
    }

    /// `out[i] = in[i] · min(max(in[i] + 3, 0), 6) / 6` for `i < count` (TFLite's float HARD_SWISH).
    package static func hardSwish(
        count: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>
    ) {
        var i = 0
        while i + 16 <= count {
            let v0 = load8(input + i), v1 = load8(input + i + 8)
            store8(hardSwish8(v0), output + i)
            store8(hardSwish8(v1), output + i + 8)
            i += 16
        }
        while i + 8 <= count {
            store8(hardSwish8(load8(input + i)), output + i)
            i += 8
        }
        if i < count {
            storePartial(hardSwish8(loadPartial(input + i, count - i)), output + i, count - i)
        }
    }
}
