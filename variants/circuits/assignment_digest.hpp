// The digest of synthesized proving assignments — SHA-256 over every partition's a, b and c in
// order — that must be identical in every variant (design §4 `abtest_digest`).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "circuits/sha256_native.hpp"
#include "r1cs/proving_assignment.hpp"

namespace zk::circuits {

// Hashes the Montgomery limbs (a fixed, variant-independent encoding) as little-endian bytes.
template <size_t InlineCap>
std::string assignment_digest(const std::vector<r1cs::proving_assignment<InlineCap>>& partitions) {
  sha256_hasher h;
  for (const auto& pa : partitions) {
    for (const std::vector<fr>* v : {&pa.a, &pa.b, &pa.c}) {
      static_assert(sizeof(fr) == 32);
      h.update({reinterpret_cast<const uint8_t*>(v->data()), v->size() * sizeof(fr)});
    }
  }
  return to_hex(h.finish());
}

}  // namespace zk::circuits
