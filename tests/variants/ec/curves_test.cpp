// G1/G2 arithmetic: generators, Jacobian vs XYZZ vs affine, scalar multiplication, subgroup checks.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ec/batch_affine.hpp"
#include "ec/curves.hpp"
#include "ff/fr.hpp"

namespace zk {
namespace {

template <class J>
J random_point(std::mt19937_64& rng, const typename J::affine& g) {
  uint64_t k[4];
  fr::random(rng).to_canonical(k);
  return scalar_mul(J::from_affine(g), k, 4);
}

template <class T>
class curve_test : public ::testing::Test {
 protected:
  const uint64_t seed = std::random_device{}();
  std::mt19937_64 rng{seed};
};

struct g1_types {
  using affine = g1_affine;
  using jacobian = g1_jacobian;
  using xyzz = g1_xyzz;
  static affine gen() { return g1_generator(); }
};
struct g2_types {
  using affine = g2_affine;
  using jacobian = g2_jacobian;
  using xyzz = g2_xyzz;
  static affine gen() { return g2_generator(); }
};
using both_groups = ::testing::Types<g1_types, g2_types>;
TYPED_TEST_SUITE(curve_test, both_groups);

TYPED_TEST(curve_test, generator_is_on_curve_and_has_order_r) {
  const auto g = TypeParam::gen();
  EXPECT_TRUE(g.is_on_curve());
  EXPECT_TRUE(is_in_subgroup(g));
  auto off = g;
  off.y = off.y + decltype(off.y)::one();
  EXPECT_FALSE(off.is_on_curve());
  EXPECT_FALSE(is_in_subgroup(off));
}

TYPED_TEST(curve_test, group_law_agrees_across_coordinates) {
  using J = typename TypeParam::jacobian;
  using X = typename TypeParam::xyzz;
  SCOPED_TRACE("seed " + std::to_string(this->seed));
  const auto g = TypeParam::gen();
  for (int i = 0; i < 8; ++i) {
    const J p = random_point<J>(this->rng, g);
    const J q = random_point<J>(this->rng, g);
    const auto pa = p.to_affine(), qa = q.to_affine();
    EXPECT_TRUE(pa.is_on_curve());
    // general, mixed and XYZZ additions give the same point
    const J sum = p + q;
    EXPECT_EQ(sum, p + qa);
    X acc = X::identity();
    acc += pa;
    acc += qa;
    EXPECT_EQ(acc.to_jacobian(), sum);
    X xp = X::identity();
    xp += pa;
    X xq = X::identity();
    xq += qa;
    EXPECT_EQ((xp + xq).to_jacobian(), sum);
    // doubling = self-addition in every form, and the special cases
    EXPECT_EQ(p.dbl(), p + p);
    EXPECT_EQ(p + pa, p.dbl());
    EXPECT_EQ((xp + pa).to_jacobian(), p.dbl());
    EXPECT_EQ(xp.dbl().to_jacobian(), p.dbl());
    EXPECT_EQ((xp + xp).to_jacobian(), p.dbl());
    EXPECT_TRUE((p + (-pa)).is_identity());
    EXPECT_TRUE((xp + (-pa)).is_identity());
    EXPECT_EQ(p + J::identity(), p);
    EXPECT_EQ(J::identity() + pa, p);
    // associativity and commutativity
    EXPECT_EQ((p + q) + p.dbl(), p + (q + p.dbl()));
    EXPECT_EQ(p + q, q + p);
  }
}

TYPED_TEST(curve_test, scalar_mul_is_linear_and_r_kills) {
  using J = typename TypeParam::jacobian;
  SCOPED_TRACE("seed " + std::to_string(this->seed));
  const J g = J::from_affine(TypeParam::gen());
  const fr a = fr::random(this->rng), b = fr::random(this->rng);
  uint64_t ka[4], kb[4], kab[4], kprod[4];
  a.to_canonical(ka);
  b.to_canonical(kb);
  (a + b).to_canonical(kab);
  (a * b).to_canonical(kprod);
  EXPECT_EQ(scalar_mul(g, ka, 4) + scalar_mul(g, kb, 4), scalar_mul(g, kab, 4));
  EXPECT_EQ(scalar_mul(scalar_mul(g, ka, 4), kb, 4), scalar_mul(g, kprod, 4));
  EXPECT_TRUE(scalar_mul(g, group_order, 4).is_identity());
  const uint64_t three = 3;
  EXPECT_EQ(scalar_mul(g, &three, 1), g.dbl() + g);
}

TYPED_TEST(curve_test, batch_to_affine_matches_single_and_keeps_identity) {
  using J = typename TypeParam::jacobian;
  SCOPED_TRACE("seed " + std::to_string(this->seed));
  std::vector<J> pts;
  for (int i = 0; i < 5; ++i) pts.push_back(random_point<J>(this->rng, TypeParam::gen()));
  pts.insert(pts.begin() + 2, J::identity());
  std::vector<typename J::affine> out(pts.size());
  batch_to_affine<J>(pts, out);
  for (size_t i = 0; i < pts.size(); ++i) EXPECT_EQ(out[i], pts[i].to_affine()) << i;
  EXPECT_TRUE(out[2].is_identity());
}

}  // namespace
}  // namespace zk
