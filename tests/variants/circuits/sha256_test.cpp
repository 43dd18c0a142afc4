// SHA-256 gadget = native SHA-256 on the FIPS 180-4 vectors and on random messages; pinned cost.
#include "circuits/sha256.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "r1cs/test_cs.hpp"

namespace zk::circuits {
namespace {

template <class CS>
std::vector<boolean> alloc_message(CS& cs, const std::string& msg) {
  std::vector<boolean> bits;
  for (unsigned char ch : msg)
    for (int i = 7; i >= 0; --i) bits.push_back(boolean::alloc(cs, (ch >> i) & 1));
  return bits;
}

std::string digest_hex(const std::vector<boolean>& bits) {
  sha256_digest d{};
  for (size_t i = 0; i < 256; ++i) d[i / 8] |= static_cast<uint8_t>(bits[i].value() << (7 - i % 8));
  return to_hex(d);
}

std::string native_hex(const std::string& msg) {
  return to_hex(sha256({reinterpret_cast<const uint8_t*>(msg.data()), msg.size()}));
}

TEST(sha256_gadget, fips_180_4_vectors) {
  const std::pair<std::string, std::string> vectors[] = {
      {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
      {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
      {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
       "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"}};
  for (const auto& [msg, want] : vectors) {
    r1cs::test_cs<> cs;
    const auto digest = sha256(cs, alloc_message(cs, msg));
    EXPECT_EQ(digest_hex(digest), want) << msg;
    EXPECT_EQ(cs.which_is_unsatisfied(), std::nullopt) << msg;
  }
}

TEST(sha256_gadget, random_messages_match_native) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (int rep = 0; rep < 3; ++rep) {
    std::string msg(rng() % 130, '\0');
    for (auto& ch : msg) ch = static_cast<char>(rng());
    r1cs::test_cs<4> cs;
    EXPECT_EQ(digest_hex(sha256(cs, alloc_message(cs, msg))), native_hex(msg)) << msg.size() << " bytes";
    EXPECT_TRUE(cs.is_satisfied());
  }
}

TEST(sha256_gadget, a_tampered_wire_is_named) {
  r1cs::test_cs<> cs;
  sha256(cs, alloc_message(cs, "abc"));
  cs.set_aux_value(1000, cs.aux_value(1000) + fr::one());
  const auto which = cs.which_is_unsatisfied();
  ASSERT_TRUE(which.has_value());
  EXPECT_EQ(which->rfind("block 0/", 0), 0u) << *which;
}

TEST(sha256_gadget, one_compression_costs_a_pinned_number_of_constraints) {
  r1cs::test_cs<> cs;
  std::vector<boolean> block;
  for (int i = 0; i < 512; ++i) block.push_back(boolean::alloc(cs, i % 3 == 0));
  const size_t before = cs.num_constraints();
  sha256_compression(cs, sha256_iv_gadget(), std::span<const boolean, 512>(block));
  EXPECT_EQ(cs.num_constraints() - before, 26081u);
  EXPECT_TRUE(cs.is_satisfied());
}

}  // namespace
}  // namespace zk::circuits
