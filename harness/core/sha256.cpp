// SHA-256 of strings and files through Debian's nettle: the harness only needs a collision-resistant
// fingerprint of build outputs, and a well-kept library is one copy of FIPS 180-4 for the whole tree.
#include "harness/core/sha256.hpp"

#include <fmt/format.h>
#include <nettle/sha2.h>

#include <array>
#include <fstream>
#include <vector>

#include "harness/core/errors.hpp"

namespace abtest {
namespace {

std::string hex_digest(sha256_ctx& ctx) {
  std::array<uint8_t, SHA256_DIGEST_SIZE> digest{};
  sha256_digest(&ctx, digest.size(), digest.data());
  std::string out;
  out.reserve(2 * digest.size());
  for (const uint8_t b : digest) out += fmt::format("{:02x}", b);
  return out;
}

}  // namespace

std::string sha256_hex(std::string_view data) {
  sha256_ctx ctx;
  sha256_init(&ctx);
  sha256_update(&ctx, data.size(), reinterpret_cast<const uint8_t*>(data.data()));
  return hex_digest(ctx);
}

std::string sha256_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw user_error(exit_code::build_failed, fmt::format("cannot read {} to hash it — check the build produced it", path.string()));
  sha256_ctx ctx;
  sha256_init(&ctx);
  std::vector<char> buf(1 << 16);
  while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())) || in.gcount() > 0)
    sha256_update(&ctx, static_cast<size_t>(in.gcount()), reinterpret_cast<const uint8_t*>(buf.data()));
  return hex_digest(ctx);
}

}  // namespace abtest
