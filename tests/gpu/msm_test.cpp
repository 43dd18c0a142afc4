// GPU MSM = CPU MSM (variants/msm) on fresh seeded inputs: 2^0…2^max (ABTEST_GPU_TEST_MAX_LG, default
// 16; the device pack runs 20) at several windows, every window at 2^8, B1 on and off, edge cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gpu/api.hpp"
#include "gpu/random_inputs.hpp"
#include "msm/msm.hpp"
#include "seeded_device_test.hpp"
#include "test_sizes.hpp"

namespace zk::gpu {
namespace {

class gpu_msm : public testing::seeded_device_test {};

g1_jacobian run(std::span<const g1_affine> p, std::span<const scalar_t> k, const msm_config& cfg, msm_report* rep = nullptr) {
  g1_jacobian out;
  const status st = msm_g1(p, k, cfg, &out, rep);
  EXPECT_TRUE(st.ok()) << to_string(st.code) << ": " << st.message;
  return out;
}

scalar_t canonical(const fr& x) {
  scalar_t k;
  x.to_canonical(k.data());
  return k;
}

TEST_F(gpu_msm, equals_cpu_for_every_window_at_2_8) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  const unsigned lg = std::min(8u, testing::max_lg(16));
  const auto points = random_points(size_t{1} << lg, seed);
  const auto scalars = random_scalars(size_t{1} << lg, seed + 1);
  const g1_jacobian expected = zk::msm(points, scalars);
  for (unsigned c = 1; c <= 20; ++c) {
    const bool reg = c % 2 == 0;
    msm_report rep;
    EXPECT_EQ(run(points, scalars, {.wbits = c, .host_register = reg}, &rep), expected)
        << "lg " << lg << " wbits " << c << (reg ? " registered" : " pageable");
    EXPECT_EQ(rep.wbits, c);
    EXPECT_EQ(rep.host_register, reg) << rep.host_register_error;
  }
}

// Every size 2^0 … 2^max at the automatic window and three others, B1 alternating.
TEST_F(gpu_msm, equals_cpu_at_every_size_and_several_windows) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  const unsigned top = testing::max_lg(16);
  const auto all_points = random_points(size_t{1} << top, seed);
  const auto all_scalars = random_scalars(size_t{1} << top, seed + 1);
  for (unsigned lg = 0; lg <= top; ++lg) {
    const size_t n = size_t{1} << lg;
    const std::span<const g1_affine> points = std::span(all_points).first(n);
    const std::span<const scalar_t> scalars = std::span(all_scalars).first(n);
    const g1_jacobian expected = zk::msm(points, scalars);
    const unsigned auto_c = msm_window_bits(n);
    msm_report rep;
    EXPECT_EQ(run(points, scalars, {.wbits = 0, .window = msm_window_policy::per_msm}, &rep), expected) << "lg " << lg;
    EXPECT_EQ(rep.wbits, auto_c);
    const std::set<unsigned> windows = {std::max(1u, auto_c - 2), std::min(20u, auto_c + 2), 5u};
    for (unsigned c : windows) {
      const bool reg = (lg + c) % 2 == 0;
      EXPECT_EQ(run(points, scalars, {.wbits = c, .host_register = reg}), expected)
          << "lg " << lg << " wbits " << c << (reg ? " registered" : " pageable");
    }
  }
}

