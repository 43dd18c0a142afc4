// Small circuits for the Groth16 tests: x³ + x + 5 = out, and a chain with several public inputs.
#pragma once

#include <cstddef>
#include <vector>

#include "ff/fr.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/synthesize.hpp"

namespace zk::groth16::testing {

inline std::string no_name() { return {}; }

// The classic example: public out, private x, x³ + x + 5 = out.
struct cubic_circuit {
  fr x;
  fr out() const { return x * x * x + x + fr::from_u64(5); }

  template <class CS>
  void synthesize(CS& cs) const {
    using lc = typename CS::lc;
    const auto out_v = cs.alloc_input(no_name, out());
    const auto xv = cs.alloc(no_name, x);
    const auto x2 = cs.alloc(no_name, x * x);
    cs.enforce(no_name, lc{} + xv, lc{} + xv, lc{} + x2);
    const auto x3 = cs.alloc(no_name, x * x * x);
    cs.enforce(no_name, lc{} + x2, lc{} + xv, lc{} + x3);
    cs.enforce(no_name, lc{} + x3 + xv + fr::from_u64(5) * CS::one(), lc{} + CS::one(), lc{} + out_v);
  }
};

// A chain of `length` multiplications yᵢ₊₁ = yᵢ·(yᵢ + kᵢ) with public seed y₀ and public result,
// plus `extra_inputs` public inputs folded in: enough rows for multi-chunk NTTs and MSMs, with
// B touching only part of the aux (sparse B densities, as in the real circuit).
struct chain_circuit {
  fr y0;
  size_t length = 100;
  size_t extra_inputs = 2;

  std::vector<fr> public_inputs() const {
    std::vector<fr> pub = {y0};
    fr y = y0;
    for (size_t i = 0; i < length; ++i) y = y * (y + fr::from_u64(i));
    for (size_t e = 0; e < extra_inputs; ++e) pub.push_back(fr::from_u64(1000 + e));
    pub.push_back(y);
    return pub;
  }

  template <class CS>
  void synthesize(CS& cs) const {
    using lc = typename CS::lc;
    const auto pub = public_inputs();
    auto yv = cs.alloc_input(no_name, y0);
    fr y = y0;
    for (size_t e = 0; e < extra_inputs; ++e) {
      const auto in = cs.alloc_input(no_name, pub[1 + e]);
      const auto copy = cs.alloc(no_name, pub[1 + e]);
      cs.enforce(no_name, lc{} + in, lc{} + CS::one(), lc{} + copy);
    }
    for (size_t i = 0; i < length; ++i) {
      const fr next = y * (y + fr::from_u64(i));
      const auto nv = cs.alloc(no_name, next);
      cs.enforce(no_name, lc{} + yv, lc{} + yv + fr::from_u64(i) * CS::one(), lc{} + nv);
      yv = nv;
      y = next;
    }
    const auto result = cs.alloc_input(no_name, y);
    cs.enforce(no_name, lc{} + yv, lc{} + CS::one(), lc{} + result);
  }
};

// A synthesized partition the way the benchmarks make it.
template <class Circuit>
r1cs::proving_assignment<0> synthesize_one(const Circuit& c) {
  r1cs::proving_assignment<0> pa;
  r1cs::synthesize_into(c, pa);
  return pa;
}

// The public inputs a verifier sees: every input but the leading one.
inline std::vector<fr> public_of(const r1cs::proving_assignment<0>& pa) {
  return {pa.input_assignment.begin() + 1, pa.input_assignment.end()};
}

}  // namespace zk::groth16::testing
