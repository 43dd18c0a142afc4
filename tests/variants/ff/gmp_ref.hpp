// Test-only bridge between field elements and GMP integers, plus the per-run random seed.
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>

namespace zk::test {

template <class F>
mpz_class to_mpz(const F& x) {
  uint64_t c[F::nlimbs];
  x.to_canonical(c);
  mpz_class z;
  mpz_import(z.get_mpz_t(), F::nlimbs, -1, sizeof(uint64_t), 0, 0, c);
  return z;
}

template <class F>
mpz_class modulus() {
  mpz_class z;
  mpz_import(z.get_mpz_t(), F::nlimbs, -1, sizeof(uint64_t), 0, 0, F::params::modulus);
  return z;
}

// A fresh seed per run unless ABTEST_TEST_SEED pins one; tests print it through SCOPED_TRACE.
inline uint64_t test_seed() {
  if (const char* s = std::getenv("ABTEST_TEST_SEED")) return std::stoull(s);
  return (static_cast<uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
}

}  // namespace zk::test
