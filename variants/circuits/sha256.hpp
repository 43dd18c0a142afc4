// SHA-256 gadget (FIPS 180-4 over boolean wires): the compression function and whole-message hashing.
//
// Bits are big-endian within each byte, as the standard writes them: bit 0 of a message is the most
// significant bit of its first byte. Round structure as in bellman's sha256: the new e and the new a
// are each ONE addmany over the deferred terms of T1 (and T2), so no intermediate sum is allocated.
#pragma once

#include <array>
#include <span>
#include <string>
#include <vector>

#include "circuits/sha256_native.hpp"
#include "circuits/uint32.hpp"

namespace zk::circuits {

template <r1cs::constraint_system CS>
std::array<uint32_gadget, 8> sha256_compression(CS& cs, const std::array<uint32_gadget, 8>& state,
                                                std::span<const boolean, 512> block) {
  std::array<uint32_gadget, 64> w;
  for (int i = 0; i < 16; ++i) w[i] = uint32_gadget::from_bits_be(block.subspan(32 * i).template first<32>());
  for (int i = 16; i < 64; ++i) {
    r1cs::namespace_guard ns(cs, [i] { return "schedule " + std::to_string(i); });
    const uint32_gadget s0 = w[i - 15].rotr(7).xor_(cs, w[i - 15].rotr(18)).xor_(cs, w[i - 15].shr(3));
    const uint32_gadget s1 = w[i - 2].rotr(17).xor_(cs, w[i - 2].rotr(19)).xor_(cs, w[i - 2].shr(10));
    const std::array<uint32_gadget, 4> terms = {w[i - 16], s0, w[i - 7], s1};
    w[i] = uint32_gadget::addmany(cs, terms);
  }
  uint32_gadget a = state[0], b = state[1], c = state[2], d = state[3];
  uint32_gadget e = state[4], f = state[5], g = state[6], h = state[7];
  for (int i = 0; i < 64; ++i) {
    r1cs::namespace_guard ns(cs, [i] { return "round " + std::to_string(i); });
    const uint32_gadget s1 = e.rotr(6).xor_(cs, e.rotr(11)).xor_(cs, e.rotr(25));
    const uint32_gadget ch = uint32_gadget::sha256_ch(cs, e, f, g);
    const uint32_gadget k = uint32_gadget::constant(sha256_k[i]);
    const uint32_gadget s0 = a.rotr(2).xor_(cs, a.rotr(13)).xor_(cs, a.rotr(22));
    const uint32_gadget maj = uint32_gadget::sha256_maj(cs, a, b, c);
    const std::array<uint32_gadget, 6> new_e = {d, h, s1, ch, k, w[i]};        // d + T1
    const std::array<uint32_gadget, 7> new_a = {h, s1, ch, k, w[i], s0, maj};  // T1 + T2
    h = g;
    g = f;
    f = e;
    e = uint32_gadget::addmany(cs, new_e);
    d = c;
    c = b;
    b = a;
    a = uint32_gadget::addmany(cs, new_a);
  }
  const std::array<uint32_gadget, 8> working = {a, b, c, d, e, f, g, h};
  std::array<uint32_gadget, 8> out;
  for (int i = 0; i < 8; ++i) {
    const std::array<uint32_gadget, 2> terms = {state[i], working[i]};
    out[i] = uint32_gadget::addmany(cs, terms);
  }
  return out;
}

inline std::array<uint32_gadget, 8> sha256_iv_gadget() {
  std::array<uint32_gadget, 8> iv;
  for (int i = 0; i < 8; ++i) iv[i] = uint32_gadget::constant(sha256_iv[i]);
  return iv;
}

// SHA-256 of a whole message of message.size() bits (any length); padding bits are constants.
// Returns the 256 digest bits, big-endian.
template <r1cs::constraint_system CS>
std::vector<boolean> sha256(CS& cs, std::span<const boolean> message) {
  std::vector<boolean> padded(message.begin(), message.end());
  padded.push_back(boolean::constant(true));
  while (padded.size() % 512 != 448) padded.push_back(boolean::constant(false));
  const uint64_t len = message.size();
  for (int i = 63; i >= 0; --i) padded.push_back(boolean::constant((len >> i) & 1));
  std::array<uint32_gadget, 8> state = sha256_iv_gadget();
  for (size_t blk = 0; blk < padded.size() / 512; ++blk) {
    r1cs::namespace_guard ns(cs, [blk] { return "block " + std::to_string(blk); });
    state = sha256_compression(cs, state, std::span<const boolean, 512>(padded.data() + 512 * blk, 512));
  }
  std::vector<boolean> digest;
  digest.reserve(256);
  for (const auto& word : state)
    for (int i = 31; i >= 0; --i) digest.push_back(word.bit(i));
  return digest;
}

}  // namespace zk::circuits
