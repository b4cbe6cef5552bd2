// Transcendental and piecewise activations (TFLite's LOGISTIC and HARD_SWISH): flat loops over 8-float vectors,
// partial vectors at the end (never touching memory outside the tensors).
//
// HARD_SWISH is TFLite's float formula `x · min(max(x + 3, 0), 6) / 6`, evaluated in that order with IEEE
// single operations, so every lane gives the bits of the scalar reference. LOGISTIC follows TFLite's float
// reference (`1 / (1 + exp(−x))` inside [−9, 16.619047], `exp(x)` below, 1 above) with one vector `exp` of
// Cephes' polynomial per lane: within 2 ulp of the scalar reference's `expf` (the sweep tests' tolerance).

extension Microkernels {
    /// `exp(x)` lane-wise for `x` in [−87.33, 88.37] (callers clamp): `2^n · p(r)` with `x = n·ln 2 + r`,
    /// `|r| ≤ ln 2 / 2`, and Cephes' degree-7 polynomial for `exp(r)`, its steps fused multiply-adds where the
    /// build has them (`multiplyAdd`). Relative error below 2 ulp.
    @inline(__always)
    static func exponential<V: LaneVector>(_ x: V) -> V {
        // Round to nearest with the 1.5·2^23 trick: the sum's low mantissa bits hold n (|n| ≤ 128).
        let magic = V(repeating: 12582912)
        var t = magic
        multiplyAdd(&t, x, V(repeating: 1.44269504088896341))
        let n = t - magic
        var r = x
        multiplyAdd(&r, n, V(repeating: -0.693359375))
        multiplyAdd(&r, n, V(repeating: 2.12194440e-4))
        var p = V(repeating: 1.3981999507e-3)
        multiplyAdd(&p, V(repeating: 1.9875691500e-4), r)
        var q = V(repeating: 8.3334519073e-3)
        multiplyAdd(&q, p, r)
        p = V(repeating: 4.1665795894e-2)
        multiplyAdd(&p, q, r)
        q = V(repeating: 1.6666665459e-1)
        multiplyAdd(&q, p, r)
        p = V(repeating: 5.0000001201e-1)
        multiplyAdd(&p, q, r)
        var e = r
        multiplyAdd(&e, p, r * r)
        return (e + V(repeating: 1)).scaled(byPowerOfTwoIn: t)
    }

    /// The logistic function lane-wise, TFLite's float formula (see the file's comment) from one exponential
    /// per lane: of `−x` for the quotient `1 / (1 + exp(−x))`, of `x` below −9 (floored at −87.33654, below
    /// which the result is 0). NaN passes through (every comparison with it is false, and the quotient
    /// propagates it).
    @inline(__always)
    static func logistic<V: LaneVector>(_ x: V) -> V {
        let upper = V(repeating: 16.619047164916992188), lower = V(repeating: -9), floor = V(repeating: -87.33654)
        let one = V(repeating: 1), zero = V(repeating: 0)
        let below = x .< lower
        let argument = (-x).replacing(with: x, where: below)          // ≤ 9
        let e = exponential(argument.replacing(with: floor, where: argument .< floor))
        let low = e.replacing(with: zero, where: x .< floor)
        return (one / (one + e)).replacing(with: low, where: below).replacing(with: one, where: x .> upper)
    }

    /// `logistic` of 8 lanes.
    @inline(__always)
    static func logistic8(_ x: Vec8) -> Vec8 { logistic(x) }

    /// `out[i] = logistic(in[i])` for `i < count` (TFLite's float LOGISTIC).
    package static func logistic(
        count: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>
    ) {
        var i = 0
        #if BLAZE_KERNELS_AVX512
        while i + 16 <= count {
            store(logistic(load(input + i) as SIMD16<Float>), output + i)
            i += 16
        }
        #endif
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
        #if BLAZE_KERNELS_AVX512
        while i + 16 <= count {
            let x: SIMD16<Float> = load(input + i)
            store(x * logistic(x), output + i)
            i += 16
        }
        #endif
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
    /// GELU lane-wise with the vector exponential. Exact form: `0.5 · x · (1 + erf(x / √2))`, `erf` by
    /// Abramowitz and Stegun's 7.1.26 (`1 − (a₁t + … + a₅t⁵) · e^(−z²)`, `t = 1 / (1 + p·z)`, odd in `z`; absolute
    /// error below 1.5·10⁻⁷), its polynomial in fused multiply-adds where the build has them. Approximate form:
    /// `0.5 · x · (1 + tanh(√(2/π) · (x + 0.044715 · x³)))`, with `tanh(y) = sign(y) · (1 − 2 / (1 + e^(2|y|)))`.
    /// Within about 2·10⁻⁷ of the C library's forms times |x|.
    @inline(__always)
    static func gelu<V: LaneVector>(_ x: V, approximate: Bool) -> V {
        let one = V(repeating: 1), half = V(repeating: 0.5), zero = V(repeating: 0)
        let inner: V
        if approximate {
            let y = V(repeating: (2 / Float.pi).squareRoot()) * (x + V(repeating: 0.044715) * x * x * x)
            let a = y.replacing(with: -y, where: y .< zero) * V(repeating: 2)
            let e = exponential(a.replacing(with: V(repeating: 88), where: a .> V(repeating: 88)))
            let t = one - V(repeating: 2) / (one + e)
            inner = t.replacing(with: -t, where: y .< zero)
        } else {
            let z = x * V(repeating: Float(0.5.squareRoot()))
            let a = z.replacing(with: -z, where: z .< zero)
            let t = one / (one + V(repeating: 0.3275911) * a)
            var p = V(repeating: -1.453152027)
            multiplyAdd(&p, V(repeating: 1.061405429), t)
            var q = V(repeating: 1.421413741)
            multiplyAdd(&q, p, t)
            p = V(repeating: -0.284496736)
            multiplyAdd(&p, q, t)
            q = V(repeating: 0.254829592)
            multiplyAdd(&q, p, t)
            let square = -(a * a)
            let e = exponential(square.replacing(with: V(repeating: -87.33), where: square .< V(repeating: -87.33)))
            let erf = one - q * t * e
            inner = erf.replacing(with: -erf, where: z .< zero)
        }
        return half * x * (one + inner)
    }

    /// `out[i] = GELU(in[i])`, the exact form (`gelu`), for `i < count`.
    package static func gelu(count: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        geluLoop(count, input, output, approximate: false)
    }

    /// `out[i] = GELU(in[i])`, the tanh approximation (`gelu`), for `i < count`.
    package static func geluTanh(count: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        geluLoop(count, input, output, approximate: true)
    }

    @inline(__always)
    static func geluLoop(_ count: Int, _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
                         approximate: Bool) {
        var i = 0
        #if BLAZE_KERNELS_AVX512
        while i + 16 <= count {
            store(gelu(load(input + i) as SIMD16<Float>, approximate: approximate), output + i)
            i += 16
        }
        #endif
        while i + 8 <= count {
            store8(gelu(load8(input + i), approximate: approximate), output + i)
            i += 8
        }
        if i < count {
            storePartial(gelu(loadPartial(input + i, count - i), approximate: approximate), output + i, count - i)
        }
    }
}
