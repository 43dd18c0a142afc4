// BLS12-381 Fp in Montgomery form on 12×32-bit limbs: the device's field (PTX carry chains), portable on the host.
//
// Why 32-bit limbs: Hopper and Ampere have no 64-bit integer multiplier; variants/ff/mont.hpp's
// 6×64 CIOS compiles to 64-bit products emulated from 32-bit IMADs, with its carries recomputed by
// compares. Here a limb product is one 32×32 multiply-add (IMAD / IMAD.HI on the device) and the
// carries ride the condition-code flag of PTX `mad.lo.cc` / `madc.hi.cc` chains.
//
// Same field, same Montgomery radix R = 2^384 = 2^(32·12) = 2^(64·6), same fully reduced form
// (limbs < p): the 12 limbs are the 6 limbs of zk::fp cut in halves, little-endian, so from_fp /
// to_fp only move words and every result equals the 64-bit path's bit for bit
// (tests/gpu/mont32_test.cpp checks that on the host; tests/gpu/field_test.cpp checks the PTX
// against the portable code on the device).
//
//   const zk::gpu::fp32 a = zk::gpu::fp32::from_fp(x), b = zk::gpu::fp32::from_fp(y);
//   assert((a * b).to_fp() == x * y && a.sqr().to_fp() == x.sqr());
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/fp.hpp"
#include "ff/hd.hpp"

namespace zk::gpu {

struct fp32 {
  static constexpr size_t nlimbs = 12;
  uint32_t limbs[nlimbs];

  struct words {
    uint32_t v[nlimbs];
  };
  // A 6×64 parameter of fp_params as 12×32 words; evaluated at compile time (a constexpr local in
  // device code folds into immediates, as mont.hpp's constant()).
  ZK_HD static constexpr words split(const uint64_t (&w)[6]) {
    words out{};
    for (size_t i = 0; i < nlimbs; ++i) out.v[i] = static_cast<uint32_t>(w[i / 2] >> (32 * (i % 2)));
    return out;
  }
  // −p⁻¹ mod 2³²: the low word of −p⁻¹ mod 2⁶⁴.
  static constexpr uint32_t inv = static_cast<uint32_t>(fp_params::inv);

  // The no-carry CIOS needs a spare top bit, as mont.hpp's (ePrint 2022/1400 §2).
  static_assert(static_cast<uint32_t>(fp_params::modulus[5] >> 32) < 0x7fffffffu - 1, "modulus needs a spare top bit");

  ZK_HD static constexpr fp32 zero() { return fp32{}; }
  ZK_HD static constexpr fp32 one() {
    constexpr words w = split(fp_params::one);
    return from_words(w);
  }

  ZK_HD static constexpr fp32 from_fp(const fp& x) {
    fp32 r{};
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) r.limbs[i] = static_cast<uint32_t>(x.limbs[i / 2] >> (32 * (i % 2)));
    return r;
  }
  ZK_HD constexpr fp to_fp() const {
    fp r{};
    ZK_UNROLL
    for (size_t i = 0; i < 6; ++i) r.limbs[i] = uint64_t{limbs[2 * i]} | uint64_t{limbs[2 * i + 1]} << 32;
    return r;
  }

  // Fully reduced, so equal values have equal words: the 64-bit comparison on the same words
  // (to_fp only renames registers).
  ZK_HD friend constexpr bool operator==(const fp32& a, const fp32& b) { return a.to_fp() == b.to_fp(); }
  ZK_HD friend constexpr bool operator!=(const fp32& a, const fp32& b) { return !(a == b); }
  ZK_HD constexpr bool is_zero() const { return to_fp().is_zero(); }

