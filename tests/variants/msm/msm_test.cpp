// Pippenger MSM against Σ kᵢ·Pᵢ computed by double-and-add, for G1 and G2 and every window size.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "msm/msm.hpp"

namespace zk {
namespace {

template <class A>
struct fixture {
  using J = jacobian_t<typename A::field, typename A::curve>;
  std::vector<A> points;
  std::vector<scalar_t> scalars;
  J expected = J::identity();

  // Random multiples of the generator, with the edge cases mixed in: a repeated point (bucket
  // doubling), a point and its negation, the identity, scalars 0, 1 and r − 1.
  fixture(std::mt19937_64& rng, const A& gen, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      scalar_t k;
      fr::random(rng).to_canonical(k.data());
      points.push_back(scalar_mul(J::from_affine(gen), k.data(), 4).to_affine());
      fr::random(rng).to_canonical(k.data());
      scalars.push_back(k);
    }
    points[1] = points[0];
    scalars[1] = scalars[0];
    points[3] = -points[2];
    points[4] = A::identity();
    scalars[5] = scalar_t{};
    scalars[6] = scalar_t{1, 0, 0, 0};
    scalars[7] = scalar_t{group_order[0] - 1, group_order[1], group_order[2], group_order[3]};
    for (size_t i = 0; i < n; ++i) expected += scalar_mul(J::from_affine(points[i]), scalars[i].data(), 4);
  }
};

class msm_test : public ::testing::Test {
 protected:
  const uint64_t seed = std::random_device{}();
  std::mt19937_64 rng{seed};
};

TEST_F(msm_test, g1_matches_naive_sum_for_every_window_and_thread_count) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  const fixture<g1_affine> f(rng, g1_generator(), 40);
  for (unsigned c = 1; c <= 16; ++c) {
    EXPECT_EQ(msm(f.points, f.scalars, {.wbits = c, .nthreads = 1}), f.expected) << "wbits " << c;
    EXPECT_EQ(msm(f.points, f.scalars, {.wbits = c, .nthreads = 3}), f.expected) << "wbits " << c;
  }
  EXPECT_EQ(msm(f.points, f.scalars), f.expected);
}

TEST_F(msm_test, g2_matches_naive_sum_for_every_window_and_thread_count) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  const fixture<g2_affine> f(rng, g2_generator(), 24);
  for (unsigned c = 1; c <= 12; ++c) {
    EXPECT_EQ(msm(f.points, f.scalars, {.wbits = c, .nthreads = 1}), f.expected) << "wbits " << c;
    EXPECT_EQ(msm(f.points, f.scalars, {.wbits = c, .nthreads = 3}), f.expected) << "wbits " << c;
  }
}

TEST_F(msm_test, chunked_points_across_threads_match_one_thread) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  // 3000 points with 4 threads splits each window into several point chunks.
  std::vector<g1_affine> points(3000);
  std::vector<scalar_t> scalars(3000);
  g1_jacobian p = g1_jacobian::from_affine(g1_generator());
  for (size_t i = 0; i < points.size(); ++i) {
    points[i] = p.to_affine();
    p += g1_generator();
    fr::random(rng).to_canonical(scalars[i].data());
  }
  const auto one = msm(points, scalars, {.wbits = 9, .nthreads = 1});
  EXPECT_EQ(msm(points, scalars, {.wbits = 9, .nthreads = 4}), one);
  EXPECT_EQ(msm(points, scalars, {.wbits = 5, .nthreads = 4}), one);
}

TEST_F(msm_test, empty_input_is_identity_and_bad_arguments_throw) {
  EXPECT_TRUE(msm(std::span<const g1_affine>{}, std::span<const scalar_t>{}).is_identity());
  std::vector<g1_affine> pts(2, g1_generator());
  std::vector<scalar_t> ks(1);
  EXPECT_THROW(msm(pts, ks), std::invalid_argument);
  ks.resize(2);
  EXPECT_THROW(msm(pts, ks, {.wbits = 21}), std::invalid_argument);
}

TEST_F(msm_test, to_scalars_is_the_canonical_form) {
  std::vector<fr> xs = {fr::from_u64(5), fr::zero(), -fr::one()};
  const auto ks = to_scalars(xs, 2);
  EXPECT_EQ(ks[0], (scalar_t{5, 0, 0, 0}));
  EXPECT_EQ(ks[1], (scalar_t{0, 0, 0, 0}));
  EXPECT_EQ(ks[2], (scalar_t{group_order[0] - 1, group_order[1], group_order[2], group_order[3]}));
}

}  // namespace
}  // namespace zk
