#ifndef CBLAZECPU_H
#define CBLAZECPU_H

/// Whether this x86-64 CPU and its operating system support AVX2, FMA3 and F16C: CPUID leaf 1 (FMA, AVX,
/// OSXSAVE, F16C), leaf 7 (AVX2) and XGETBV (the OS saves the YMM registers). Always 0 on other
/// architectures. Cheap, but meant to be called once at start-up.
int blaze_cpu_has_avx2_fma_f16c(void);

/// Whether it also supports AVX-512 F, DQ, BW and VL (CPUID leaf 7) and the OS saves the opmask and ZMM state
/// (XGETBV bits 5 to 7). Always 0 on other architectures.
int blaze_cpu_has_avx512(void);

#endif
