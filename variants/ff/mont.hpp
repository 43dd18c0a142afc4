// Prime-field element in Montgomery form over 64-bit little-endian limbs, one code path for CPU and CUDA.
//
// `P` describes the field:
//   static constexpr size_t nlimbs;                   limbs of the modulus
//   static constexpr uint64_t modulus[nlimbs];        p, little-endian
//   static constexpr uint64_t r2[nlimbs];             R² mod p, R = 2^(64·nlimbs)
//   static constexpr uint64_t one[nlimbs];            R mod p (1 in Montgomery form)
//   static constexpr uint64_t inv;                    −p⁻¹ mod 2⁶⁴
// optionally (fields with a large 2-adic subgroup, e.g. Fr):
//   static constexpr uint32_t two_adicity;            s with 2^s ‖ p − 1
//   static constexpr uint64_t generator;              a quadratic non-residue g
//   static constexpr uint64_t root_of_unity[nlimbs];  g^((p−1)/2^s), canonical
// Plain arrays, read in device code only through constant(): nvcc has no device copy of a host
// static member, but a constexpr local copy folds into immediates.
//
// Every element is kept fully reduced (limbs < p), so equality is limb equality. The arithmetic is
// ZK_HD, constexpr and branch-free on data; the host-only helpers at the bottom (sqrt, batch
// inversion, bytes, decimal, random) use the standard library.
//
//   zk::fr a = zk::fr::from_u64(3), b = a.inverse();
//   assert(a * b == zk::fr::one());
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "ff/hd.hpp"
#include "ff/limb.hpp"
#include "ff/mont_x86.hpp"

namespace zk {

template <class P>
struct mont_t {
  using params = P;
  static constexpr size_t nlimbs = P::nlimbs;
  static constexpr size_t nbytes = nlimbs * 8;

  // The no-carry CIOS below needs a spare top bit: p's top limb < (2⁶⁴ − 1)/2 − 1
  // (gnark-crypto, "Faster big-integer modular multiplication for most moduli", ePrint 2022/1400 §2).
  static_assert(P::modulus[nlimbs - 1] < 0x7fffffffffffffffULL - 1, "modulus needs a spare top bit");

  uint64_t limbs[nlimbs];

  struct limbs_t {
    uint64_t v[nlimbs];
  };
  // A constexpr copy of a parameter array (or anything indexable at compile time), usable on the
  // device (see above).
  template <class A>
  ZK_HD static constexpr limbs_t constant(const A& a) {
    return copy_limbs(a, std::make_index_sequence<nlimbs>{});
  }

  ZK_HD static constexpr mont_t zero() { return mont_t{}; }

  ZK_HD static constexpr mont_t one() {
    constexpr limbs_t l = constant(P::one);
    return from_limbs(l);
  }

  ZK_HD static constexpr mont_t from_u64(uint64_t v) {
    mont_t c{};
    c.limbs[0] = v;  // every modulus here exceeds 2⁶⁴, so v is already reduced
    constexpr limbs_t r2 = constant(P::r2);
    return c * from_limbs(r2);
  }

  // `c` must hold nlimbs limbs of a value < p.
  ZK_HD static constexpr mont_t from_canonical(const uint64_t* c) {
    mont_t x{};
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) x.limbs[i] = c[i];
    constexpr limbs_t r2 = constant(P::r2);
    return x * from_limbs(r2);
  }

