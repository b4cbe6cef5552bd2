// The single-core float32 FMA peak of this machine, the ceiling for any GEMM: 12 independent chains of fused
// multiply-adds on 16-float (zmm) and 8-float (ymm) vectors, timed. Documentation/Benchmarks.md ("Any TFLite
// model", Speed) quotes it as the bound of the zoo's speed goal.
//   cc -O2 -mavx512f -mfma Benchmarks/fma_peak.c -o /tmp/fma_peak && /tmp/fma_peak
#include <immintrin.h>
#include <stdio.h>
#include <time.h>
int main(){
  __m512 a[12]; __m512 b=_mm512_set1_ps(0.999f), c=_mm512_set1_ps(0.001f);
  for(int i=0;i<12;i++) a[i]=_mm512_set1_ps(i);
  long n=200000000; struct timespec t0,t1; clock_gettime(CLOCK_MONOTONIC,&t0);
  for(long k=0;k<n;k++){ for(int i=0;i<12;i++) a[i]=_mm512_fmadd_ps(a[i],b,c); }
  clock_gettime(CLOCK_MONOTONIC,&t1);
  double s=(t1.tv_sec-t0.tv_sec)+1e-9*(t1.tv_nsec-t0.tv_nsec);
  float sum=0; for(int i=0;i<12;i++){ float t[16]; _mm512_storeu_ps(t,a[i]); sum+=t[0]; }
  printf("zmm: %.1f GFLOP/s (%f)\n", n*12.0*16*2/s/1e9, sum);
  __m256 d[12]; __m256 e=_mm256_set1_ps(0.999f), f=_mm256_set1_ps(0.001f);
  for(int i=0;i<12;i++) d[i]=_mm256_set1_ps(i);
  clock_gettime(CLOCK_MONOTONIC,&t0);
  for(long k=0;k<n;k++){ for(int i=0;i<12;i++) d[i]=_mm256_fmadd_ps(d[i],e,f); }
  clock_gettime(CLOCK_MONOTONIC,&t1);
  s=(t1.tv_sec-t0.tv_sec)+1e-9*(t1.tv_nsec-t0.tv_nsec);
  sum=0; for(int i=0;i<12;i++){ float t[8]; _mm256_storeu_ps(t,d[i]); sum+=t[0]; }
  printf("ymm: %.1f GFLOP/s (%f)\n", n*12.0*8*2/s/1e9, sum);
}
