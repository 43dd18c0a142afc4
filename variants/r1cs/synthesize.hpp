// Synthesizes the partitions of a proof into proving assignments; A2 decides whether they are
// pre-sized, and — as in the real incident (design §10) — it pre-sizes ALL partitions up front.
//
// A circuit is any type with `template <constraint_system CS> void synthesize(CS&) const`.
//
//   std::vector<porep_circuit> parts = ...;
//   auto pas = synthesize_partitions(std::span(parts), hint);  // levels from the toggle headers
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "abtest/toggles/a2.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/proving_assignment.hpp"

namespace zk::r1cs {

// One partition as bellman's prover does it: input one, the circuit, then A = input_i per input.
template <class Circuit, class Assignment>
void synthesize_into(const Circuit& circuit, Assignment& pa) {
  using lc = typename Assignment::lc;
  pa.alloc_input(detail::no_name, fr::one());
  circuit.synthesize(pa);
  for (size_t i = 0; i < pa.input_assignment.size(); ++i) {
    pa.enforce(detail::no_name, lc{} + variable::input(static_cast<uint32_t>(i)), lc{}, lc{});
  }
}

// Presize = true reserves every partition's vectors from `hint` before the first is synthesized —
// the whole batch's memory is claimed at once; false lets each vector grow as synthesis goes.
template <size_t InlineCap = ABTEST_A1_INLINE_CAP, bool Presize = (ABTEST_A2_PRESIZE != 0), class Circuit,
          size_t Extent>
std::vector<proving_assignment<InlineCap>> synthesize_partitions(std::span<const Circuit, Extent> circuits,
                                                                 const size_hint& hint) {
  std::vector<proving_assignment<InlineCap>> out(circuits.size());
  if constexpr (Presize) {
    for (auto& pa : out) pa.reserve(hint);
  }
  for (size_t i = 0; i < circuits.size(); ++i) synthesize_into(circuits[i], out[i]);
  return out;
}

}  // namespace zk::r1cs
