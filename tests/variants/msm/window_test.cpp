// Window sizes: the cost model grows with the MSM length; shared vs per-MSM policy (D4).
#include <gtest/gtest.h>

#include <vector>

#include "abtest/toggles/d4.hpp"
#include "msm/msm.hpp"
#include "msm/window.hpp"

namespace zk {
namespace {

TEST(window, bits_grow_with_length_and_stay_in_range) {
  unsigned prev = 0;
  for (size_t lg = 0; lg <= 26; ++lg) {
    const unsigned c = msm_window_bits(size_t{1} << lg);
    EXPECT_GE(c, 1u);
    EXPECT_LE(c, 20u);
    EXPECT_GE(c, prev) << "lg " << lg;
    prev = c;
  }
  EXPECT_LT(msm_window_bits(1 << 10), msm_window_bits(1 << 20));
}

TEST(window, shared_policy_uses_the_average_and_per_msm_its_own_length) {
  const std::vector<size_t> sizes = {1 << 10, 1 << 20, 1 << 14};
  const size_t avg = (sizes[0] + sizes[1] + sizes[2]) / 3;
  for (size_t n : sizes) {
    EXPECT_EQ(msm_window_for(msm_window_policy::shared, n, sizes), msm_window_bits(avg));
    EXPECT_EQ(msm_window_for(msm_window_policy::per_msm, n, sizes), msm_window_bits(n));
  }
  EXPECT_NE(msm_window_for(msm_window_policy::shared, sizes[0], sizes),
            msm_window_for(msm_window_policy::per_msm, sizes[0], sizes));
}

TEST(window, default_policy_follows_the_d4_toggle) {
  EXPECT_EQ(default_msm_window_policy(), ABTEST_D4_MSM_WINDOW ? msm_window_policy::per_msm : msm_window_policy::shared);
}

}  // namespace
}  // namespace zk