  // a + b < 2p < 2^384, then one conditional subtraction.
  ZK_HD friend constexpr fp32 operator+(const fp32& a, const fp32& b) {
    fp32 s{};
    uint64_t carry = 0;
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) {
      carry += uint64_t{a.limbs[i]} + b.limbs[i];
      s.limbs[i] = static_cast<uint32_t>(carry);
      carry >>= 32;
    }
    return s.reduce_once();
  }

  // a − b, plus p masked in when it borrowed (no branch on data).
  ZK_HD friend constexpr fp32 operator-(const fp32& a, const fp32& b) {
    fp32 d{};
    const uint32_t mask = 0u - sub_words(a.limbs, b.limbs, d.limbs);
    constexpr words p = split(fp_params::modulus);
    uint64_t carry = 0;
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) {
      carry += uint64_t{d.limbs[i]} + (p.v[i] & mask);
      d.limbs[i] = static_cast<uint32_t>(carry);
      carry >>= 32;
    }
    return d;
  }
  ZK_HD constexpr fp32 operator-() const { return zero() - *this; }

  // a·b·R⁻¹ mod p: the PTX carry chains on the device, the portable CIOS elsewhere (same result).
  ZK_HD friend fp32 operator*(const fp32& a, const fp32& b) {
#ifdef __CUDA_ARCH__
    return mul_ptx(a, b);
#else
    return mul_portable(a, b);
#endif
  }
  // a²·R⁻¹ mod p by separate squaring: each cross product aᵢaⱼ (i < j) once, doubled, then the
  // Montgomery reduction — 78 limb products for the square instead of 144 (then 144 for the
  // reduction, as in the product).
  ZK_HD fp32 sqr() const { return sqr_portable(*this); }
  ZK_HD constexpr fp32 dbl() const { return *this + *this; }

  ZK_HD fp32& operator+=(const fp32& b) { return *this = *this + b; }
  ZK_HD fp32& operator-=(const fp32& b) { return *this = *this - b; }
  ZK_HD fp32& operator*=(const fp32& b) { return *this = *this * b; }

  // CIOS (Koç, Acar, Kaliski, IEEE Micro 1996) in the no-carry form of ePrint 2022/1400, one row
  // per 32-bit word of b: t += a·bᵢ, m = t₀·(−p⁻¹) mod 2³², t = (t + m·p) / 2³². Products in
  // 64-bit (on the device one IMAD.WIDE.U32 each).
  ZK_HD static constexpr fp32 mul_portable(const fp32& a, const fp32& b) {
    constexpr words p = split(fp_params::modulus);
    fp32 t{};
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) {
      uint64_t s = uint64_t{a.limbs[0]} * b.limbs[i] + t.limbs[0];
      uint32_t A = static_cast<uint32_t>(s >> 32);
      t.limbs[0] = static_cast<uint32_t>(s);
      const uint32_t m = t.limbs[0] * inv;
      uint64_t u = uint64_t{m} * p.v[0] + t.limbs[0];
      uint32_t C = static_cast<uint32_t>(u >> 32);
      ZK_UNROLL
      for (size_t j = 1; j < nlimbs; ++j) {
        s = uint64_t{a.limbs[j]} * b.limbs[i] + t.limbs[j] + A;
        A = static_cast<uint32_t>(s >> 32);
        t.limbs[j] = static_cast<uint32_t>(s);
        u = uint64_t{m} * p.v[j] + t.limbs[j] + C;
        C = static_cast<uint32_t>(u >> 32);
        t.limbs[j - 1] = static_cast<uint32_t>(u);
      }
      t.limbs[nlimbs - 1] = C + A;  // < 2³²: the spare bit
    }
    return t.reduce_once();
  }

  // Separate operand scanning for a²: T = Σ_{i<j} aᵢaⱼ·2^(32(i+j)), doubled, plus the squares
  // aᵢ², in 24 words; then 12 reduction rows T += m·p·2^(32i) with m = Tᵢ·(−p⁻¹). The result
  // T / 2^384 < (p² + R·p)/R < 2p, so the top carry ends zero and one subtraction finishes.
  ZK_HD static constexpr fp32 sqr_portable(const fp32& a) {
    constexpr words p = split(fp_params::modulus);
    uint32_t T[2 * nlimbs] = {};
    ZK_UNROLL
    for (size_t i = 0; i + 1 < nlimbs; ++i) {
      uint32_t carry = 0;
      ZK_UNROLL
      for (size_t j = i + 1; j < nlimbs; ++j) {
        const uint64_t s = uint64_t{a.limbs[i]} * a.limbs[j] + T[i + j] + carry;
        T[i + j] = static_cast<uint32_t>(s);
        carry = static_cast<uint32_t>(s >> 32);
      }
      T[i + nlimbs] = carry;
    }
    T[2 * nlimbs - 1] = T[2 * nlimbs - 2] >> 31;  // ×2: the cross products are below a²/2
    ZK_UNROLL
    for (size_t k = 2 * nlimbs - 2; k > 0; --k) T[k] = T[k] << 1 | T[k - 1] >> 31;
    T[0] <<= 1;
    uint32_t carry = 0;
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) {
      const uint64_t s = uint64_t{a.limbs[i]} * a.limbs[i] + T[2 * i] + carry;
      T[2 * i] = static_cast<uint32_t>(s);
      const uint64_t s2 = uint64_t{T[2 * i + 1]} + (s >> 32);
      T[2 * i + 1] = static_cast<uint32_t>(s2);
      carry = static_cast<uint32_t>(s2 >> 32);
    }
    uint32_t top = 0;  // the word above T[i + 12] while row i runs
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) {
      const uint32_t m = T[i] * inv;
      uint32_t c = 0;
      ZK_UNROLL
      for (size_t j = 0; j < nlimbs; ++j) {
        const uint64_t s = uint64_t{m} * p.v[j] + T[i + j] + c;
        T[i + j] = static_cast<uint32_t>(s);
        c = static_cast<uint32_t>(s >> 32);
      }
      const uint64_t s = uint64_t{T[i + nlimbs]} + c + top;
      T[i + nlimbs] = static_cast<uint32_t>(s);
      top = static_cast<uint32_t>(s >> 32);
    }
    fp32 r{};
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) r.limbs[i] = T[nlimbs + i];
    return r.reduce_once();
  }

