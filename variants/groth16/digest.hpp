// A 128-bit non-cryptographic digest (two FNV-1a-64 lanes) for equality checks across variants.
//
//   zk::groth16::digest d;
//   d.add(some_fr); d.add(uint64_t{42});
//   std::string hex = d.hex();  // 32 hex digits
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "ff/fr.hpp"

namespace zk::groth16 {

// FNV-1a (Fowler, Noll, Vo; offset basis 0xcbf29ce484222325, prime 0x100000001b3) on 64-bit words,
// twice with different bases, then a final avalanche (splitmix64). Detects accidental differences —
// a different witness, a reordered constraint — not adversarial ones.
class digest {
 public:
  void add(uint64_t v);
  void add(const fr& x);  // canonical value, so Montgomery-form details do not matter
  void add(std::span<const fr> xs);
  std::string hex() const;

 private:
  uint64_t lo_ = 0xcbf29ce484222325ULL;
  uint64_t hi_ = 0x84222325cbf29ce4ULL;
};

}  // namespace zk::groth16
