// Montgomery multiplication with MULX/ADCX/ADOX on x86-64 (BMI2 + ADX), for 4- and 6-limb moduli.
//
// Why: the portable CIOS in mont.hpp leaves carries to the compiler, which serialises the two
// additions of every step on one carry flag; an Fp product took ~90 ns here, about 3× blst. ADCX
// and ADOX carry through CF and OF independently, so the low halves of a row (a·bᵢ or m·p) chain on
// one flag while the high halves chain on the other, and MULX leaves both flags alone (Gueron and
// Krasnov, "Fast multiplication of large integers using MULX/ADCX/ADOX", Intel white paper 2012).
// Measured on the 2-core development machine (Xeon at 2.6 GHz with AVX-512, thread CPU time of a
// dependent chain, the host loaded): Fp product 41 → 36 ns, Fr 23 → 20 ns; one-thread G1 MSM of
// 2^16 points 0.72 → 0.62 s, 2^18 2.66 → 2.29 s, G2 2^14 0.73 → 0.62 s (`porep-bench msm
// --threads 1 [--portable]`, process CPU time). Squaring still goes through the product.
//
// Same algorithm as the portable path — CIOS, one row per limb of b: t += a·bᵢ, then
// m = t₀·(−p⁻¹) mod 2⁶⁴, t += m·p, drop the zero low word — so the result is bit-for-bit the
// portable one (tests/variants/ff checks both against GMP). n + 1 registers hold t; instead of
// moving words after each row, the next row names the registers one place further (the macros
// below are written out with the rotation). The no-carry bound of mont.hpp (spare top bit) keeps t
// below 2p, so the caller's single conditional subtraction finishes the reduction.
//
// The CPU is checked once (CPUID leaf 7: BMI2 = EBX bit 8, ADX = EBX bit 19); without both, or
// in constant evaluation, or on the device, or with ZK_NO_ASM defined, mont.hpp uses its portable
// code.
#pragma once

#include <cstdint>

#if defined(__x86_64__) && !defined(__CUDA_ARCH__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(ZK_NO_ASM)
#define ZK_MULX_ASM 1
#include <cpuid.h>

namespace zk::x86 {

inline bool detect_mulx_adx() noexcept {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid_max(0, nullptr) < 7) return false;
  __cpuid_count(7, 0, eax, ebx, ecx, edx);
  return (ebx & (1u << 8)) != 0 && (ebx & (1u << 19)) != 0;
}

// Whether mont.hpp takes this path: true where the CPU has BMI2 and ADX. Tests and benchmarks may
// set it to false to run the portable code in the same binary. Read during static initialisation
// of another translation unit it may still be false: that only selects the portable code, which
// gives the same results.
inline bool use_mulx_adx = detect_mulx_adx();

// One step of a row: t[j] += lo(x·[src + off]) on CF, t[j+1] += hi(...) on OF (x is in rdx).
#define ZK_X86_STEP(src, off, tj, tj1)           \
  "mulxq " #off "(%[" #src "]), %[lo], %[hi]\n\t" \
  "adcxq %[lo], %[" #tj "]\n\t"                   \
  "adoxq %[hi], %[" #tj1 "]\n\t"

// Row of a 6-limb product: t += a·b[i], then t += m·p with m = t0·inv; t0 ends zero.
#define ZK_X86_ROW6(boff, T0, T1, T2, T3, T4, T5, T6)                                                      \
  "movq " #boff "(%[b]), %%rdx\n\t"                                                                         \
  "xorl %k[" #T6 "], %k[" #T6 "]\n\t" ZK_X86_STEP(a, 0, T0, T1) ZK_X86_STEP(a, 8, T1, T2)                   \
      ZK_X86_STEP(a, 16, T2, T3) ZK_X86_STEP(a, 24, T3, T4) ZK_X86_STEP(a, 32, T4, T5)                      \
          ZK_X86_STEP(a, 40, T5, T6) "adcq $0, %[" #T6 "]\n\t"                                              \
                                     "movq %[" #T0 "], %%rdx\n\t"                                           \
                                     "imulq %[inv], %%rdx\n\t"                                              \
                                     "xorl %k[lo], %k[lo]\n\t" ZK_X86_STEP(p, 0, T0, T1)                    \
                                         ZK_X86_STEP(p, 8, T1, T2) ZK_X86_STEP(p, 16, T2, T3)               \
                                             ZK_X86_STEP(p, 24, T3, T4) ZK_X86_STEP(p, 32, T4, T5)          \
                                                 ZK_X86_STEP(p, 40, T5, T6) "adcq $0, %[" #T6 "]\n\t"

