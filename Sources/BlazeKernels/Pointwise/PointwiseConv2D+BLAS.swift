#if canImport(Accelerate)
import Accelerate
#elseif canImport(COpenBLAS)
import COpenBLAS
#endif

/// Set once per process by the first BLAS kernel created (Swift globals initialize exactly once, thread-safely).
private let openBLASSingleThreaded: Bool = {
    #if !canImport(Accelerate) && canImport(COpenBLAS)
    openblas_set_num_threads(1)
    #endif
    return true
}()

extension PointwiseConv2D {
    /// Whether this build links a CBLAS.
    static var blasAvailable: Bool {
        #if canImport(Accelerate) || canImport(COpenBLAS)
        return true
        #else
        return false
        #endif
    }

    /// Makes OpenBLAS single-threaded (once per process); nothing on Apple platforms.
    static func configureBLAS() {
        _ = openBLASSingleThreaded
    }

    /// `cblas_sgemm(RowMajor, NoTrans, Trans)` into the output, then one pass adding the bias and
    /// applying the activation.
    func runBLAS(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, rows m: Int) {
        let k = inputChannels, n = outputChannels
        let bias = UnsafePointer(packed.pointer)
        let filter = bias + n
        #if canImport(Accelerate) || canImport(COpenBLAS)
        cblas_sgemm(
            CblasRowMajor, CblasNoTrans, CblasTrans, Int32(m), Int32(n), Int32(k),
            1, input, Int32(k), filter, Int32(k), 0, output, Int32(n))
        #endif
        let (lo, hi) = activation.bounds
        let lower = Vec8(repeating: lo), upper = Vec8(repeating: hi)
        for r in 0..<m {
            let c = output + r * n
            var o = 0
            while o + 8 <= n {
                store8(clamp(load8(c + o) + load8(bias + o), lower, upper), c + o)
                o += 8
            }
            while o < n {
                c[o] = clamp(c[o] + bias[o], lo, hi)
                o += 1
            }
        }
    }
}
