// Scalar multiplication k·P by double-and-add over the bits of a little-endian limb scalar.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/hd.hpp"

namespace zk {

// J: a jacobian_t. Not constant time: scalars here are public or prover-side randomizers of a
// model prover, not keys. k: nlimbs 64-bit limbs, little-endian, canonical (not Montgomery).
template <class J>
ZK_HD J scalar_mul(const J& p, const uint64_t* k, size_t nlimbs) {
  J r = J::identity();
  for (size_t i = nlimbs; i-- > 0;) {
    for (int b = 63; b >= 0; --b) {
      r = r.dbl();
      if ((k[i] >> b) & 1) r += p;
    }
  }
  return r;
}

}  // namespace zk
