// Sha256Domain values as SHA-256 message bits: 32 little-endian bytes, each most significant bit
// first, with the two top bits of the last byte fixed to 0 (Filecoin's truncation to 254 bits).
#pragma once

#include <span>
#include <vector>

#include "circuits/num.hpp"

namespace zk::circuits {

// SHA-order positions of the two bits the truncation clears: byte 31, bits 7 and 6.
inline bool is_truncated_bit(size_t i) { return i == 8 * 31 || i == 8 * 31 + 1; }

// 254 allocated bits (and two constant zeros) holding `value` (< 2²⁵⁴).
template <r1cs::constraint_system CS>
std::vector<boolean> alloc_domain_bits(CS& cs, const fr& value) {
  uint64_t c[4];
  value.to_canonical(c);
  std::vector<boolean> bits(256);
  for (size_t i = 0; i < 256; ++i) {
    const size_t pos = 8 * (i / 8) + (7 - i % 8);  // value bit held at SHA position i
    bits[i] = is_truncated_bit(i) ? boolean::constant(false) : boolean::alloc(cs, (c[pos / 64] >> (pos % 64)) & 1);
  }
  return bits;
}

// A digest's bits with the truncation applied.
inline std::vector<boolean> truncate_digest(std::vector<boolean> bits) {
  bits[8 * 31] = boolean::constant(false);
  bits[8 * 31 + 1] = boolean::constant(false);
  return bits;
}

// The field element the 256 SHA-order bits encode, as one packed variable.
template <r1cs::constraint_system CS>
num pack_domain_bits(CS& cs, std::span<const boolean> bits) {
  std::vector<boolean> le(254);
  for (size_t pos = 0; pos < 254; ++pos) le[pos] = bits[8 * (pos / 8) + (7 - pos % 8)];
  return num::pack_bits(cs, le);
}

}  // namespace zk::circuits
