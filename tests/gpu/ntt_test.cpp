// GPU NTT = CPU NTT (variants/ntt) on fresh seeded inputs: 2^1…2^max (ABTEST_GPU_TEST_MAX_LG, default
// 16; the device pack runs 20), forward / inverse, natural / coset, B1 on and off.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpu/api.hpp"
#include "gpu/random_inputs.hpp"
#include "ntt/ntt.hpp"
#include "seeded_device_test.hpp"
#include "test_sizes.hpp"

namespace zk::gpu {
namespace {

class gpu_ntt : public testing::seeded_device_test {};

// The CPU function the GPU call must match.
void cpu_reference(std::vector<fr>& a, ntt_direction dir, ntt_domain dom) {
  const fr g = fr::generator();
  if (dir == ntt_direction::forward) dom == ntt_domain::coset ? coset_ntt(a, g) : zk::ntt(a);
  else dom == ntt_domain::coset ? coset_intt(a, g) : intt(a);
}

TEST_F(gpu_ntt, equals_cpu_for_every_direction_domain_and_size) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (unsigned lg = 1; lg <= testing::max_lg(16); ++lg) {
    for (auto dir : {ntt_direction::forward, ntt_direction::inverse}) {
      for (auto dom : {ntt_domain::natural, ntt_domain::coset}) {
        const bool reg = (lg + (dir == ntt_direction::inverse)) % 2 == 0;  // both B1 levels across the cases
        SCOPED_TRACE("lg " + std::to_string(lg) + (dir == ntt_direction::forward ? " forward" : " inverse") +
                     (dom == ntt_domain::coset ? " coset" : " natural") + (reg ? " registered" : " pageable"));
        std::vector<fr> expected = random_frs(size_t{1} << lg, seed + lg);
        std::vector<fr> got = expected;
        cpu_reference(expected, dir, dom);
        ntt_report rep;
        const status st = ntt(got.data(), lg, dir, dom, {.host_register = reg}, &rep);
        ASSERT_TRUE(st.ok()) << to_string(st.code) << ": " << st.message;
        EXPECT_EQ(rep.host_register, reg) << rep.host_register_error;
        EXPECT_GE(rep.time.kernel_s, 0);
        EXPECT_TRUE(got == expected);
      }
    }
  }
}

TEST_F(gpu_ntt, forward_then_inverse_is_the_identity_on_tiny_domains) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (unsigned lg = 0; lg <= std::min(11u, testing::max_lg(16)); ++lg) {
    SCOPED_TRACE("lg " + std::to_string(lg));
    const std::vector<fr> original = random_frs(size_t{1} << lg, seed + lg);
    std::vector<fr> a = original;
    ASSERT_TRUE(ntt(a.data(), lg, ntt_direction::forward, ntt_domain::coset).ok());
    ASSERT_TRUE(ntt(a.data(), lg, ntt_direction::inverse, ntt_domain::coset).ok());
    EXPECT_TRUE(a == original);
  }
}

TEST_F(gpu_ntt, rejects_bad_arguments) {
  EXPECT_EQ(ntt(nullptr, 4, ntt_direction::forward, ntt_domain::natural).code, status_code::invalid_argument);
  fr x = fr::one();
  EXPECT_EQ(ntt(&x, 31, ntt_direction::forward, ntt_domain::natural).code, status_code::invalid_argument);
}

}  // namespace
}  // namespace zk::gpu
