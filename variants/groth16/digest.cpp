// Two-lane FNV-1a word digest with a splitmix64 finaliser.
#include "groth16/digest.hpp"

#include <cstdio>

namespace zk::groth16 {
namespace {

constexpr uint64_t fnv_prime = 0x100000001b3ULL;

// splitmix64's finaliser (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", 2014).
uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

void digest::add(uint64_t v) {
  for (int i = 0; i < 8; ++i) {
    const uint64_t byte = (v >> (8 * i)) & 0xff;
    lo_ = (lo_ ^ byte) * fnv_prime;
    hi_ = (hi_ ^ (byte + 0x5b)) * fnv_prime;
  }
}

void digest::add(const fr& x) {
  uint64_t c[4];
  x.to_canonical(c);
  for (uint64_t v : c) add(v);
}

void digest::add(std::span<const fr> xs) {
  add(static_cast<uint64_t>(xs.size()));
  for (const fr& x : xs) add(x);
}

std::string digest::hex() const {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(mix(hi_)),
                static_cast<unsigned long long>(mix(lo_ ^ hi_)));
  return buf;
}

}  // namespace zk::groth16
