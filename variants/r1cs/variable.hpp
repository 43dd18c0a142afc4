// A variable of a rank-1 constraint system: a public input or an auxiliary (witness) wire.
#pragma once

#include <cstdint>

namespace zk::r1cs {

enum class var_kind : uint8_t { input, aux };

// As in bellman: input 0 is the constant one, allocated by the prover before synthesis.
struct variable {
  var_kind kind;
  uint32_t index;

  static constexpr variable input(uint32_t i) { return {var_kind::input, i}; }
  static constexpr variable aux(uint32_t i) { return {var_kind::aux, i}; }
  static constexpr variable one() { return input(0); }

  friend constexpr bool operator==(variable, variable) = default;
};

}  // namespace zk::r1cs
