// G1/G2 point encodings in the zcash / blst convention (compressed and uncompressed).
//
// Big-endian coordinates, Fp2 as c1 ‖ c0. The top three bits of the first byte are flags:
// 0x80 compressed, 0x40 point at infinity (all other bits zero), 0x20 (compressed only) y is the
// lexicographically largest of ±y. Decoding rejects non-canonical coordinates, bad flags, points off
// the curve and, unless told not to, points outside the prime-order subgroup.
//
//   auto bytes = zk::g1_to_compressed(zk::g1_generator());     // 97f1d3a7…c6bb
//   std::optional<zk::g1_affine> p = zk::g1_from_compressed(bytes);
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "ec/curves.hpp"

namespace zk {

enum class subgroup_check { yes, no };

std::array<uint8_t, 48> g1_to_compressed(const g1_affine& p);
std::array<uint8_t, 96> g1_to_uncompressed(const g1_affine& p);
std::array<uint8_t, 96> g2_to_compressed(const g2_affine& p);
std::array<uint8_t, 192> g2_to_uncompressed(const g2_affine& p);

std::optional<g1_affine> g1_from_compressed(std::span<const uint8_t, 48> b,
                                            subgroup_check check = subgroup_check::yes);
std::optional<g1_affine> g1_from_uncompressed(std::span<const uint8_t, 96> b,
                                              subgroup_check check = subgroup_check::yes);
std::optional<g2_affine> g2_from_compressed(std::span<const uint8_t, 96> b,
                                            subgroup_check check = subgroup_check::yes);
std::optional<g2_affine> g2_from_uncompressed(std::span<const uint8_t, 192> b,
                                              subgroup_check check = subgroup_check::yes);

}  // namespace zk
