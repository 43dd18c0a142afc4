// NTT against the naive O(n²) DFT, inverse and coset round trips, roots of unity.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ntt/ntt.hpp"

namespace zk {
namespace {

std::vector<fr> naive_dft(const std::vector<fr>& a, const fr& root) {
  std::vector<fr> out(a.size(), fr::zero());
  fr wk = fr::one();  // root^k
  for (size_t k = 0; k < a.size(); ++k) {
    fr w = fr::one();  // root^(jk)
    for (size_t j = 0; j < a.size(); ++j) {
      out[k] += a[j] * w;
      w *= wk;
    }
    wk *= root;
  }
  return out;
}

class ntt_test : public ::testing::Test {
 protected:
  const uint64_t seed = std::random_device{}();
  std::mt19937_64 rng{seed};
  std::vector<fr> random_vec(size_t n) {
    std::vector<fr> v(n);
    for (auto& x : v) x = fr::random(rng);
    return v;
  }
};

TEST_F(ntt_test, domain_root_has_exact_order) {
  for (unsigned lg : {0u, 1u, 5u, 20u, 32u}) {
    fr w = domain_root(lg);
    for (unsigned i = 0; i < lg; ++i) {
      EXPECT_NE(w, fr::one()) << lg;  // order is not a smaller power of two
      w = w.sqr();
    }
    EXPECT_EQ(w, fr::one()) << lg;
  }
}

TEST_F(ntt_test, forward_matches_naive_dft_for_every_small_size) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (unsigned lg = 0; lg <= 7; ++lg) {
    const auto a = random_vec(size_t{1} << lg);
    auto b = a;
    ntt(b, 1);
    EXPECT_EQ(b, naive_dft(a, domain_root(lg))) << "lg " << lg;
  }
}

TEST_F(ntt_test, inverse_and_coset_round_trip_multithreaded) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  const size_t n = size_t{1} << 14;  // > one task chunk, so stages are split across threads
  const auto a = random_vec(n);
  auto b = a;
  ntt(b, 4);
  auto c = a;
  ntt(c, 1);
  EXPECT_EQ(b, c);
  intt(b, 4);
  EXPECT_EQ(b, a);
  auto d = a;
  coset_ntt(d, fr::generator(), 3);
  coset_intt(d, fr::generator(), 3);
  EXPECT_EQ(d, a);
}

TEST_F(ntt_test, coset_ntt_evaluates_on_the_shifted_domain) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  const auto a = random_vec(16);
  auto b = a;
  const fr g = fr::generator();
  coset_ntt(b, g, 2);
  fr x = g;
  const fr w = domain_root(4);
  for (size_t k = 0; k < 16; ++k, x *= w) {
    fr eval = fr::zero();  // Horner
    for (size_t j = a.size(); j-- > 0;) eval = eval * x + a[j];
    EXPECT_EQ(b[k], eval) << k;
  }
}

TEST_F(ntt_test, bit_reverse_and_bad_sizes) {
  std::vector<fr> a;
  for (uint64_t i = 0; i < 8; ++i) a.push_back(fr::from_u64(i));
  bit_reverse(a);
  const uint64_t expect[8] = {0, 4, 2, 6, 1, 5, 3, 7};
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(a[i], fr::from_u64(expect[i]));
  std::vector<fr> bad(6);
  EXPECT_THROW(ntt(bad), std::invalid_argument);
  std::vector<fr> empty;
  EXPECT_THROW(intt(empty), std::invalid_argument);
}

}  // namespace
}  // namespace zk
