// SHA-256 against the FIPS 180-4 example vectors (NIST CSRC "SHA256.pdf" examples).
#include "harness/core/sha256.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

namespace abtest {
namespace {

TEST(sha256, fips_180_4_vectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(sha256, file_hash_equals_string_hash) {
  const std::string path = testing::TempDir() + "sha256_test.bin";
  std::string data(200000, '\0');
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>(i * 7 + 3);
  std::ofstream(path, std::ios::binary) << data;
  EXPECT_EQ(sha256_file(path), sha256_hex(data));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace abtest
