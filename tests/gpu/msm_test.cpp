// GPU MSM = CPU MSM (variants/msm) on fresh random inputs: 2^8…2^16, every window, B1 on and off, edge points.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gpu/api.hpp"
#include "gpu/random_inputs.hpp"
#include "msm/msm.hpp"

namespace zk::gpu {
namespace {

class gpu_msm : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!device_available(&why)) GTEST_SKIP() << why;
  }
};

g1_jacobian run(std::span<const g1_affine> p, std::span<const scalar_t> k, const msm_config& cfg, msm_report* rep = nullptr) {
  g1_jacobian out;
  const status st = msm_g1(p, k, cfg, &out, rep);
  EXPECT_TRUE(st.ok()) << to_string(st.code) << ": " << st.message;
  return out;
}

TEST_F(gpu_msm, equals_cpu_for_every_window_small_sizes) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (unsigned lg : {8u, 10u}) {
    const auto points = random_points(size_t{1} << lg, seed + lg);
    const auto scalars = random_scalars(size_t{1} << lg, seed + 100 + lg);
    const g1_jacobian expected = zk::msm(points, scalars);
    for (unsigned c = 1; c <= 20; ++c) {
      for (bool reg : {false, true}) {
        msm_report rep;
        EXPECT_EQ(run(points, scalars, {.wbits = c, .host_register = reg}, &rep), expected)
            << "lg " << lg << " wbits " << c << (reg ? " registered" : " pageable");
        EXPECT_EQ(rep.wbits, c);
        EXPECT_EQ(rep.host_register, reg);
      }
    }
  }
}

TEST_F(gpu_msm, equals_cpu_at_larger_sizes_auto_and_nearby_windows) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (unsigned lg : {12u, 14u, 16u}) {
    const size_t n = size_t{1} << lg;
    const auto points = random_points(n, seed + lg);
    const auto scalars = random_scalars(n, seed + 100 + lg);
    const g1_jacobian expected = zk::msm(points, scalars);
    const unsigned auto_c = msm_window_bits(n);
    msm_report rep;
    EXPECT_EQ(run(points, scalars, {.wbits = 0, .window = msm_window_policy::per_msm}, &rep), expected) << "lg " << lg;
    EXPECT_EQ(rep.wbits, auto_c);
    for (unsigned c : {auto_c - 3, auto_c - 1, auto_c + 1, 16u}) {
      for (bool reg : {false, true}) {
        EXPECT_EQ(run(points, scalars, {.wbits = c, .host_register = reg}), expected)
            << "lg " << lg << " wbits " << c << (reg ? " registered" : " pageable");
      }
    }
  }
}

TEST_F(gpu_msm, identity_duplicate_and_opposite_points_zero_and_extreme_scalars) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  auto points = random_points(600, seed);
  auto scalars = random_scalars(600, seed + 1);
  points[1] = points[0];
  scalars[1] = scalars[0];  // the same point twice in the same buckets: the doubling path
  points[3] = -points[2];
  points[4] = g1_affine::identity();
  scalars[5] = {0, 0, 0, 0};
  fr minus_one = -fr::one();
  minus_one.to_canonical(scalars[6].data());  // r − 1: every window's digit is large
  for (size_t i = 100; i < 300; ++i) scalars[i] = scalars[7];  // many points in the same buckets
  const g1_jacobian expected = zk::msm(points, scalars);
  for (unsigned c : {1u, 4u, 8u, 13u})
    EXPECT_EQ(run(points, scalars, {.wbits = c}), expected) << "wbits " << c;
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
