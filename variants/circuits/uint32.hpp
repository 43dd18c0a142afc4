// 32-bit words as 32 booleans (bellman's UInt32): rotations, xor, ch, maj and bit-decomposed addition.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <utility>

#include "circuits/boolean.hpp"

namespace zk::circuits {

class uint32_gadget {
 public:
  static uint32_gadget constant(uint32_t v) {
    uint32_gadget out;
    for (int i = 0; i < 32; ++i) out.bits_[i] = boolean::constant((v >> i) & 1);
    out.value_ = v;
    return out;
  }

  template <r1cs::constraint_system CS>
  static uint32_gadget alloc(CS& cs, uint32_t v) {
    uint32_gadget out;
    for (int i = 0; i < 32; ++i) out.bits_[i] = boolean::alloc(cs, (v >> i) & 1);
    out.value_ = v;
    return out;
  }

  // Bits given most significant first (SHA-256's byte order), as the gadget reads its message.
  static uint32_gadget from_bits_be(std::span<const boolean, 32> be) {
    uint32_gadget out;
    uint32_t v = 0;
    for (int i = 0; i < 32; ++i) {
      out.bits_[i] = be[31 - i];
      v |= uint32_t{be[31 - i].value()} << i;
    }
    out.value_ = v;
    return out;
  }

  uint32_t value() const { return value_; }
  const boolean& bit(int i) const { return bits_[i]; }  // little-endian

  uint32_gadget rotr(int n) const {
    uint32_gadget out;
    for (int i = 0; i < 32; ++i) out.bits_[i] = bits_[(i + n) % 32];
    out.value_ = std::rotr(value_, n);
    return out;
  }

  uint32_gadget shr(int n) const {
    uint32_gadget out;
    for (int i = 0; i < 32; ++i) out.bits_[i] = i + n < 32 ? bits_[i + n] : boolean::constant(false);
    out.value_ = value_ >> n;
    return out;
  }

  template <r1cs::constraint_system CS>
  uint32_gadget xor_(CS& cs, const uint32_gadget& o) const {
    uint32_gadget out;
    for (int i = 0; i < 32; ++i) out.bits_[i] = boolean::xor_(cs, bits_[i], o.bits_[i]);
    out.value_ = value_ ^ o.value_;
    return out;
  }

  template <r1cs::constraint_system CS>
  static uint32_gadget sha256_ch(CS& cs, const uint32_gadget& a, const uint32_gadget& b, const uint32_gadget& c) {
    uint32_gadget out;
    for (int i = 0; i < 32; ++i) out.bits_[i] = boolean::sha256_ch(cs, a.bits_[i], b.bits_[i], c.bits_[i]);
    out.value_ = (a.value_ & b.value_) ^ (~a.value_ & c.value_);
    return out;
  }

  template <r1cs::constraint_system CS>
  static uint32_gadget sha256_maj(CS& cs, const uint32_gadget& a, const uint32_gadget& b, const uint32_gadget& c) {
    uint32_gadget out;
    for (int i = 0; i < 32; ++i) out.bits_[i] = boolean::sha256_maj(cs, a.bits_[i], b.bits_[i], c.bits_[i]);
    out.value_ = (a.value_ & b.value_) ^ (a.value_ & c.value_) ^ (b.value_ & c.value_);
    return out;
  }

  // Σ operands mod 2³²: the weighted sum of every operand bit equals the weighted sum of freshly
  // allocated result bits, wide enough for the carries — one constraint (Σ operands) · 1 = (Σ result),
  // the wide rows of the SHA-256 circuit (bellman's UInt32::addmany), plus one booleanity per bit.
  template <r1cs::constraint_system CS>
  static uint32_gadget addmany(CS& cs, std::span<const uint32_gadget> operands) {
    using lc = typename CS::lc;
    uint64_t sum = 0;
    bool all_constant = true;
    lc operand_lc = lc::zero();
    for (const auto& op : operands) {
      sum += op.value_;
      fr coeff = fr::one();
      for (int i = 0; i < 32; ++i) {
        const boolean& b = op.bits_[i];
        all_constant = all_constant && b.is_constant();
        operand_lc = std::move(operand_lc) + b.lc<lc>(coeff);
        coeff = coeff.dbl();
      }
    }
    if (all_constant) return constant(static_cast<uint32_t>(sum));
    const uint64_t max_sum = uint64_t{0xffffffff} * operands.size();
    const int result_bits = 64 - std::countl_zero(max_sum);
    uint32_gadget out;
    lc result_lc = lc::zero();
    fr coeff = fr::one();
    for (int i = 0; i < result_bits; ++i) {
      const allocated_bit b = allocated_bit::alloc(cs, (sum >> i) & 1);
      result_lc = std::move(result_lc) + coeff * b.var;
      if (i < 32) out.bits_[i] = boolean::is(b);
      coeff = coeff.dbl();
    }
    r1cs::enforce(
        cs, [] { return "modular addition"; }, [&](lc z) { return std::move(z) + operand_lc; },
        [](lc z) { return std::move(z) + CS::one(); }, [&](lc) { return std::move(result_lc); });
    out.value_ = static_cast<uint32_t>(sum);
    return out;
  }

 private:
  std::array<boolean, 32> bits_;
  uint32_t value_ = 0;
};

}  // namespace zk::circuits
