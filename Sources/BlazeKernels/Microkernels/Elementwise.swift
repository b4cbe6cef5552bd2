// Memory-bound kernels: clamp, add (its row loop is `binaryRow`, BinaryRow.swift) and PReLU (padding is in
// ConstantPad.swift, pooling in Pool.swift). Vectorized over the innermost (channel) dimension with 8-float
// vectors, partial vectors at the ends (never touching memory outside).

import BlazeKernelParameters

extension Microkernels {
    /// `output[i] = clamp(input[i])` for `i < count`; `output` may equal `input`.
    package static func clampBuffer(
        count: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, bounds: OutputBounds
    ) {
        let lower = Vec8(repeating: bounds.lower), upper = Vec8(repeating: bounds.upper)
        var i = 0
        while i + 32 <= count {
            let v0 = load8(input + i), v1 = load8(input + i + 8), v2 = load8(input + i + 16), v3 = load8(input + i + 24)
            store8(clamp(v0, lower, upper), output + i)
            store8(clamp(v1, lower, upper), output + i + 8)
            store8(clamp(v2, lower, upper), output + i + 16)
            store8(clamp(v3, lower, upper), output + i + 24)
            i += 32
        }
        while i + 8 <= count {
            store8(clamp(load8(input + i), lower, upper), output + i)
            i += 8
        }
        if i < count {
            storePartial(clamp(loadPartial(input + i, count - i), lower, upper), output + i, count - i)
        }
    }

    /// Broadcast addition over a 4-D output `[n, h, w, c]` (`broadcastRows`).
    package static func addBroadcast(_ a: BroadcastArguments) { broadcastRows(a, RowAddition.self) }

    /// `x >= 0 ? x : x · alpha` over a 4-D output `[n, h, w, c]` with broadcast strides (channel strides 0
    /// or 1). `output` may equal `input` when no broadcasting happens on the input.
    package static func prelu(_ arguments: PReLUArguments) {
        let (n, h, w, c) = arguments.shape, input = arguments.input.base, xs = arguments.input.strides
        let alpha = arguments.alpha.base, als = arguments.alpha.strides, output = arguments.output
        var out = output
        let zero = Vec8()
        if xs.c == 1 && xs.w == c && xs.h == w * c && (n == 1 || xs.n == h * w * c) && als.c == 1
            && als.n == 0 && als.h == 0 && als.w == 0 {
            // The usual case, slopes per channel on a dense input: one flat loop over the pixels.
            var x = input
            for _ in 0..<(n * h * w) {
                preluRow(x, alpha, out, count: c)
                x += c
                out += c
            }
            return
        }
        for b in 0..<n {
            for y in 0..<h {
                for x in 0..<w {
                    let xin = input + b * xs.n + y * xs.h + x * xs.w
                    let a = alpha + b * als.n + y * als.h + x * als.w
                    var i = 0
                    if xs.c == 1 && als.c == 1 {
                        preluRow(xin, a, out, count: c)
                        i = c
                    } else if xs.c == 1 {
                        let va = Vec8(repeating: a[0])
                        while i + 8 <= c {
                            let v = load8(xin + i)
                            store8(v.replacing(with: v * va, where: v .< zero), out + i)
                            i += 8
                        }
                    } else if als.c == 1 {
                        let v = Vec8(repeating: xin[0])
                        while i + 8 <= c {
                            store8(v.replacing(with: v * load8(a + i), where: v .< zero), out + i)
                            i += 8
                        }
                    }
                    while i < c {
                        let value = xin[i * xs.c]
                        out[i] = value >= 0 ? value : value * a[i * als.c]
                        i += 1
                    }
                    out += c
                }
            }
        }
    }

    /// `out[i] = x[i] >= 0 ? x[i] : x[i] · alpha[i]` for `i < count`, all three dense: `prelu`'s row when input
    /// and slopes both run along the channels. The tail is a partial vector, not an overlapping one, so that
    /// the kernel may run in place.
    @inline(__always)
    static func preluRow(
        _ x: UnsafePointer<Float>, _ alpha: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>, count c: Int
    ) {
        let zero = Vec8()
        var i = 0
        while i + 8 <= c {
            let v = load8(x + i)
            store8(v.replacing(with: v * load8(alpha + i), where: v .< zero), out + i)
            i += 8
        }
        if i < c {
            let v = loadPartial(x + i, c - i)
            storePartial(v.replacing(with: v * loadPartial(alpha + i, c - i), where: v .< zero), out + i, c - i)
        }
    }
}