#ifdef __CUDACC__
  // The same CIOS rows as mul_portable with PTX carry chains: t (13 words) += a·bᵢ as two chains,
  // the low halves into t₀…t₁₁ (carry into t₁₂) and the high halves into t₁…t₁₂; then the same
  // for m·p (p as immediates), and the words shift down by one. The carry flag lives only inside
  // one asm statement, so each chain is one. Bounds: t < 2p before a row, so t + a·bᵢ + m·p <
  // 2^415 fits 13 words and no chain's final carry is lost (every partial sum is smaller).
  __device__ static fp32 mul_ptx(const fp32& a, const fp32& b) {
    uint32_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0, t5 = 0, t6 = 0, t7 = 0, t8 = 0, t9 = 0, t10 = 0, t11 = 0,
             t12 = 0;
    const uint32_t* x = a.limbs;
#define ZK_T_OPS                                                                                              \
  "+r"(t0), "+r"(t1), "+r"(t2), "+r"(t3), "+r"(t4), "+r"(t5), "+r"(t6), "+r"(t7), "+r"(t8), "+r"(t9), "+r"(t10), \
      "+r"(t11), "+r"(t12)
#define ZK_LO_CHAIN                                                                                              \
  "mad.lo.cc.u32 %0, %13, %25, %0;\n\tmadc.lo.cc.u32 %1, %14, %25, %1;\n\tmadc.lo.cc.u32 %2, %15, %25, %2;\n\t"      \
  "madc.lo.cc.u32 %3, %16, %25, %3;\n\tmadc.lo.cc.u32 %4, %17, %25, %4;\n\tmadc.lo.cc.u32 %5, %18, %25, %5;\n\t"     \
  "madc.lo.cc.u32 %6, %19, %25, %6;\n\tmadc.lo.cc.u32 %7, %20, %25, %7;\n\tmadc.lo.cc.u32 %8, %21, %25, %8;\n\t"     \
  "madc.lo.cc.u32 %9, %22, %25, %9;\n\tmadc.lo.cc.u32 %10, %23, %25, %10;\n\tmadc.lo.cc.u32 %11, %24, %25, %11;\n\t" \
  "addc.u32 %12, %12, 0;"
#define ZK_HI_CHAIN                                                                                              \
  "mad.hi.cc.u32 %1, %13, %25, %1;\n\tmadc.hi.cc.u32 %2, %14, %25, %2;\n\tmadc.hi.cc.u32 %3, %15, %25, %3;\n\t"      \
  "madc.hi.cc.u32 %4, %16, %25, %4;\n\tmadc.hi.cc.u32 %5, %17, %25, %5;\n\tmadc.hi.cc.u32 %6, %18, %25, %6;\n\t"     \
  "madc.hi.cc.u32 %7, %19, %25, %7;\n\tmadc.hi.cc.u32 %8, %20, %25, %8;\n\tmadc.hi.cc.u32 %9, %21, %25, %9;\n\t"     \
  "madc.hi.cc.u32 %10, %22, %25, %10;\n\tmadc.hi.cc.u32 %11, %23, %25, %11;\n\tmadc.hi.u32 %12, %24, %25, %12;"
#define ZK_A_OPS                                                                                                 \
  "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(x[4]), "r"(x[5]), "r"(x[6]), "r"(x[7]), "r"(x[8]), "r"(x[9]), \
      "r"(x[10]), "r"(x[11])
#define ZK_P_OPS                                                                                                 \
  "n"(p.v[0]), "n"(p.v[1]), "n"(p.v[2]), "n"(p.v[3]), "n"(p.v[4]), "n"(p.v[5]), "n"(p.v[6]), "n"(p.v[7]),         \
      "n"(p.v[8]), "n"(p.v[9]), "n"(p.v[10]), "n"(p.v[11])
    constexpr words p = split(fp_params::modulus);
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) {
      const uint32_t bi = b.limbs[i];
      asm(ZK_LO_CHAIN : ZK_T_OPS : ZK_A_OPS, "r"(bi));
      asm(ZK_HI_CHAIN : ZK_T_OPS : ZK_A_OPS, "r"(bi));
      const uint32_t m = t0 * inv;
      asm(ZK_LO_CHAIN : ZK_T_OPS : ZK_P_OPS, "r"(m));
      asm(ZK_HI_CHAIN : ZK_T_OPS : ZK_P_OPS, "r"(m));
      // t0 is now zero: divide by 2³².
      t0 = t1, t1 = t2, t2 = t3, t3 = t4, t4 = t5, t5 = t6, t6 = t7, t7 = t8, t8 = t9, t9 = t10, t10 = t11,
      t11 = t12, t12 = 0;
    }
