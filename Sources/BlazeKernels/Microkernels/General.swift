// The general kernels' hot loops (`General/`): SOFTMAX rows and BATCH_MATMUL blocks, compiled in every build of
// the microkernels like the convolutions' (FMA and wider registers where the CPU has them).

import BlazeKernelParameters

extension Microkernels {
    /// SOFTMAX over rows (`SoftmaxArguments`): the row's maximum, `exp((x − max) · beta)` with the vector
    /// exponential (within 2 ulp of `expf`), the sum of the lanes' sums, then one division per element.
    package static func softmax(_ s: SoftmaxArguments) {
        let n = s.classes, beta = Vec8(repeating: s.beta)
        let low = Vec8(repeating: -87.33654), high = Vec8(repeating: 88.37626)
        let lanes = Vec8(0, 1, 2, 3, 4, 5, 6, 7)
        for row in 0..<s.rows {
            let x = s.input + row * n, y = s.output + row * n
            // The maximum: lanes, then across them and the tail.
            var c = 0
            var maxima = Vec8(repeating: -.infinity)
            while c + 8 <= n {
                let v = load8(x + c)
                maxima = maxima.replacing(with: v, where: v .> maxima)
                c += 8
            }
            var maximum = maxima.max()
            while c < n {
                if x[c] > maximum { maximum = x[c] }
                c += 1
            }
            let m = Vec8(repeating: maximum)
            var sums = Vec8()
            c = 0
            while c + 8 <= n {
                let e = exponential(clamp((load8(x + c) - m) * beta, low, high))
                store8(e, y + c)
                sums += e
                c += 8
            }
            if c < n {
                let e = exponential(clamp((loadPartial(x + c, n - c) - m) * beta, low, high))
                storePartial(e, y + c, n - c)
                sums += e.replacing(with: 0, where: lanes .>= Vec8(repeating: Float(n - c)))
            }
            let sum = sums.sum()
            let divisor = Vec8(repeating: sum)
            c = 0
            while c + 8 <= n {
                store8(load8(y + c) / divisor, y + c)
                c += 8
            }
            while c < n {
                y[c] = y[c] / sum
                c += 1
            }
        }
    }

    /// A matrix product (`MatMulArguments`). With `b` row-major, tiles of 4 rows by 16 columns: each step of
    /// the depth broadcasts 4 values of `a` against two vectors of a row of `b`, so every output is one
    /// multiply-add per step, in the order of the depth, whatever the tile (rows past the end repeat the last
    /// row and are not stored). With `b` transposed, each output is a dot product along the depth, in 8 lanes
    /// then across them.
    package static func matmul(_ g: MatMulArguments) {
        let k = g.depth, n = g.columns
        guard g.rows > 0, n > 0 else { return }
        if g.transposedB {
            matmulTransposed(g)
            return
        }
        var i = 0
        while i < g.rows {
            let a0 = g.a + i * g.aRowStride
            let a1 = g.a + min(i + 1, g.rows - 1) * g.aRowStride
            let a2 = g.a + min(i + 2, g.rows - 1) * g.aRowStride
            let a3 = g.a + min(i + 3, g.rows - 1) * g.aRowStride
            let rows = min(4, g.rows - i), step = g.aDepthStride
            var j = 0
            while j < n {
                let width = min(16, n - j)
                var c00 = Vec8(), c01 = Vec8(), c10 = Vec8(), c11 = Vec8()
                var c20 = Vec8(), c21 = Vec8(), c30 = Vec8(), c31 = Vec8()
                @inline(__always) func accumulate(_ p: Int, _ b0: Vec8, _ b1: Vec8) {
                    let x0 = Vec8(repeating: a0[p * step]), x1 = Vec8(repeating: a1[p * step])
                    let x2 = Vec8(repeating: a2[p * step]), x3 = Vec8(repeating: a3[p * step])
                    multiplyAdd(&c00, x0, b0); multiplyAdd(&c01, x0, b1)
                    multiplyAdd(&c10, x1, b0); multiplyAdd(&c11, x1, b1)
                    multiplyAdd(&c20, x2, b0); multiplyAdd(&c21, x2, b1)
                    multiplyAdd(&c30, x3, b0); multiplyAdd(&c31, x3, b1)
                }
                var b = g.b + j
                if width == 16 {
                    for p in 0..<k {
                        accumulate(p, load8(b), load8(b + 8))
                        b += n
                    }
                } else {
                    let (w0, w1) = (min(width, 8), max(width - 8, 0))
                    for p in 0..<k {
                        accumulate(p, loadPartial(b, w0), w1 > 0 ? loadPartial(b + 8, w1) : Vec8())
                        b += n
                    }
                }
                @inline(__always) func put(_ r: Int, _ lo: Vec8, _ hi: Vec8) {
                    guard r < rows else { return }
                    let c = g.c + (i + r) * n + j
                    if width == 16 {
                        store8(lo, c)
                        store8(hi, c + 8)
                    } else {
                        storePartial(lo, c, min(width, 8))
                        if width > 8 { storePartial(hi, c + 8, width - 8) }
                    }
                }
                put(0, c00, c01)
                put(1, c10, c11)
                put(2, c20, c21)
                put(3, c30, c31)
                j += 16
            }
            i += 4
        }
    }

    /// `matmul` with `b` transposed: dot products of a row of `a` (any depth stride) and a row of `b`.
    private static func matmulTransposed(_ g: MatMulArguments) {
        let k = g.depth, n = g.columns, step = g.aDepthStride
        for i in 0..<g.rows {
            let a = g.a + i * g.aRowStride
            for j in 0..<n {
                let b = g.b + j * k
                var sums = Vec8()
                var p = 0
                if step == 1 {
                    while p + 8 <= k {
                        multiplyAdd(&sums, load8(a + p), load8(b + p))
                        p += 8
                    }
                }
                var sum = sums.sum()
                while p < k {
                    sum += a[p * step] * b[p]
                    p += 1
                }
                g.c[i * n + j] = sum
            }
        }
    }
}
