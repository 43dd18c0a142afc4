// Boolean gadgets (bellman's AllocatedBit / Boolean): booleanity, xor, and, and SHA-256's ch and maj.
#pragma once

#include <utility>

#include "ff/fr.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/linear_combination.hpp"

namespace zk::circuits {

using r1cs::variable;

// A variable constrained to {0, 1}.
struct allocated_bit {
  variable var;
  bool value;

  // (1 − a) · a = 0
  template <r1cs::constraint_system CS>
  static allocated_bit alloc(CS& cs, bool v) {
    using lc = typename CS::lc;
    const variable a = cs.alloc([] { return "bit"; }, v ? fr::one() : fr::zero());
    r1cs::enforce(
        cs, [] { return "booleanity"; }, [&](lc z) { return std::move(z) + CS::one() - a; },
        [&](lc z) { return std::move(z) + a; }, [](lc z) { return z; });
    return {a, v};
  }
};

// A bit that is a constant, an allocated bit, or the negation of one — negation and constants
// cost no constraints.
class boolean {
 public:
  enum class kind : uint8_t { constant, is, negated };

  boolean() : boolean(kind::constant, {variable::one(), false}) {}  // the constant false

  static boolean constant(bool v) { return boolean(kind::constant, {variable::one(), v}); }
  static boolean is(allocated_bit b) { return boolean(kind::is, b); }
  template <r1cs::constraint_system CS>
  static boolean alloc(CS& cs, bool v) { return is(allocated_bit::alloc(cs, v)); }

  bool value() const { return kind_ == kind::negated ? !bit_.value : bit_.value; }
  bool is_constant() const { return kind_ == kind::constant; }
  kind get_kind() const { return kind_; }
  variable var() const { return bit_.var; }

  boolean operator!() const {
    switch (kind_) {
      case kind::constant: return constant(!bit_.value);
      case kind::is: return boolean(kind::negated, bit_);
      default: return boolean(kind::is, bit_);
    }
  }

  // coeff · bit as a linear combination over `one`, handed back by value (bellman's Boolean::lc).
  template <class LC>
  LC lc(const fr& coeff) const {
    switch (kind_) {
      case kind::constant: return bit_.value ? LC::zero() + coeff * variable::one() : LC::zero();
      case kind::is: return LC::zero() + coeff * bit_.var;
      default: return LC::zero() + coeff * variable::one() - coeff * bit_.var;
    }
  }

  // a ⊕ b: (2a) · b = a + b − c for two allocated bits; negations move outside, constants fold.
  template <r1cs::constraint_system CS>
  static boolean xor_(CS& cs, const boolean& a, const boolean& b) {
    using lc = typename CS::lc;
    if (a.is_constant()) return a.value() ? !b : b;
    if (b.is_constant()) return b.value() ? !a : a;
    const bool va = a.bit_.value, vb = b.bit_.value, vc = va != vb;
    const variable c = cs.alloc([] { return "xor"; }, vc ? fr::one() : fr::zero());
    r1cs::enforce(
        cs, [] { return "xor"; }, [&](lc z) { return std::move(z) + fr::from_u64(2) * a.bit_.var; },
        [&](lc z) { return std::move(z) + b.bit_.var; },
        [&](lc z) { return std::move(z) + a.bit_.var + b.bit_.var - c; });
    const boolean out = is({c, vc});
    return (a.kind_ == kind::negated) != (b.kind_ == kind::negated) ? !out : out;
  }

  // a ∧ b: one product constraint over the bits' LCs (negations included); constants fold.
  template <r1cs::constraint_system CS>
  static boolean and_(CS& cs, const boolean& a, const boolean& b) {
    using lc = typename CS::lc;
    if (a.is_constant()) return a.value() ? b : constant(false);
    if (b.is_constant()) return b.value() ? a : constant(false);
    const bool v = a.value() && b.value();
    const variable c = cs.alloc([] { return "and"; }, v ? fr::one() : fr::zero());
    r1cs::enforce(
        cs, [] { return "and"; }, [&](lc z) { return std::move(z) + a.lc<lc>(fr::one()); },
        [&](lc z) { return std::move(z) + b.lc<lc>(fr::one()); }, [&](lc z) { return std::move(z) + c; });
    return is({c, v});
  }

  // SHA-256 ch(a, b, c) = (a ∧ b) ⊕ (¬a ∧ c) = c + a(b − c): (b − c) · a = ch − c. The wide side
  // goes in A, as bellman writes it — B stays one term, which is what keeps the real B at 1.0.
  template <r1cs::constraint_system CS>
  static boolean sha256_ch(CS& cs, const boolean& a, const boolean& b, const boolean& c) {
    using lc = typename CS::lc;
    if (a.is_constant()) return a.value() ? b : c;
    if (b.is_constant() && c.is_constant() && b.value() == c.value()) return b;
    const bool v = a.value() ? b.value() : c.value();
    const variable ch = cs.alloc([] { return "ch"; }, v ? fr::one() : fr::zero());
    r1cs::enforce(
        cs, [] { return "ch"; }, [&](lc z) { return std::move(z) + b.lc<lc>(fr::one()) - c.lc<lc>(fr::one()); },
        [&](lc z) { return std::move(z) + a.lc<lc>(fr::one()); },
        [&](lc z) { return std::move(z) + ch - c.lc<lc>(fr::one()); });
    return is({ch, v});
  }

  // SHA-256 maj(a, b, c) = bc + a(b + c − 2bc): bc = b·c, then (2bc − b − c) · a = bc − maj (bellman).
  template <r1cs::constraint_system CS>
  static boolean sha256_maj(CS& cs, const boolean& a, const boolean& b, const boolean& c) {
    using lc = typename CS::lc;
    if (a.is_constant()) return a.value() ? !and_(cs, !b, !c) : and_(cs, b, c);
    if (b.is_constant()) return sha256_maj(cs, b, a, c);
    if (c.is_constant()) return sha256_maj(cs, c, a, b);
    const boolean bc = and_(cs, b, c);
    const int votes = a.value() + b.value() + c.value();
    const bool v = votes >= 2;
    const variable maj = cs.alloc([] { return "maj"; }, v ? fr::one() : fr::zero());
    r1cs::enforce(
        cs, [] { return "maj"; },
        [&](lc z) {
          return std::move(z) + bc.lc<lc>(fr::from_u64(2)) - b.lc<lc>(fr::one()) - c.lc<lc>(fr::one());
        },
        [&](lc z) { return std::move(z) + a.lc<lc>(fr::one()); },
        [&](lc z) { return std::move(z) + bc.lc<lc>(fr::one()) - maj; });
    return is({maj, v});
  }

 private:
  boolean(kind k, allocated_bit b) : kind_(k), bit_(b) {}
  kind kind_;
  allocated_bit bit_;
};

}  // namespace zk::circuits
