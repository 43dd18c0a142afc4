// A field-element wire (bellman's AllocatedNum, or a constant): packing bits, equality.
#pragma once

#include <span>
#include <utility>

#include "circuits/boolean.hpp"

namespace zk::circuits {

class num {
 public:
  static num constant(const fr& v) { return num(true, variable::one(), v); }

  template <r1cs::constraint_system CS>
  static num alloc(CS& cs, const fr& v) {
    return num(false, cs.alloc([] { return "num"; }, v), v);
  }

  template <r1cs::constraint_system CS>
  static num alloc_input(CS& cs, const fr& v) {
    return num(false, cs.alloc_input([] { return "input"; }, v), v);
  }

  // A variable the caller has already constrained.
  static num from_variable(variable v, const fr& value) { return num(false, v, value); }

  // Σ 2^i · bit_i (little-endian) as one new variable: (Σ 2^i bit_i) · 1 = x.
  template <r1cs::constraint_system CS>
  static num pack_bits(CS& cs, std::span<const boolean> bits_le) {
    using lc = typename CS::lc;
    lc sum = lc::zero();
    fr coeff = fr::one(), value = fr::zero();
    for (const boolean& b : bits_le) {
      sum = std::move(sum) + b.lc<lc>(coeff);
      if (b.value()) value += coeff;
      coeff = coeff.dbl();
    }
    const num x = alloc(cs, value);
    r1cs::enforce(
        cs, [] { return "pack"; }, [&](lc) { return std::move(sum); }, [](lc z) { return std::move(z) + CS::one(); },
        [&](lc z) { return std::move(z) + x.var_; });
    return x;
  }

  // a = b: (a − b) · 1 = 0.
  template <r1cs::constraint_system CS>
  static void enforce_equal(CS& cs, const num& a, const num& b) {
    using lc = typename CS::lc;
    r1cs::enforce(
        cs, [] { return "equal"; }, [&](lc z) { return std::move(z) + a.lc<lc>() - b.lc<lc>(); },
        [](lc z) { return std::move(z) + CS::one(); }, [](lc z) { return z; });
  }

  const fr& value() const { return value_; }
  bool is_constant() const { return constant_; }
  variable var() const { return var_; }

  // coeff · this wire by value (a constant folds its value into the coefficient of `one`).
  template <class LC>
  LC lc(const fr& coeff = fr::one()) const {
    return LC::zero() + (constant_ ? coeff * value_ : coeff) * var_;
  }

 private:
  num(bool constant, variable var, const fr& v) : constant_(constant), var_(var), value_(v) {}
  bool constant_;
  variable var_;
  fr value_;
};

}  // namespace zk::circuits
