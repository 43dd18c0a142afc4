// Native SHA-256 through Debian's nettle; speed matters only for the a/b/c digest.
#include "circuits/sha256_native.hpp"

// After our header: nettle defines `sha256_digest` (our digest type's name) as a macro for its function.
#include <nettle/sha2.h>
#undef sha256_digest

namespace zk::circuits {
namespace {

::sha256_ctx* ctx_of(std::array<std::byte, 128>& storage) { return reinterpret_cast<::sha256_ctx*>(storage.data()); }

}  // namespace

static_assert(sizeof(::sha256_ctx) <= 128 && alignof(::sha256_ctx) <= 8, "sha256_hasher::ctx_ holds nettle's context");

sha256_hasher::sha256_hasher() { nettle_sha256_init(ctx_of(ctx_)); }

void sha256_hasher::update(std::span<const uint8_t> data) { nettle_sha256_update(ctx_of(ctx_), data.size(), data.data()); }

sha256_digest sha256_hasher::finish() {
  sha256_digest out;
  nettle_sha256_digest(ctx_of(ctx_), out.size(), out.data());
  return out;
}

sha256_digest sha256(std::span<const uint8_t> data) {
  sha256_hasher h;
  h.update(data);
  return h.finish();
}

std::string to_hex(std::span<const uint8_t> bytes) {
  static constexpr char digit[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (uint8_t b : bytes) {
    out.push_back(digit[b >> 4]);
    out.push_back(digit[b & 15]);
  }
  return out;
}

}  // namespace zk::circuits
