// A constraint system that only counts: sizes (the A2 size hint) and the shape of A, B and C —
// terms per row, the share of short rows, and A/B aux densities (design §10's target figures).
#pragma once

#include <cstddef>

#include "ff/fr.hpp"
#include "r1cs/density_tracker.hpp"
#include "r1cs/linear_combination.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/sizes.hpp"
#include "r1cs/variable.hpp"

namespace zk::r1cs {

template <size_t InlineCap = ABTEST_A1_INLINE_CAP>
class counting_cs {
 public:
  using lc = linear_combination<InlineCap>;

  static constexpr variable one() { return variable::one(); }

  template <class NameFn>
  variable alloc(NameFn&&, const fr&) {
    a_aux_.add_element();
    b_aux_.add_element();
    return variable::aux(static_cast<uint32_t>(num_aux_++));
  }

  template <class NameFn>
  variable alloc_input(NameFn&&, const fr&) {
    return variable::input(static_cast<uint32_t>(num_inputs_++));
  }

  template <class NameFn>
  void enforce(NameFn&&, const lc& a, const lc& b, const lc& c) {
    const lc* m[3] = {&a, &b, &c};
    for (size_t i = 0; i < 3; ++i) {
      shape_.terms[i] += m[i]->size();
      shape_.short_rows[i] += m[i]->size() <= 3;
    }
    for (const auto& t : a.aux()) a_aux_.inc(t.index);
    for (const auto& t : b.aux()) b_aux_.inc(t.index);
    ++shape_.rows;
  }

  template <class NameFn>
  void push_namespace(NameFn&&) {}
  void pop_namespace() {}

  // Counts as synthesize_into() leaves them: the input one is counted by the caller's alloc_input,
  // and each input adds one constraint after synthesis.
  size_hint hint() const { return {num_inputs_, num_aux_, shape_.rows + num_inputs_}; }

  lc_shape shape() const {
    lc_shape s = shape_;
    s.num_aux = num_aux_;
    s.a_aux_dense = a_aux_.total_density();
    s.b_aux_dense = b_aux_.total_density();
    return s;
  }

 private:
  size_t num_inputs_ = 0, num_aux_ = 0;
  density_tracker a_aux_, b_aux_;
  lc_shape shape_;
};

}  // namespace zk::r1cs