  ZK_HD constexpr void to_canonical(uint64_t* out) const {
    mont_t unit{};
    unit.limbs[0] = 1;
    const mont_t c = *this * unit;  // x·R · 1 · R⁻¹ = x
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) out[i] = c.limbs[i];
  }

  ZK_HD constexpr bool is_zero() const {
    uint64_t acc = 0;
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) acc |= limbs[i];
    return acc == 0;
  }

  ZK_HD friend constexpr bool operator==(const mont_t& a, const mont_t& b) {
    uint64_t acc = 0;
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) acc |= a.limbs[i] ^ b.limbs[i];
    return acc == 0;
  }
  ZK_HD friend constexpr bool operator!=(const mont_t& a, const mont_t& b) { return !(a == b); }

  // a + b < 2p < 2^(64·nlimbs): add, then subtract p and keep the difference unless it borrowed.
  ZK_HD friend constexpr mont_t operator+(const mont_t& a, const mont_t& b) {
    mont_t s{};
    uint64_t carry = 0;
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) s.limbs[i] = limb::adc(a.limbs[i], b.limbs[i], carry, carry);
    return s.reduce_once();
  }

  // a − b, plus p masked in when it borrowed.
  ZK_HD friend constexpr mont_t operator-(const mont_t& a, const mont_t& b) {
    mont_t d{};
    uint64_t borrow = 0;
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) d.limbs[i] = limb::sbb(a.limbs[i], b.limbs[i], borrow, borrow);
    const uint64_t mask = 0 - borrow;
    constexpr limbs_t mod = constant(P::modulus);
    uint64_t carry = 0;
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) d.limbs[i] = limb::adc(d.limbs[i], mod.v[i] & mask, carry, carry);
    return d;
  }

  ZK_HD constexpr mont_t operator-() const { return zero() - *this; }

  // Montgomery product a·b·R⁻¹ mod p: CIOS (Koç, Acar, Kaliski, "Analyzing and comparing Montgomery
  // multiplication algorithms", IEEE Micro 1996) in the no-carry form of ePrint 2022/1400 — the
  // spare top bit keeps the running sum within nlimbs words, so the two extra words of plain CIOS go.
  ZK_HD friend constexpr mont_t operator*(const mont_t& a, const mont_t& b) {
#if defined(ZK_MULX_ASM)
    // The same CIOS with MULX/ADCX/ADOX where the CPU has them (mont_x86.hpp).
    if constexpr (nlimbs == 4 || nlimbs == 6) {
      if (!std::is_constant_evaluated() && x86::use_mulx_adx) {
        mont_t r;
        if constexpr (nlimbs == 6) x86::mont_mul6(r.limbs, a.limbs, b.limbs, P::modulus, P::inv);
        else x86::mont_mul4(r.limbs, a.limbs, b.limbs, P::modulus, P::inv);
        return r.reduce_once();
      }
    }
#endif
    constexpr limbs_t mod = constant(P::modulus);
    mont_t t{};
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) {
      uint64_t A = 0, C = 0;
      t.limbs[0] = limb::mac(a.limbs[0], b.limbs[i], t.limbs[0], 0, A);
      const uint64_t m = t.limbs[0] * P::inv;
      limb::mac(m, mod.v[0], t.limbs[0], 0, C);
      ZK_UNROLL
      for (size_t j = 1; j < nlimbs; ++j) {
        t.limbs[j] = limb::mac(a.limbs[j], b.limbs[i], t.limbs[j], A, A);
        t.limbs[j - 1] = limb::mac(m, mod.v[j], t.limbs[j], C, C);
      }
      t.limbs[nlimbs - 1] = C + A;
    }
    return t.reduce_once();
  }

  ZK_HD constexpr mont_t& operator+=(const mont_t& b) { return *this = *this + b; }
  ZK_HD constexpr mont_t& operator-=(const mont_t& b) { return *this = *this - b; }
  ZK_HD constexpr mont_t& operator*=(const mont_t& b) { return *this = *this * b; }

  ZK_HD constexpr mont_t sqr() const { return *this * *this; }
  ZK_HD constexpr mont_t dbl() const { return *this + *this; }

  // Left-to-right square-and-multiply; the exponent is public (branches on its bits only).
  ZK_HD constexpr mont_t pow(const uint64_t* exp, size_t exp_nlimbs) const {
    mont_t r = one();
    for (size_t i = exp_nlimbs; i-- > 0;) {
      for (int bit = 63; bit >= 0; --bit) {
        r = r.sqr();
        if ((exp[i] >> bit) & 1) r *= *this;
      }
    }
    return r;
  }

  ZK_HD constexpr mont_t pow(uint64_t exp) const { return pow(&exp, 1); }

  // Fermat: x^(p−2) = x⁻¹ for x ≠ 0; 0 maps to 0.
  ZK_HD constexpr mont_t inverse() const {
    constexpr limbs_t mod = constant(P::modulus);
    limbs_t e = mod;
    e.v[0] -= 2;  // the low limb of every odd prime modulus here is ≥ 2
    return pow(e.v, nlimbs);
  }

  // The fixed generator of the 2-adic subgroup and the non-residue it comes from (Fr only).
  ZK_HD static constexpr mont_t root_of_unity()
    requires requires { P::two_adicity; }
  {
    constexpr limbs_t w = constant(P::root_of_unity);
    return from_canonical(w.v);
  }
  ZK_HD static constexpr mont_t generator()
    requires requires { P::generator; }
  {
    return from_u64(P::generator);
  }

  // ---- host-only helpers -------------------------------------------------------------------------

  // Square root, or nothing for a non-residue. p ≡ 3 mod 4: x^((p+1)/4). Otherwise Tonelli–Shanks
  // (Cohen, "A Course in Computational Algebraic Number Theory", Alg. 1.5.1) with z = root_of_unity.
  std::optional<mont_t> sqrt() const {
    if (is_zero()) return zero();
    mont_t x{};
    if constexpr (requires { P::two_adicity; }) {
      std::array<uint64_t, nlimbs> t = modulus_array();  // t = (p − 1) / 2^s, odd
      t[0] -= 1;
      shift_right(t, P::two_adicity);
      std::array<uint64_t, nlimbs> half = t;  // (t − 1) / 2
      shift_right(half, 1);
      const mont_t w = pow(half.data(), nlimbs);
      x = *this * w;          // a^((t+1)/2)
      mont_t b = x * w;       // a^t, lies in the 2^s subgroup
      mont_t z = root_of_unity();
      uint32_t v = P::two_adicity;
      while (b != one()) {
        uint32_t k = 0;
        for (mont_t b2k = b; b2k != one(); b2k = b2k.sqr()) {
          if (++k == v) return std::nullopt;  // order 2^v: a is a non-residue
        }
        mont_t w2 = z;
        for (uint32_t i = 0; i + k + 1 < v; ++i) w2 = w2.sqr();
        z = w2.sqr();
        b *= z;
        x *= w2;
        v = k;
      }
    } else {
      static_assert((P::modulus[0] & 3) == 3, "no square-root method for this modulus");
      std::array<uint64_t, nlimbs> e = modulus_array();  // (p + 1) / 4
      shift_right(e, 2);
      add_small(e, 1);  // p = 4q + 3 → (p + 1)/4 = q + 1
      x = pow(e.data(), nlimbs);
    }
    if (x.sqr() != *this) return std::nullopt;
    return x;
  }

  // Montgomery's trick: n inversions for one inversion and 3(n − 1) products; zeros stay zero.
  static void batch_inverse(std::span<mont_t> xs) {
    std::vector<mont_t> prefix(xs.size());
    mont_t acc = one();
    for (size_t i = 0; i < xs.size(); ++i) {
      prefix[i] = acc;
      if (!xs[i].is_zero()) acc *= xs[i];
    }
    mont_t inv = acc.inverse();
    for (size_t i = xs.size(); i-- > 0;) {
      if (xs[i].is_zero()) continue;
      const mont_t xi = xs[i];
      xs[i] = inv * prefix[i];
      inv *= xi;
    }
  }

  std::array<uint8_t, nbytes> to_bytes_be() const {
    uint64_t c[nlimbs];
    to_canonical(c);
    std::array<uint8_t, nbytes> out{};
    for (size_t i = 0; i < nbytes; ++i) out[nbytes - 1 - i] = static_cast<uint8_t>(c[i / 8] >> (8 * (i % 8)));
    return out;
  }

  // Canonical big-endian bytes; a value ≥ p is rejected.
  static std::optional<mont_t> from_bytes_be(std::span<const uint8_t, nbytes> bytes) {
    std::array<uint64_t, nlimbs> c{};
    for (size_t i = 0; i < nbytes; ++i) c[i / 8] |= static_cast<uint64_t>(bytes[nbytes - 1 - i]) << (8 * (i % 8));
    if (!less_than_modulus(c)) return std::nullopt;
    return from_canonical(c.data());
  }

  std::string to_decimal() const {
    std::array<uint64_t, nlimbs> c{};
    to_canonical(c.data());
    std::string digits;
    do {
      uint64_t rem = div_small(c, 10);
      digits.push_back(static_cast<char>('0' + rem));
    } while (!all_zero(c));
    return {digits.rbegin(), digits.rend()};
  }

  // Decimal digits only; a value ≥ p or an empty string is rejected.
  static std::optional<mont_t> from_decimal(std::string_view s) {
    if (s.empty()) return std::nullopt;
    std::array<uint64_t, nlimbs> c{};
    for (char ch : s) {
      if (ch < '0' || ch > '9') return std::nullopt;
      uint64_t carry = static_cast<uint64_t>(ch - '0');
      for (auto& l : c) l = limb::mac(l, 10, carry, 0, carry);
      if (carry != 0) return std::nullopt;
    }
    if (!less_than_modulus(c)) return std::nullopt;
    return from_canonical(c.data());
  }

  // "0x" and 2·nbytes lower-case hex digits of the canonical value.
  std::string to_hex() const {
    static constexpr char digit[] = "0123456789abcdef";
    std::string out = "0x";
    for (uint8_t byte : to_bytes_be()) {
      out.push_back(digit[byte >> 4]);
      out.push_back(digit[byte & 15]);
    }
    return out;
  }

  // Uniform over [0, p): draw bit_length(p) random bits, reject values ≥ p (expected < 2 draws).
  static mont_t random(std::mt19937_64& rng) {
    constexpr uint64_t top_mask = top_bit_mask();
    std::array<uint64_t, nlimbs> c{};
    do {
      for (auto& l : c) l = rng();
      c[nlimbs - 1] &= top_mask;
    } while (!less_than_modulus(c));
    return from_canonical(c.data());
  }

 private:
  template <class A, size_t... I>
  ZK_HD static constexpr limbs_t copy_limbs(const A& a, std::index_sequence<I...>) {
    return {{a[I]...}};
  }

  ZK_HD static constexpr mont_t from_limbs(const limbs_t& l) {
    mont_t x{};
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) x.limbs[i] = l.v[i];
    return x;
  }

  static std::array<uint64_t, nlimbs> modulus_array() {
    std::array<uint64_t, nlimbs> m{};
    for (size_t i = 0; i < nlimbs; ++i) m[i] = P::modulus[i];
    return m;
  }

  // x < 2p → x mod p, by subtracting p and keeping x when that borrowed (mask select, no branch).
  ZK_HD constexpr mont_t reduce_once() const {
    constexpr limbs_t mod = constant(P::modulus);
    mont_t d{};
    uint64_t borrow = 0;
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) d.limbs[i] = limb::sbb(limbs[i], mod.v[i], borrow, borrow);
    const uint64_t keep = 0 - borrow;
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) d.limbs[i] = (limbs[i] & keep) | (d.limbs[i] & ~keep);
    return d;
  }

  static constexpr uint64_t top_bit_mask() {
    uint64_t top = P::modulus[nlimbs - 1];
    uint64_t mask = 0;
    while (mask < top) mask = (mask << 1) | 1;
    return mask;
  }

  static bool less_than_modulus(const std::array<uint64_t, nlimbs>& c) {
    uint64_t borrow = 0;
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) limb::sbb(c[i], P::modulus[i], borrow, borrow);
    return borrow != 0;
  }

  static bool all_zero(const std::array<uint64_t, nlimbs>& c) {
    for (uint64_t l : c)
      if (l != 0) return false;
    return true;
  }

  static void shift_right(std::array<uint64_t, nlimbs>& c, uint32_t bits) {
    for (; bits >= 64; bits -= 64) {
      for (size_t i = 0; i + 1 < nlimbs; ++i) c[i] = c[i + 1];
      c[nlimbs - 1] = 0;
    }
    if (bits == 0) return;
    ZK_UNROLL
    for (size_t i = 0; i < nlimbs; ++i) {
      const uint64_t next = i + 1 < nlimbs ? c[i + 1] : 0;
      c[i] = (c[i] >> bits) | (next << (64 - bits));
    }
  }

  static void add_small(std::array<uint64_t, nlimbs>& c, uint64_t v) {
    uint64_t carry = v;
    for (auto& l : c) l = limb::adc(l, 0, carry, carry);
  }

  // c ← c / d, returns c mod d (schoolbook, one 128/64 division per limb).
  static uint64_t div_small(std::array<uint64_t, nlimbs>& c, uint64_t d) {
    unsigned __int128 rem = 0;
    for (size_t i = nlimbs; i-- > 0;) {
      const unsigned __int128 cur = (rem << 64) | c[i];
      c[i] = static_cast<uint64_t>(cur / d);
      rem = cur % d;
    }
    return static_cast<uint64_t>(rem);
  }
};

}  // namespace zk
