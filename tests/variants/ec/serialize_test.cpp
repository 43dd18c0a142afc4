// Point encodings: the standard compressed generators, round trips, rejection of bad input.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "ec/serialize.hpp"
#include "ff/fr.hpp"

namespace zk {
namespace {

template <size_t N>
std::string hex(const std::array<uint8_t, N>& b) {
  static constexpr char digit[] = "0123456789abcdef";
  std::string s;
  for (uint8_t v : b) {
    s.push_back(digit[v >> 4]);
    s.push_back(digit[v & 15]);
  }
  return s;
}

// The compressed generators published with BLS12-381 (zcash pairing crate, blst, IETF draft).
constexpr const char* g1_gen_compressed =
    "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
constexpr const char* g2_gen_compressed =
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";

TEST(serialize, generators_have_the_standard_compressed_encodings) {
  EXPECT_EQ(hex(g1_to_compressed(g1_generator())), g1_gen_compressed);
  EXPECT_EQ(hex(g2_to_compressed(g2_generator())), g2_gen_compressed);
  EXPECT_EQ(hex(g1_to_compressed(g1_affine::identity())), "c0" + std::string(94, '0'));
  EXPECT_EQ(hex(g2_to_uncompressed(g2_affine::identity())), "40" + std::string(382, '0'));
}

TEST(serialize, round_trips_random_points_both_forms) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 6; ++i) {
    uint64_t k[4];
    fr::random(rng).to_canonical(k);
    const g1_affine p = scalar_mul(g1_jacobian::from_affine(g1_generator()), k, 4).to_affine();
    const g2_affine q = scalar_mul(g2_jacobian::from_affine(g2_generator()), k, 4).to_affine();
    EXPECT_EQ(*g1_from_compressed(g1_to_compressed(p)), p);
    EXPECT_EQ(*g1_from_uncompressed(g1_to_uncompressed(p)), p);
    EXPECT_EQ(*g2_from_compressed(g2_to_compressed(q)), q);
    EXPECT_EQ(*g2_from_uncompressed(g2_to_uncompressed(q)), q);
    EXPECT_EQ(*g1_from_compressed(g1_to_compressed(-p)), -p);
    EXPECT_EQ(*g2_from_compressed(g2_to_compressed(-q)), -q);
  }
  EXPECT_TRUE(g1_from_compressed(g1_to_compressed(g1_affine::identity()))->is_identity());
  EXPECT_TRUE(g2_from_uncompressed(g2_to_uncompressed(g2_affine::identity()))->is_identity());
}

TEST(serialize, rejects_malformed_encodings) {
  auto c = g1_to_compressed(g1_generator());
  auto u = g1_to_uncompressed(g1_generator());
  auto bad = c;
  bad[0] &= 0x7f;  // compressed bytes without the compression flag
  EXPECT_FALSE(g1_from_compressed(bad));
  EXPECT_EQ(*g1_from_uncompressed(u), g1_generator());
  auto off = u;
  off[95] ^= 1;  // y changed: off the curve
  EXPECT_FALSE(g1_from_uncompressed(off));
  auto big = c;
  std::fill(big.begin() + 1, big.end(), 0xff);  // x ≥ p
  big[0] = 0x9f;
  EXPECT_FALSE(g1_from_compressed(big));
  auto inf_junk = g1_to_compressed(g1_affine::identity());
  inf_junk[47] = 1;
  EXPECT_FALSE(g1_from_compressed(inf_junk));
  // x = 0 gives y² = 4, a point of G1's curve of order 3, outside the r-torsion
  std::array<uint8_t, 96> order3{};
  const auto two = fp::from_u64(2).to_bytes_be();
  std::copy(two.begin(), two.end(), order3.begin() + 48);
  EXPECT_FALSE(g1_from_uncompressed(order3));
  EXPECT_TRUE(g1_from_uncompressed(order3, subgroup_check::no));
}

}  // namespace
}  // namespace zk
