// CPU feature detection for BlazeKernels' runtime dispatch. Swift cannot issue CPUID or XGETBV itself.
#include "CBlazeCPU.h"

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || defined(_M_IX86)

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
static void cpuid(unsigned leaf, unsigned subleaf, unsigned regs[4]) {
    int r[4];
    __cpuidex(r, (int)leaf, (int)subleaf);
    for (int i = 0; i < 4; i++) regs[i] = (unsigned)r[i];
}
static unsigned long long xgetbv0(void) { return _xgetbv(0); }
#else
static void cpuid(unsigned leaf, unsigned subleaf, unsigned regs[4]) {
    __asm__ volatile("cpuid"
                     : "=a"(regs[0]), "=b"(regs[1]), "=c"(regs[2]), "=d"(regs[3])
                     : "a"(leaf), "c"(subleaf));
}
static unsigned long long xgetbv0(void) {
    unsigned eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((unsigned long long)edx << 32) | eax;
}
#endif

int blaze_cpu_has_avx2_fma_f16c(void) {
    unsigned r[4];
    cpuid(0, 0, r);
    const unsigned maxLeaf = r[0];
    if (maxLeaf < 7) return 0;
    cpuid(1, 0, r);
    const unsigned ecx1 = r[2];
    const int fma = (ecx1 >> 12) & 1, osxsave = (ecx1 >> 27) & 1, avx = (ecx1 >> 28) & 1, f16c = (ecx1 >> 29) & 1;
    if (!(fma && osxsave && avx && f16c)) return 0;
    // The OS must save and restore the XMM (bit 1) and YMM (bit 2) state.
    if ((xgetbv0() & 0x6) != 0x6) return 0;
    cpuid(7, 0, r);
    const int avx2 = (r[1] >> 5) & 1;
    return avx2;
}

int blaze_cpu_has_avx512(void) {
    if (!blaze_cpu_has_avx2_fma_f16c()) return 0;
    unsigned r[4];
    cpuid(7, 0, r);
    const unsigned ebx = r[1];
    const int f = (ebx >> 16) & 1, dq = (ebx >> 17) & 1, bw = (ebx >> 30) & 1, vl = (ebx >> 31) & 1;
    if (!(f && dq && bw && vl)) return 0;
    // The OS must save and restore the opmask (bit 5) and both halves of the ZMM registers (bits 6 and 7).
    return (xgetbv0() & 0xE6) == 0xE6;
}

#else

int blaze_cpu_has_avx2_fma_f16c(void) { return 0; }
int blaze_cpu_has_avx512(void) { return 0; }

#endif