TEST_F(gpu_msm, zero_scalars_all_ones_and_points_at_infinity) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  const size_t n = size_t{1} << std::min(16u, testing::max_lg(16));
  const auto points = random_points(n, seed);
  const std::vector<scalar_t> zeros(n, scalar_t{0, 0, 0, 0}), ones(n, scalar_t{1, 0, 0, 0});
  const std::vector<scalar_t> all_set(n, canonical(-fr::one()));  // r − 1: every digit large
  g1_jacobian sum = g1_jacobian::identity();
  for (const auto& p : points) sum += p;
  const g1_jacobian all_set_expected = zk::msm(points, all_set);
  for (unsigned c : {1u, 8u, 13u}) {
    msm_report rep;
    EXPECT_TRUE(run(points, zeros, {.wbits = c}, &rep).is_identity()) << "zeros, wbits " << c;
    EXPECT_EQ(rep.nentries, 0u);
    EXPECT_EQ(run(points, ones, {.wbits = c}, &rep), sum) << "ones, wbits " << c;  // one bucket holds n points
    EXPECT_EQ(rep.nentries, n);
    EXPECT_EQ(run(points, all_set, {.wbits = c}), all_set_expected) << "r − 1, wbits " << c;
  }
  const std::vector<g1_affine> infinity(n, g1_affine::identity());
  EXPECT_TRUE(run(infinity, random_scalars(n, seed + 1), {.wbits = 8}).is_identity());
}

TEST_F(gpu_msm, witness_like_scalars_and_edge_points) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  const size_t n = size_t{1} << std::min(16u, testing::max_lg(16));
  auto points = random_points(n, seed);
  auto scalars = random_scalars(n, seed + 1);
  std::mt19937_64 rng(seed + 2);
  for (auto& k : scalars) {  // the A, B_G1, L shape: mostly 0 and 1, a few full-size
    const uint64_t u = rng() % 100;
    if (u < 45) k = {0, 0, 0, 0};
    else if (u < 95) k = {1, 0, 0, 0};
  }
  points[1] = points[0];
  scalars[1] = scalars[0] = canonical(fr::from_u64(12345));  // the same point twice in the same buckets
  points[3] = -points[2];
  scalars[3] = scalars[2];  // P and −P in the same buckets
  for (size_t i = 4; i < std::min<size_t>(n, 40); ++i) points[i] = g1_affine::identity();
  const g1_jacobian expected = zk::msm(points, scalars);
  for (unsigned c : {1u, 4u, 8u, 13u, 16u}) EXPECT_EQ(run(points, scalars, {.wbits = c}), expected) << "wbits " << c;
}

// The phases gpu-bench prints: in launch order, each level named, the reduction last; zero scalars
// stop after counting.
TEST_F(gpu_msm, reports_its_kernel_set_and_phases_in_launch_order) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  const size_t n = 5000;
  const auto points = random_points(n, seed);
  const std::vector<scalar_t> ones(n, scalar_t{1, 0, 0, 0});  // one bucket of 5000: three levels
  msm_report rep;
  run(points, ones, {.wbits = 10}, &rep);
  EXPECT_TRUE(rep.kernels == "tuned" || rep.kernels == "first_run") << rep.kernels;
  std::vector<std::string> names;
  for (const msm_phase& ph : rep.phases) {
    names.push_back(ph.name);
    EXPECT_GE(ph.kernel_s, 0) << ph.name;
  }
  const std::vector<std::string> expected = {"count",  "recode", "sort",     "level0",   "level1",
                                             "level2", "last_count", "gather", "segments", "windows"};
  EXPECT_EQ(names, expected);
  EXPECT_EQ(rep.levels, 3u);
  run(points, std::vector<scalar_t>(n, scalar_t{0, 0, 0, 0}), {.wbits = 10}, &rep);
  ASSERT_EQ(rep.phases.size(), 1u);
  EXPECT_EQ(rep.phases[0].name, "count");
}

TEST_F(gpu_msm, empty_msm_is_the_identity_and_bad_arguments_are_refused) {
  g1_jacobian out = g1_jacobian::from_affine(g1_generator());
  ASSERT_TRUE(msm_g1({}, {}, {}, &out).ok());
  EXPECT_TRUE(out.is_identity());
  const auto points = random_points(8, 1);
  const auto scalars = random_scalars(7, 2);
  EXPECT_EQ(msm_g1(points, scalars, {}, &out).code, status_code::invalid_argument);
  EXPECT_EQ(msm_g1(std::span(points).first(7), scalars, {.wbits = 21}, &out).code, status_code::invalid_argument);
}

}  // namespace
}  // namespace zk::gpu