#define ZK_X86_ROW4(boff, T0, T1, T2, T3, T4)                                                                \
  "movq " #boff "(%[b]), %%rdx\n\t"                                                                          \
  "xorl %k[" #T4 "], %k[" #T4 "]\n\t" ZK_X86_STEP(a, 0, T0, T1) ZK_X86_STEP(a, 8, T1, T2)                    \
      ZK_X86_STEP(a, 16, T2, T3) ZK_X86_STEP(a, 24, T3, T4) "adcq $0, %[" #T4 "]\n\t"                        \
                                                             "movq %[" #T0 "], %%rdx\n\t"                   \
                                                             "imulq %[inv], %%rdx\n\t"                      \
                                                             "xorl %k[lo], %k[lo]\n\t" ZK_X86_STEP(         \
                                                                 p, 0, T0, T1) ZK_X86_STEP(p, 8, T1, T2)     \
                                                                 ZK_X86_STEP(p, 16, T2, T3)                  \
                                                                     ZK_X86_STEP(p, 24, T3, T4)              \
                                                                         "adcq $0, %[" #T4 "]\n\t"

// The memory the asm reads through its pointers, declared as "m" inputs so that the compiler stores
// it before the asm runs, without a blanket "memory" clobber. The lvalue is a char array, the form
// GCC's manual gives for this ("Clobbers and Scratch Registers"): char aliases every type. With a
// struct of uint64_t instead, GCC 12 at -O3 dropped the stores of a local operand as dead (seen:
// to_canonical's constant 1 and from_canonical's R² were read as stale stack memory).
template <int N>
using limb_bytes = const char (*)[8 * N];

// out = a·b·R⁻¹, not yet reduced (< 2p). p and inv: the modulus and −p⁻¹ mod 2⁶⁴.
inline void mont_mul6(uint64_t out[6], const uint64_t a[6], const uint64_t b[6], const uint64_t p[6],
                      uint64_t inv) noexcept {
  uint64_t r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, lo, hi;
  asm(ZK_X86_ROW6(0, r0, r1, r2, r3, r4, r5, r6)   //
      ZK_X86_ROW6(8, r1, r2, r3, r4, r5, r6, r0)   //
      ZK_X86_ROW6(16, r2, r3, r4, r5, r6, r0, r1)  //
      ZK_X86_ROW6(24, r3, r4, r5, r6, r0, r1, r2)  //
      ZK_X86_ROW6(32, r4, r5, r6, r0, r1, r2, r3)  //
      ZK_X86_ROW6(40, r5, r6, r0, r1, r2, r3, r4)
      : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3), [r4] "+&r"(r4), [r5] "+&r"(r5),
        [r6] "+&r"(r6), [lo] "=&r"(lo), [hi] "=&r"(hi)
      : [a] "r"(a), [b] "r"(b), [p] "r"(p), [inv] "m"(inv), "m"(*reinterpret_cast<limb_bytes<6>>(a)),
        "m"(*reinterpret_cast<limb_bytes<6>>(b)), "m"(*reinterpret_cast<limb_bytes<6>>(p))
      : "rdx", "cc");
  // After the last row the value sits in r6, r0, …, r4 (r5 is the zeroed low word).
  out[0] = r6;
  out[1] = r0;
  out[2] = r1;
  out[3] = r2;
  out[4] = r3;
  out[5] = r4;
}

inline void mont_mul4(uint64_t out[4], const uint64_t a[4], const uint64_t b[4], const uint64_t p[4],
                      uint64_t inv) noexcept {
  uint64_t r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, lo, hi;
  asm(ZK_X86_ROW4(0, r0, r1, r2, r3, r4)   //
      ZK_X86_ROW4(8, r1, r2, r3, r4, r0)   //
      ZK_X86_ROW4(16, r2, r3, r4, r0, r1)  //
      ZK_X86_ROW4(24, r3, r4, r0, r1, r2)
      : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3), [r4] "+&r"(r4), [lo] "=&r"(lo),
        [hi] "=&r"(hi)
      : [a] "r"(a), [b] "r"(b), [p] "r"(p), [inv] "m"(inv), "m"(*reinterpret_cast<limb_bytes<4>>(a)),
        "m"(*reinterpret_cast<limb_bytes<4>>(b)), "m"(*reinterpret_cast<limb_bytes<4>>(p))
      : "rdx", "cc");
  out[0] = r4;
  out[1] = r0;
  out[2] = r1;
  out[3] = r2;
}

#undef ZK_X86_ROW4
#undef ZK_X86_ROW6
#undef ZK_X86_STEP

}  // namespace zk::x86
#endif

namespace zk {
// Whether field products run on the MULX/ADX path (for benchmark context and reports).
inline bool mulx_adx_in_use() noexcept {
#if defined(ZK_MULX_ASM)
  return x86::use_mulx_adx;
#else
  return false;
#endif
}
}  // namespace zk
