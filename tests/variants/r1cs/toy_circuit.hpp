// Test-only circuit: a seeded chain of products and sums with LCs of 1 to 40 terms, inputs included.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "r1cs/constraint_system.hpp"
#include "r1cs/test_cs.hpp"

namespace zk::r1cs::test {

struct toy_circuit {
  uint64_t seed = 1;
  int steps = 300;

  template <constraint_system CS>
  void synthesize(CS& cs) const {
    using lc = typename CS::lc;
    std::mt19937_64 rng(seed);
    std::vector<variable> vars;
    std::vector<fr> vals;
    const fr x0 = fr::random(rng);
    vars.push_back(cs.alloc_input([] { return "x0"; }, x0));
    vals.push_back(x0);
    for (int i = 0; i < steps; ++i) {
      namespace_guard ns(cs, [i] { return "step " + std::to_string(i); });
      // a = Σ c_k·v_k over a random subset (random order: exercises every indexer path)
      lc a;
      fr av = fr::zero();
      const size_t n = 1 + rng() % (rng() % 4 == 0 ? 40 : 3);
      for (size_t k = 0; k < n; ++k) {
        const size_t j = rng() % vars.size();
        const fr c = fr::from_u64(1 + rng() % 5);
        a = std::move(a) + c * vars[j];
        av += c * vals[j];
      }
      const size_t j = rng() % vars.size();
      const fr prod = av * vals[j];
      const variable p = cs.alloc([] { return "product"; }, prod);
      cs.enforce([] { return "a * v = p"; }, a, lc{} + vars[j], lc{} + p);
      vars.push_back(p);
      vals.push_back(prod);
    }
  }
};

/// The circuit synthesized into `cs` as the prover's systems take it (input 0, the constant one,
/// allocated first), and into the test system, which is returned as the reference to compare with.
template <constraint_system CS>
test_cs<0> synthesize_beside_test_cs(const toy_circuit& circuit, CS& cs) {
  cs.alloc_input(detail::no_name, fr::one());
  circuit.synthesize(cs);
  test_cs<0> reference;
  circuit.synthesize(reference);
  return reference;
}

}  // namespace zk::r1cs::test
