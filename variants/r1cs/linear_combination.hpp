// Linear combination Σ coeff·variable: two sorted indexers (inputs, aux); A1 picks their storage.
//
//   using lc = linear_combination<>;          // inline capacity ABTEST_A1_INLINE_CAP
//   cs.enforce(name, lc{} + a, lc{} + b, lc{} + c - fr::from_u64(2) * d);
//
// The operators take the left side by value and hand it back, like bellman's `lc + (coeff, var)`:
// a chain moves one object along — cheap for std::vector, a copy of the inline terms for small_vector.
// The gadgets build every combination this way, as bellperson does (`lc = lc + &bit.lc(one, coeff)`,
// `LinearCombination::zero() + (coeff, v)`, enforce's closures handing their side back by value), so
// A1's inline buffer is copied wherever Rust would memcpy the SmallVec.
#pragma once

#include <cstddef>
#include <utility>

#include "abtest/toggles/a1.hpp"
#include "ff/fr.hpp"
#include "r1cs/indexer.hpp"
#include "r1cs/variable.hpp"

namespace zk::r1cs {

// coeff · variable, written `c * v`.
struct term {
  fr coeff;
  variable var;
};
inline term operator*(const fr& coeff, variable v) { return {coeff, v}; }

template <size_t InlineCap>
class linear_combination;

// coeff · combination, written `c * lc` (bellman's `lc + (coeff, &other)`).
template <size_t InlineCap>
struct scaled_combination {
  fr coeff;
  const linear_combination<InlineCap>& lc;
};

template <size_t InlineCap = ABTEST_A1_INLINE_CAP>
class linear_combination {
 public:
  static constexpr size_t inline_cap = InlineCap;

  linear_combination() = default;
  static linear_combination zero() { return {}; }

  linear_combination& add(const fr& coeff, variable v) {
    (v.kind == var_kind::input ? inputs_ : aux_).add(v.index, coeff);
    return *this;
  }

  // this += coeff · other; ±1 (the common `a + b`, `a − b`) skip the products.
  linear_combination& add(const fr& coeff, const linear_combination& other) {
    const auto scaled = [&coeff](const fr& c) {
      if (coeff == fr::one()) return c;
      if (coeff == -fr::one()) return -c;
      return coeff * c;
    };
    for (const auto& t : other.inputs_) inputs_.add(t.index, scaled(t.coeff));
    for (const auto& t : other.aux_) aux_.add(t.index, scaled(t.coeff));
    return *this;
  }

  friend linear_combination operator+(linear_combination lc, variable v) { return std::move(lc.add(fr::one(), v)); }
  friend linear_combination operator-(linear_combination lc, variable v) { return std::move(lc.add(-fr::one(), v)); }
  friend linear_combination operator+(linear_combination lc, const term& t) { return std::move(lc.add(t.coeff, t.var)); }
  friend linear_combination operator-(linear_combination lc, const term& t) { return std::move(lc.add(-t.coeff, t.var)); }
  friend linear_combination operator+(linear_combination lc, const linear_combination& o) {
    return std::move(lc.add(fr::one(), o));
  }
  friend linear_combination operator-(linear_combination lc, const linear_combination& o) {
    return std::move(lc.add(-fr::one(), o));
  }

  friend linear_combination operator+(linear_combination lc, const scaled_combination<InlineCap>& s) {
    return std::move(lc.add(s.coeff, s.lc));
  }
  friend linear_combination operator-(linear_combination lc, const scaled_combination<InlineCap>& s) {
    return std::move(lc.add(-s.coeff, s.lc));
  }
  friend scaled_combination<InlineCap> operator*(const fr& coeff, const linear_combination& lc) { return {coeff, lc}; }

  const indexer<InlineCap>& inputs() const { return inputs_; }
  const indexer<InlineCap>& aux() const { return aux_; }
  size_t size() const { return inputs_.size() + aux_.size(); }

 private:
  indexer<InlineCap> inputs_;
  indexer<InlineCap> aux_;
};

}  // namespace zk::r1cs
