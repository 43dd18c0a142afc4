// The MULX/ADX product against the portable one at the entry points that take constant or freshly
// written local operands (random → from_canonical with R², from_u64, to_canonical with 1). A struct-
// typed "m" operand once let GCC 12 at -O3 drop those operands' stores: direct products of two
// variables still matched, these did not. Built at -O2 (ff_test) and -O3 (ff_test_o3).
#include <gtest/gtest.h>

#include <random>

#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "gmp_ref.hpp"

namespace zk {
namespace {

template <class F>
void expect_paths_agree(uint64_t seed) {
#if defined(ZK_MULX_ASM)
  if (!x86::detect_mulx_adx()) GTEST_SKIP() << "this CPU lacks BMI2 or ADX";
  const bool saved = x86::use_mulx_adx;
  std::mt19937_64 r_asm(seed), r_ref(seed);
  for (int i = 0; i < 20000; ++i) {
    x86::use_mulx_adx = true;
    const F a = F::random(r_asm);
    const F u = F::from_u64(static_cast<uint64_t>(i));
    uint64_t ca[F::nlimbs];
    a.to_canonical(ca);
    x86::use_mulx_adx = false;
    const F b = F::random(r_ref);
    const F v = F::from_u64(static_cast<uint64_t>(i));
    uint64_t cb[F::nlimbs];
    b.to_canonical(cb);
    ASSERT_EQ(a, b) << "random, draw " << i;
    ASSERT_EQ(u, v) << "from_u64(" << i << ")";
    for (size_t l = 0; l < F::nlimbs; ++l) ASSERT_EQ(ca[l], cb[l]) << "to_canonical, draw " << i << ", limb " << l;
  }
  x86::use_mulx_adx = saved;
#else
  (void)seed;
  GTEST_SKIP() << "built without the x86-64 assembly path";
#endif
}

// The plain form that exposed it (this body, with the struct-typed operand, failed at draw 0 at -O3
// for fr).
template <class F>
void expect_draws_agree(uint64_t seed) {
#if defined(ZK_MULX_ASM)
  if (!x86::detect_mulx_adx()) GTEST_SKIP() << "this CPU lacks BMI2 or ADX";
  const bool saved = x86::use_mulx_adx;
  std::mt19937_64 r1(seed), r2(seed);
  for (int i = 0; i < 100000; ++i) {
    x86::use_mulx_adx = true;
    F a = F::random(r1);
    F u = F::from_u64(i);
    x86::use_mulx_adx = false;
    F b = F::random(r2);
    F v = F::from_u64(i);
    ASSERT_EQ(a, b) << "draw " << i << ", seed " << seed;
    ASSERT_EQ(u, v) << i;
  }
  x86::use_mulx_adx = saved;
#else
  (void)seed;
  GTEST_SKIP() << "built without the x86-64 assembly path";
#endif
}

TEST(mont_paths, fr_draws_agree_on_both_paths) { expect_draws_agree<fr>(test::test_seed()); }
TEST(mont_paths, fp_draws_agree_on_both_paths) { expect_draws_agree<fp>(test::test_seed()); }
TEST(mont_paths, fr_entry_points_agree) { expect_paths_agree<fr>(test::test_seed()); }
TEST(mont_paths, fp_entry_points_agree) { expect_paths_agree<fp>(test::test_seed()); }

}  // namespace
}  // namespace zk
