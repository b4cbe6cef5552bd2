/// Which implementation of a kernel to use, chosen once at creation time.
///
/// Every kernel has a `.reference` implementation: plain scalar loops written for obviousness, the oracle the
/// fast paths are tested against. Fast implementations exist per operator; see each kernel's documentation.
///
/// A requested variant that does not apply to the given parameters (for example `.blas` on a 3x3
/// convolution, or `.simd` on an operator that has no SIMD path) silently falls back to the best applicable
/// implementation: `.blas` → `.simd` → `.reference`. Each kernel's `variant` property reports the
/// implementation actually chosen, never `.automatic`.
public enum KernelVariant: Hashable, Sendable {
    /// The fastest implementation available for the parameters (never BLAS: our own GEMM wins on the
    /// small matrices of these models).
    case automatic
    /// The scalar oracle.
    case reference
    /// Vectorized with `SIMD8<Float>` (or block copies, for data-movement operators).
    case simd
    /// `cblas_sgemm` (OpenBLAS on Linux, Accelerate on Apple platforms), where the operator is a GEMM.
    case blas
}
