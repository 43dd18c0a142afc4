// Differential tests of mont_t: every operation of Fr and Fp against GMP on fresh random inputs.
#include "ff/mont.hpp"

#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "gmp_ref.hpp"

namespace zk {
namespace {

using test::to_mpz;

template <class F>
class mont_test : public ::testing::Test {
 public:
  void SetUp() override { rng.seed(seed); }
  const uint64_t seed = test::test_seed();
  std::mt19937_64 rng;
  const mpz_class p = test::modulus<F>();
  static constexpr int rounds = 2000;

  mpz_class mod(const mpz_class& z) const {
    mpz_class r;
    mpz_mod(r.get_mpz_t(), z.get_mpz_t(), p.get_mpz_t());
    return r;
  }
  // Random elements biased towards the edges (0, 1, p − 1, small) that carries get wrong.
  F draw() {
    switch (rng() % 8) {
      case 0: return F::zero();
      case 1: return F::one();
      case 2: return -F::one();
      case 3: return F::from_u64(rng());
      default: return F::random(rng);
    }
  }
};

using fields = ::testing::Types<fr, fp>;
TYPED_TEST_SUITE(mont_test, fields);

TYPED_TEST(mont_test, ring_operations_match_gmp) {
  using F = TypeParam;
  SCOPED_TRACE("seed " + std::to_string(this->seed));
  for (int i = 0; i < this->rounds; ++i) {
    const F a = this->draw(), b = this->draw();
    const mpz_class x = to_mpz(a), y = to_mpz(b);
    ASSERT_LT(x, this->p);
    ASSERT_EQ(to_mpz(a + b), this->mod(x + y));
    ASSERT_EQ(to_mpz(a - b), this->mod(x - y));
    ASSERT_EQ(to_mpz(-a), this->mod(-x));
    ASSERT_EQ(to_mpz(a * b), this->mod(x * y));
    ASSERT_EQ(to_mpz(a.sqr()), this->mod(x * x));
    ASSERT_EQ(to_mpz(a.dbl()), this->mod(2 * x));
    F c = a;
    c += b;
    ASSERT_EQ(c, a + b);
    c = a;
    c -= b;
    ASSERT_EQ(c, a - b);
    c = a;
    c *= b;
    ASSERT_EQ(c, a * b);
    ASSERT_EQ(a == b, x == y);
    ASSERT_EQ(a != b, x != y);
    ASSERT_EQ(a.is_zero(), x == 0);
  }
}

// mont.hpp has two product paths: the portable CIOS and, where the CPU has BMI2 + ADX, the
// MULX/ADCX/ADOX one (mont_x86.hpp). Each is checked against GMP on its own; conversions to GMP run
// on the portable path, so a wrong asm product cannot hide behind a wrong conversion.
template <class F>
void check_products(mont_test<F>& t, bool mulx) {
#if defined(ZK_MULX_ASM)
  const bool saved = x86::use_mulx_adx;
#endif
  for (int i = 0; i < 20 * t.rounds; ++i) {
    const F a = t.draw(), b = t.draw();
#if defined(ZK_MULX_ASM)
    x86::use_mulx_adx = false;
#endif
    const mpz_class x = to_mpz(a), y = to_mpz(b);
#if defined(ZK_MULX_ASM)
    x86::use_mulx_adx = mulx;
#endif
    const F prod = a * b, square = a.sqr();
#if defined(ZK_MULX_ASM)
    x86::use_mulx_adx = false;
#endif
    ASSERT_EQ(to_mpz(prod), t.mod(x * y)) << "a = " << x << ", b = " << y;
    ASSERT_EQ(to_mpz(square), t.mod(x * x)) << "a = " << x;
  }
#if defined(ZK_MULX_ASM)
  x86::use_mulx_adx = saved;
#else
  (void)mulx;
#endif
}

TYPED_TEST(mont_test, portable_product_matches_gmp) { check_products(*this, false); }

TYPED_TEST(mont_test, mulx_adx_product_matches_gmp) {
#if defined(ZK_MULX_ASM)
  if (!x86::detect_mulx_adx()) GTEST_SKIP() << "this CPU lacks BMI2 or ADX";
  check_products(*this, true);
#else
  GTEST_SKIP() << "built without the x86-64 assembly path";
#endif
}

// Every entry point that multiplies (random, from_u64, from_canonical with its constant R², to_canonical,
// inverse, pow) gives the same limbs on both paths. A product that read its operand through an
// alias the optimiser did not see returned stale memory in exactly these inlined, constant-folded
// contexts at -O3 while direct products passed — hence also the ff_test_o3 build of this file.
TYPED_TEST(mont_test, every_entry_point_agrees_on_both_paths) {
  using F = TypeParam;
#if defined(ZK_MULX_ASM)
  if (!x86::detect_mulx_adx()) GTEST_SKIP() << "this CPU lacks BMI2 or ADX";
  const bool saved = x86::use_mulx_adx;
  std::mt19937_64 r_asm(this->seed), r_ref(this->seed);
  for (int i = 0; i < this->rounds; ++i) {
    x86::use_mulx_adx = true;
    const F a = F::random(r_asm), u = F::from_u64(r_asm());
    uint64_t ca[F::nlimbs];
    a.to_canonical(ca);
    const F back = F::from_canonical(ca), inv = a.inverse(), pw = a.pow(r_asm());
    x86::use_mulx_adx = false;
    const F b = F::random(r_ref), v = F::from_u64(r_ref());
    uint64_t cb[F::nlimbs];
    b.to_canonical(cb);
    const F back_ref = F::from_canonical(cb), inv_ref = b.inverse(), pw_ref = b.pow(r_ref());
    ASSERT_EQ(a, b) << "random, draw " << i;
    ASSERT_EQ(u, v) << "from_u64, draw " << i;
    for (size_t l = 0; l < F::nlimbs; ++l) ASSERT_EQ(ca[l], cb[l]) << "to_canonical, draw " << i;
    ASSERT_EQ(back, back_ref) << "from_canonical, draw " << i;
    ASSERT_EQ(inv, inv_ref) << "inverse, draw " << i;
    ASSERT_EQ(pw, pw_ref) << "pow, draw " << i;
  }
  x86::use_mulx_adx = saved;
#else
  GTEST_SKIP() << "built without the x86-64 assembly path";
#endif
}

TYPED_TEST(mont_test, inverse_and_pow_match_gmp) {
  using F = TypeParam;
  SCOPED_TRACE("seed " + std::to_string(this->seed));
  EXPECT_TRUE(F::zero().inverse().is_zero());
  for (int i = 0; i < 100; ++i) {
    const F a = this->draw();
    const mpz_class x = to_mpz(a);
    mpz_class inv = 0;
    if (x != 0) mpz_invert(inv.get_mpz_t(), x.get_mpz_t(), this->p.get_mpz_t());
    ASSERT_EQ(to_mpz(a.inverse()), inv);
    std::array<uint64_t, F::nlimbs> e{};
    for (auto& l : e) l = this->rng();
    mpz_class ez;
    mpz_import(ez.get_mpz_t(), e.size(), -1, sizeof(uint64_t), 0, 0, e.data());
    mpz_class want;
    mpz_powm(want.get_mpz_t(), x.get_mpz_t(), ez.get_mpz_t(), this->p.get_mpz_t());
    ASSERT_EQ(to_mpz(a.pow(e.data(), e.size())), want);
    const uint64_t small = this->rng() % 1000;
    mpz_powm_ui(want.get_mpz_t(), x.get_mpz_t(), small, this->p.get_mpz_t());
    ASSERT_EQ(to_mpz(a.pow(small)), want);
  }
}

TYPED_TEST(mont_test, sqrt_matches_legendre_symbol) {
  using F = TypeParam;
  SCOPED_TRACE("seed " + std::to_string(this->seed));
  ASSERT_EQ(F::zero().sqrt(), F::zero());
  int residues = 0;
  for (int i = 0; i < 60; ++i) {
    const F a = F::random(this->rng);
    const mpz_class x = to_mpz(a);
    const auto root = a.sqrt();
    const bool residue = mpz_legendre(x.get_mpz_t(), this->p.get_mpz_t()) == 1;
    ASSERT_EQ(root.has_value(), residue) << a.to_hex();
    if (root) {
      ASSERT_EQ(root->sqr(), a);
      ++residues;
    }
    const F square = a.sqr();  // always a residue
    ASSERT_TRUE(square.sqrt().has_value());
    ASSERT_EQ(square.sqrt()->sqr(), square);
  }
  EXPECT_GT(residues, 0);
  EXPECT_LT(residues, 60);
}

TYPED_TEST(mont_test, batch_inverse_matches_single_inverses) {
  using F = TypeParam;
  SCOPED_TRACE("seed " + std::to_string(this->seed));
  std::vector<F> xs(37);
  for (auto& x : xs) x = this->draw();
  xs[5] = F::zero();
  std::vector<F> inv = xs;
  F::batch_inverse(inv);
  for (size_t i = 0; i < xs.size(); ++i) ASSERT_EQ(inv[i], xs[i].inverse()) << i;
}

TYPED_TEST(mont_test, bytes_decimal_and_hex_round_trip_as_gmp_prints_them) {
  using F = TypeParam;
  SCOPED_TRACE("seed " + std::to_string(this->seed));
  for (int i = 0; i < 200; ++i) {
    const F a = this->draw();
    const mpz_class x = to_mpz(a);
    ASSERT_EQ(a.to_decimal(), x.get_str(10));
    ASSERT_EQ(F::from_decimal(x.get_str(10)), a);
    std::string hex = x.get_str(16);
    hex.insert(0, 2 * F::nbytes - hex.size(), '0');
    ASSERT_EQ(a.to_hex(), "0x" + hex);
    const auto bytes = a.to_bytes_be();
    ASSERT_EQ(bytes.size(), F::nbytes);
    ASSERT_EQ(F::from_bytes_be(bytes), a);
  }
}

TYPED_TEST(mont_test, conversions_reject_values_outside_the_field) {
  using F = TypeParam;
  const mpz_class p = this->p;
  EXPECT_FALSE(F::from_decimal(p.get_str(10)).has_value());
  EXPECT_FALSE(F::from_decimal("").has_value());
  EXPECT_FALSE(F::from_decimal("12a").has_value());
  EXPECT_FALSE(F::from_decimal(std::string(200, '9')).has_value());
  EXPECT_EQ(F::from_decimal(mpz_class(p - 1).get_str(10)), -F::one());
  std::array<uint8_t, F::nbytes> bytes{};
  size_t count = 0;
  mpz_export(bytes.data() + F::nbytes - (mpz_sizeinbase(p.get_mpz_t(), 256)), &count, 1, 1, 1, 0,
             p.get_mpz_t());
  EXPECT_FALSE(F::from_bytes_be(bytes).has_value());
  bytes.fill(0xff);
  EXPECT_FALSE(F::from_bytes_be(bytes).has_value());
}

TYPED_TEST(mont_test, arithmetic_is_usable_at_compile_time) {
  using F = TypeParam;
  constexpr F three = F::from_u64(3);
  static_assert(three * three.inverse() == F::one());
  static_assert(F::one() + F::one() == F::from_u64(2));
  static_assert((F::zero() - F::one()) + F::one() == F::zero());
  uint64_t c[F::nlimbs];
  three.to_canonical(c);
  EXPECT_EQ(c[0], 3u);
  EXPECT_EQ(F::from_canonical(c), three);
}

}  // namespace
}  // namespace zk