#undef ZK_T_OPS
#undef ZK_LO_CHAIN
#undef ZK_HI_CHAIN
#undef ZK_A_OPS
#undef ZK_P_OPS
    const fp32 r{{t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11}};
    return r.reduce_once();
  }
#endif

 private:
  ZK_HD static constexpr fp32 from_words(const words& w) {
    fp32 x{};
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) x.limbs[i] = w.v[i];
    return x;
  }

  // d = a − b over the words; returns the borrow out of the top word (0 or 1). A word's
  // a − b − borrow lies in [−2³², 2³²): bit 63 of its 64-bit difference is the next borrow.
  ZK_HD static constexpr uint32_t sub_words(const uint32_t* a, const uint32_t* b, uint32_t* d) {
    uint32_t borrow = 0;
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) {
      const uint64_t x = uint64_t{a[i]} - b[i] - borrow;
      d[i] = static_cast<uint32_t>(x);
      borrow = static_cast<uint32_t>(x >> 63);
    }
    return borrow;
  }

  // x < 2p → x mod p: subtract p, keep x when that borrowed (mask select, no branch).
  ZK_HD constexpr fp32 reduce_once() const {
    constexpr words p = split(fp_params::modulus);
    fp32 d{};
    const uint32_t keep = 0u - sub_words(limbs, p.v, d.limbs);
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) d.limbs[i] = (limbs[i] & keep) | (d.limbs[i] & ~keep);
    return d;
  }
};

static_assert(sizeof(fp32) == sizeof(fp), "fp32 and fp must have the same size: their words are the same");

}  // namespace zk::gpu
