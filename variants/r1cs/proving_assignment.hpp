// The prover's constraint system (bellman's ProvingAssignment): evaluates A, B, C of every
// constraint into vectors a, b, c and records which variables A and B touch (densities).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "ff/fr.hpp"
#include "r1cs/density_tracker.hpp"
#include "r1cs/linear_combination.hpp"
#include "r1cs/sizes.hpp"
#include "r1cs/variable.hpp"

namespace zk::r1cs {

template <size_t InlineCap = ABTEST_A1_INLINE_CAP>
class proving_assignment {
 public:
  using lc = linear_combination<InlineCap>;

  std::vector<fr> a, b, c;
  std::vector<fr> input_assignment, aux_assignment;
  density_tracker a_aux_density, b_input_density, b_aux_density;

  // A2's mechanism: every vector at its final size before synthesis, so none of them grows.
  void reserve(const size_hint& h) {
    a.reserve(h.num_constraints);
    b.reserve(h.num_constraints);
    c.reserve(h.num_constraints);
    input_assignment.reserve(h.num_inputs);
    aux_assignment.reserve(h.num_aux);
    a_aux_density.reserve(h.num_aux);
    b_input_density.reserve(h.num_inputs);
    b_aux_density.reserve(h.num_aux);
  }

  static constexpr variable one() { return variable::one(); }

  template <class NameFn>
  variable alloc(NameFn&&, const fr& value) {
    aux_assignment.push_back(value);
    a_aux_density.add_element();
    b_aux_density.add_element();
    return variable::aux(static_cast<uint32_t>(aux_assignment.size() - 1));
  }

  template <class NameFn>
  variable alloc_input(NameFn&&, const fr& value) {
    input_assignment.push_back(value);
    b_input_density.add_element();
    return variable::input(static_cast<uint32_t>(input_assignment.size() - 1));
  }

  template <class NameFn>
  void enforce(NameFn&&, const lc& la, const lc& lb, const lc& lc_c) {
    a.push_back(eval(la, nullptr, &a_aux_density));
    b.push_back(eval(lb, &b_input_density, &b_aux_density));
    c.push_back(eval(lc_c, nullptr, nullptr));
  }

  template <class NameFn>
  void push_namespace(NameFn&&) {}
  void pop_namespace() {}

  size_t num_constraints() const { return a.size(); }

 private:
  // bellman's eval: skip the product when the coefficient is one, mark touched variables dense.
  fr eval(const lc& l, density_tracker* input_density, density_tracker* aux_density) const {
    fr acc = fr::zero();
    for (const auto& t : l.inputs()) {
      acc += t.coeff == fr::one() ? input_assignment[t.index] : input_assignment[t.index] * t.coeff;
      if (input_density) input_density->inc(t.index);
    }
    for (const auto& t : l.aux()) {
      acc += t.coeff == fr::one() ? aux_assignment[t.index] : aux_assignment[t.index] * t.coeff;
      if (aux_density) aux_density->inc(t.index);
    }
    return acc;
  }
};

}  // namespace zk::r1cs
