// Native SHA-256 against the FIPS 180-4 / NIST example vectors, whole and fed in pieces.
#include "circuits/sha256_native.hpp"

#include <gtest/gtest.h>

#include <string>

namespace zk::circuits {
namespace {

std::string hex_of(const std::string& msg) {
  return to_hex(sha256({reinterpret_cast<const uint8_t*>(msg.data()), msg.size()}));
}

TEST(sha256_native, fips_180_4_vectors) {
  EXPECT_EQ(hex_of(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex_of("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(hex_of("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  EXPECT_EQ(hex_of(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(sha256_native, incremental_updates_equal_one_shot) {
  const std::string msg(300, 'x');
  for (size_t cut : {0, 1, 55, 56, 63, 64, 65, 200}) {
    sha256_hasher h;
    h.update({reinterpret_cast<const uint8_t*>(msg.data()), cut});
    h.update({reinterpret_cast<const uint8_t*>(msg.data()) + cut, msg.size() - cut});
    EXPECT_EQ(to_hex(h.finish()), hex_of(msg)) << cut;
  }
}

}  // namespace
}  // namespace zk::circuits
