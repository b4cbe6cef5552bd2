import BlazeKernelParameters
import CBlazeCPU
// BlazeKernelsFMA is a dependency only on Linux and macOS (Package.swift), and referenced only on x86-64: an
// arm64 build (macOS on Apple silicon compiles the module, SwiftPM having no architecture condition) names
// none of its symbols, and iOS, tvOS and visionOS do not compile it at all.
#if arch(x86_64) && canImport(BlazeKernelsFMA)
import BlazeKernelsFMA
#endif
#if arch(x86_64) && canImport(BlazeKernelsAVX512)
import BlazeKernelsAVX512
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

/// The instruction set a kernel's hot loops run on, chosen once per process from the CPU.
///
/// The microkernels (`Sources/BlazeKernels/Microkernels`) are compiled three times: into this module for the
/// baseline of the target architecture (SSE2 on x86-64, NEON on arm64), into `BlazeKernelsFMA` with AVX2,
/// FMA and F16C enabled, and into `BlazeKernelsAVX512` with AVX-512 (F, DQ, BW, VL) too, whose GEMM tiles are
/// 16-lane vectors. On x86-64, `active` is `.avx512` when CPUID and XGETBV report AVX-512 (and the OS saves the
/// ZMM registers), else `.avx2FMA` when they report AVX2, FMA and F16C (and the OS saves the YMM registers),
/// `.baseline` otherwise; on other architectures it is always `.baseline` (arm64's baseline already has NEON
/// fused multiply-add). The AVX-512 build computes every value with the same operations as the AVX2 build (a
/// fused multiply-add per product, in the same order), so the two give the same bits.
///
/// The environment variable `BLAZEFACE_KERNEL_ISA=baseline` (or `avx2FMA`) forces those kernels for the whole
/// process (read once, at the first kernel creation); a choice the CPU does not support gives the baseline.
package enum KernelInstructionSet: String, Hashable, Sendable, CustomStringConvertible {
    /// The target architecture's baseline: SSE2 on x86-64 (multiply and add, 2 x 4 lanes), NEON on arm64.
    case baseline
    /// AVX2 + FMA3 (+ F16C) on x86-64: 8-lane fused multiply-add.
    case avx2FMA
    /// AVX-512 F, DQ, BW and VL on x86-64 (with AVX2, FMA3 and F16C): 16-lane GEMM tiles.
    case avx512

    package var description: String { rawValue }

    /// Whether this process can run kernels built for `self`.
    package var isSupported: Bool {
        switch self {
        case .baseline: return true
        case .avx2FMA: return KernelInstructionSet.cpuHasAVX2FMA
        case .avx512: return KernelInstructionSet.cpuHasAVX512
        }
    }

    /// The microkernels built for this instruction set: one dispatch table per instruction set
    /// (`MicrokernelTable`), filled once from each build. Kernels call through it once per run or piece.
    @inline(__always)
    var microkernels: MicrokernelTable {
        switch self {
        case .baseline: return Microkernels.table
        case .avx2FMA:
            #if arch(x86_64) && canImport(BlazeKernelsFMA)
            return BlazeKernelsFMA.Microkernels.table
            #else
            return Microkernels.table  // never chosen: `isSupported` is false here, so `resolve` gives `.baseline`
            #endif
        case .avx512:
            #if arch(x86_64) && canImport(BlazeKernelsAVX512)
            return BlazeKernelsAVX512.Microkernels.table
            #else
            return Microkernels.table  // never chosen, as above
            #endif
        }
    }

    /// The instruction set new kernels use by default (see the type's documentation).
    package static var active: KernelInstructionSet { selected }

    /// `requested` when supported, else `.baseline`; `nil` means `active`.
    static func resolve(_ requested: KernelInstructionSet?) -> KernelInstructionSet {
        guard let requested else { return selected }
        return requested.isSupported ? requested : .baseline
    }

    /// The CPU (and OS) support AVX2, FMA and F16C, and BlazeKernelsFMA was built for them.
    private static let cpuHasAVX2FMA: Bool = {
        #if arch(x86_64) && canImport(BlazeKernelsFMA)
        return blaze_cpu_has_avx2_fma_f16c() != 0 && BlazeKernelsFMA.Microkernels.isAVX2FMABuild
        #else
        return false
        #endif
    }()

    private static let selected: KernelInstructionSet = {
        if let value = getenv("BLAZEFACE_KERNEL_ISA"), let forced = KernelInstructionSet(rawValue: String(cString: value)) {
            return forced.isSupported ? forced : .baseline
        }
        return cpuHasAVX512 ? .avx512 : cpuHasAVX2FMA ? .avx2FMA : .baseline
    }()

    private static let cpuHasAVX512: Bool = {
        #if arch(x86_64) && canImport(BlazeKernelsAVX512)
        return blaze_cpu_has_avx512() != 0 && BlazeKernelsAVX512.Microkernels.isAVX512Build
        #else
        return false
        #endif
    }()
}
