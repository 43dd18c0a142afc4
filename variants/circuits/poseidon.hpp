// Poseidon gadget over Fr: the same permutation as poseidon_native, as constraints.
//
// Per S-box three products x² = x·x, x⁴ = x²·x², x⁵ = x⁴·x; after each round's MDS mix every state
// element is allocated with the next round's constant folded in, (Σ M_ij s_j + c) · 1 = s'_i — so
// S-box rows have one-term A and B, and the wide rows sit in A with B = one (the real PoRep keeps
// B narrow: 1.0 terms per row).
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "circuits/num.hpp"
#include "circuits/poseidon_params.hpp"

namespace zk::circuits {

template <r1cs::constraint_system CS>
num poseidon_hash(CS& cs, std::span<const num> inputs) {
  using lc = typename CS::lc;
  const poseidon_params& p = poseidon_params_for(inputs.size());
  const size_t t = p.width;
  r1cs::namespace_guard ns(cs, [t] { return "poseidon t=" + std::to_string(t); });
  std::vector<lc> state(t);
  std::vector<fr> value(t);
  value[0] = p.domain_tag() + p.rc(0, 0);
  state[0] = lc::zero() + value[0] * CS::one();
  for (size_t i = 0; i < inputs.size(); ++i) {
    state[i + 1] = inputs[i].template lc<lc>() + p.rc(0, i + 1) * CS::one();
    value[i + 1] = inputs[i].value() + p.rc(0, i + 1);
  }
  std::vector<variable> mixed_var(t);
  for (size_t r = 0; r < p.rounds(); ++r) {
    const size_t sboxes = p.is_full_round(r) ? t : 1;
    for (size_t i = 0; i < sboxes; ++i) {
      const fr x = value[i], x2 = x.sqr(), x4 = x2.sqr(), x5 = x4 * x;
      const variable v2 = cs.alloc([] { return "x2"; }, x2);
      r1cs::enforce(
          cs, [] { return "x2"; }, [&](lc z) { return std::move(z) + state[i]; },
          [&](lc z) { return std::move(z) + state[i]; }, [&](lc z) { return std::move(z) + v2; });
      const variable v4 = cs.alloc([] { return "x4"; }, x4);
      r1cs::enforce(
          cs, [] { return "x4"; }, [&](lc z) { return std::move(z) + v2; }, [&](lc z) { return std::move(z) + v2; },
          [&](lc z) { return std::move(z) + v4; });
      const variable v5 = cs.alloc([] { return "x5"; }, x5);
      r1cs::enforce(
          cs, [] { return "x5"; }, [&](lc z) { return std::move(z) + v4; },
          [&](lc z) { return std::move(z) + state[i]; }, [&](lc z) { return std::move(z) + v5; });
      state[i] = lc::zero() + v5;
      value[i] = x5;
    }
    const bool last = r + 1 == p.rounds();
    std::vector<lc> next(t);
    std::vector<fr> next_value(t);
    for (size_t i = 0; i < t; ++i) {
      lc mixed = lc::zero();
      fr v = last ? fr::zero() : p.rc(r + 1, i);
      for (size_t j = 0; j < t; ++j) {
        mixed = std::move(mixed) + p.m(i, j) * state[j];
        v += p.m(i, j) * value[j];
      }
      if (!last) mixed = std::move(mixed) + p.rc(r + 1, i) * CS::one();
      const variable s = cs.alloc([] { return "mix"; }, v);
      r1cs::enforce(
          cs, [] { return "mix"; }, [&](lc) { return std::move(mixed); }, [](lc z) { return std::move(z) + CS::one(); },
          [&](lc z) { return std::move(z) + s; });
      next[i] = lc::zero() + s;
      mixed_var[i] = s;
      next_value[i] = v;
    }
    state.swap(next);
    value.swap(next_value);
  }
  return num::from_variable(mixed_var[1], value[1]);
}

}  // namespace zk::circuits
