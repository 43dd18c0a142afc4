// Native SHA-256 (FIPS 180-4), byte-oriented and portable; speed matters only for the a/b/c digest.
#include "circuits/sha256_native.hpp"

#include <bit>
#include <cstring>

namespace zk::circuits {

void sha256_compress(std::array<uint32_t, 8>& state, const uint8_t* block) {
  uint32_t w[64];
  for (int i = 0; i < 16; ++i) {
    w[i] = (uint32_t{block[4 * i]} << 24) | (uint32_t{block[4 * i + 1]} << 16) |
           (uint32_t{block[4 * i + 2]} << 8) | uint32_t{block[4 * i + 3]};
  }
  for (int i = 16; i < 64; ++i) {
    const uint32_t s0 = std::rotr(w[i - 15], 7) ^ std::rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    const uint32_t s1 = std::rotr(w[i - 2], 17) ^ std::rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
  for (int i = 0; i < 64; ++i) {
    const uint32_t s1 = std::rotr(e, 6) ^ std::rotr(e, 11) ^ std::rotr(e, 25);
    const uint32_t ch = (e & f) ^ (~e & g);
    const uint32_t t1 = h + s1 + ch + sha256_k[i] + w[i];
    const uint32_t s0 = std::rotr(a, 2) ^ std::rotr(a, 13) ^ std::rotr(a, 22);
    const uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
    const uint32_t t2 = s0 + maj;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
}

void sha256_hasher::update(std::span<const uint8_t> data) {
  total_bytes_ += data.size();
  size_t pos = 0;
  if (buffered_ > 0) {
    const size_t take = std::min(data.size(), 64 - buffered_);
    std::memcpy(buffer_.data() + buffered_, data.data(), take);
    buffered_ += take;
    pos = take;
    if (buffered_ < 64) return;
    sha256_compress(state_, buffer_.data());
    buffered_ = 0;
  }
  for (; pos + 64 <= data.size(); pos += 64) sha256_compress(state_, data.data() + pos);
  std::memcpy(buffer_.data(), data.data() + pos, data.size() - pos);
  buffered_ = data.size() - pos;
}

// Padding (FIPS 180-4 §5.1.1): 0x80, zeros to 56 mod 64, the bit length as 64-bit big-endian.
sha256_digest sha256_hasher::finish() {
  const uint64_t bits = total_bytes_ * 8;
  const uint8_t one_bit = 0x80;
  update({&one_bit, 1});
  const uint8_t zero = 0;
  while (buffered_ != 56) update({&zero, 1});
  uint8_t len[8];
  for (int i = 0; i < 8; ++i) len[i] = static_cast<uint8_t>(bits >> (56 - 8 * i));
  update(len);
  sha256_digest out;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j) out[4 * i + j] = static_cast<uint8_t>(state_[i] >> (24 - 8 * j));
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
