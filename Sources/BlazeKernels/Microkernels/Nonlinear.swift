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
    /// GELU of 8 lanes with the vector exponential. Exact form: `0.5 · x · (1 + erf(x / √2))`, `erf` by
    /// Abramowitz and Stegun's 7.1.26 (`1 − (a₁t + … + a₅t⁵) · e^(−z²)`, `t = 1 / (1 + p·z)`, odd in `z`; absolute
    /// error below 1.5·10⁻⁷). Approximate form: `0.5 · x · (1 + tanh(√(2/π) · (x + 0.044715 · x³)))`, with
    /// `tanh(y) = sign(y) · (1 − 2 / (1 + e^(2|y|)))`. Within about 2·10⁻⁷ of the C library's forms times |x|.
    @inline(__always)
    static func gelu8(_ x: Vec8, approximate: Bool) -> Vec8 {
        let one = Vec8(repeating: 1), half = Vec8(repeating: 0.5)
        let inner: Vec8
        if approximate {
            let y = Vec8(repeating: (2 / Float.pi).squareRoot()) * (x + Vec8(repeating: 0.044715) * x * x * x)
            let a = clamp(y.replacing(with: -y, where: y .< 0) * 2, Vec8(repeating: 0), Vec8(repeating: 88))
            let t = one - Vec8(repeating: 2) / (one + exponential(a))
            inner = t.replacing(with: -t, where: y .< 0)
        } else {
            let z = x * Vec8(repeating: Float(0.5.squareRoot()))
            let a = z.replacing(with: -z, where: z .< 0)
            let t = one / (one + Vec8(repeating: 0.3275911) * a)
            var p = Vec8(repeating: 1.061405429)
            p = p * t + Vec8(repeating: -1.453152027)
            p = p * t + Vec8(repeating: 1.421413741)
            p = p * t + Vec8(repeating: -0.284496736)
            p = p * t + Vec8(repeating: 0.254829592)
            p = p * t
            let e = exponential(clamp(-(a * a), Vec8(repeating: -87.33), Vec8(repeating: 0)))
            let erf = one - p * e
            inner = erf.replacing(with: -erf, where: z .< 0)
        }
        return half * x * (one + inner)
    }

    /// `out[i] = GELU(in[i])`, the exact form (`gelu8`), for `i < count`.
    package static func gelu(count: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        geluLoop(count, input, output, approximate: false)
    }

    /// `out[i] = GELU(in[i])`, the tanh approximation (`gelu8`), for `i < count`.
    package static func geluTanh(count: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        geluLoop(count, input, output, approximate: true)
    }

    @inline(__always)
    static func geluLoop(_ count: Int, _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
                         approximate: Bool) {
        var i = 0
        while i + 8 <= count {
            store8(gelu8(load8(input + i), approximate: approximate), output + i)
            i += 8
        }
        if i < count {
            storePartial(gelu8(loadPartial(input + i, count - i), approximate: approximate), output + i, count - i)
        }
    }
}
