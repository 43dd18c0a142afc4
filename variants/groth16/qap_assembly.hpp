// The setup's constraint system (bellman's KeypairAssembly): evaluates every variable's QAP
// polynomials Aⱼ, Bⱼ, Cⱼ at τ while the circuit is synthesized, and digests the matrices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "ff/fr.hpp"
#include "groth16/digest.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/linear_combination.hpp"
#include "r1cs/variable.hpp"

namespace zk::groth16 {

// Aⱼ(τ) = Σᵢ A[i][j]·Lᵢ(τ) with Lᵢ the Lagrange basis of the evaluation domain: constraint i adds
// coeff·Lᵢ(τ) for each of its terms. `touched` flags mirror the prover's density trackers (any term
// counts, even one whose coefficient cancelled to zero), so the query vectors line up with them.
// With an empty `lagrange` span it only counts and digests (the first pass, before n is known).
class qap_assembly {
 public:
  using lc = r1cs::linear_combination<0>;

  struct side {
    std::vector<fr> at, bt, ct;
    std::vector<uint8_t> a_touched, b_touched;
    void add_variable() {
      at.push_back(fr::zero());
      bt.push_back(fr::zero());
      ct.push_back(fr::zero());
      a_touched.push_back(0);
      b_touched.push_back(0);
    }
  };
  side inputs, aux;
  size_t num_constraints = 0;
  digest matrix_digest;

  explicit qap_assembly(std::span<const fr> lagrange) : lagrange_(lagrange) {}

  static constexpr r1cs::variable one() { return r1cs::variable::one(); }

  template <class NameFn>
  r1cs::variable alloc(NameFn&&, const fr&) {
    aux.add_variable();
    return r1cs::variable::aux(static_cast<uint32_t>(aux.at.size() - 1));
  }

  template <class NameFn>
  r1cs::variable alloc_input(NameFn&&, const fr&) {
    inputs.add_variable();
    return r1cs::variable::input(static_cast<uint32_t>(inputs.at.size() - 1));
  }

  template <class NameFn>
  void enforce(NameFn&&, const lc& a, const lc& b, const lc& c) {
    const bool evaluate = !lagrange_.empty();
    if (evaluate && num_constraints >= lagrange_.size())
      throw std::logic_error("qap_assembly: more constraints than the domain holds");
    const fr li = evaluate ? lagrange_[num_constraints] : fr::zero();
    visit(a, li, evaluate, &side::at, &side::a_touched, 1);
    visit(b, li, evaluate, &side::bt, &side::b_touched, 2);
    visit(c, li, evaluate, &side::ct, nullptr, 3);
    ++num_constraints;
  }

  template <class NameFn>
  void push_namespace(NameFn&&) {}
  void pop_namespace() {}

 private:
  void visit(const lc& l, const fr& li, bool evaluate, std::vector<fr> side::*eval,
             std::vector<uint8_t> side::*touched, uint64_t matrix) {
    matrix_digest.add(matrix);
    for (auto [s, part, kind] : {std::tuple{&inputs, &l.inputs(), uint64_t{0}}, std::tuple{&aux, &l.aux(), uint64_t{1}}}) {
      for (const auto& t : *part) {
        matrix_digest.add(kind << 32 | t.index);
        matrix_digest.add(t.coeff);
        if (touched) (s->*touched)[t.index] = 1;
        if (evaluate) (s->*eval)[t.index] += t.coeff * li;
      }
    }
  }

  std::span<const fr> lagrange_;
};

// The prover's layout of one partition: input one, the circuit, then Aᵢ = inputᵢ per input
// (bellman; r1cs::synthesize_into does the same for the proving assignment).
template <class Circuit>
void synthesize_for_setup(const Circuit& circuit, qap_assembly& cs) {
  cs.alloc_input(r1cs::detail::no_name, fr::one());
  circuit.synthesize(cs);
  for (size_t i = 0; i < cs.inputs.at.size(); ++i) {
    cs.enforce(r1cs::detail::no_name, qap_assembly::lc{} + r1cs::variable::input(static_cast<uint32_t>(i)),
               qap_assembly::lc{}, qap_assembly::lc{});
  }
}

}  // namespace zk::groth16
