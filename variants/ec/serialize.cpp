// zcash / blst point encodings: flags in the top three bits, Fp2 written c1 first.
#include "ec/serialize.hpp"

#include <algorithm>
#include <cstring>

namespace zk {
namespace {

constexpr uint8_t flag_compressed = 0x80;
constexpr uint8_t flag_infinity = 0x40;
constexpr uint8_t flag_sign = 0x20;
constexpr uint8_t flag_mask = 0xe0;

void put(uint8_t* out, const fp& a) {
  const auto b = a.to_bytes_be();
  std::copy(b.begin(), b.end(), out);
}
void put(uint8_t* out, const fp2& a) {
  put(out, a.c1);
  put(out + 48, a.c0);
}

// Reads one coordinate; the caller has cleared the flag bits of the first byte.
std::optional<fp> get_fp(const uint8_t* in) {
  return fp::from_bytes_be(std::span<const uint8_t, 48>(in, 48));
}
std::optional<fp2> get_fp2(const uint8_t* in) {
  const auto c1 = get_fp(in);
  const auto c0 = get_fp(in + 48);
  if (!c1 || !c0) return std::nullopt;
  return fp2{*c0, *c1};
}

// Infinity encodes as the flags alone; anything else is then malformed.
bool only_flags(const uint8_t* in, size_t n) {
  if ((in[0] & ~flag_mask) != 0) return false;
  return std::all_of(in + 1, in + n, [](uint8_t v) { return v == 0; });
}

template <class A>
std::optional<A> checked(const A& p, subgroup_check check) {
  if (!p.is_on_curve()) return std::nullopt;
  if (check == subgroup_check::yes && !is_in_subgroup(p)) return std::nullopt;
  return p;
}

// Shared decoder: N = bytes per coordinate (48 for G1, 96 for G2).
template <class A, size_t N, class Get>
std::optional<A> decode(std::span<const uint8_t> b, bool compressed, subgroup_check check, Get get) {
  const uint8_t flags = b[0] & flag_mask;
  if (((flags & flag_compressed) != 0) != compressed) return std::nullopt;
  if (flags & flag_infinity) {
    if ((flags & flag_sign) || !only_flags(b.data(), b.size())) return std::nullopt;
    return A::identity();
  }
  std::array<uint8_t, 2 * N> buf{};
  std::memcpy(buf.data(), b.data(), b.size());
  buf[0] &= static_cast<uint8_t>(~flag_mask);
  const auto x = get(buf.data());
  if (!x) return std::nullopt;
  if (!compressed) {
    if (flags & flag_sign) return std::nullopt;
    const auto y = get(buf.data() + N);
    if (!y) return std::nullopt;
    return checked(A{*x, *y, false}, check);
  }
  const auto y = (x->sqr() * *x + A::curve::b()).sqrt();
  if (!y) return std::nullopt;
  const bool want_largest = (flags & flag_sign) != 0;
  const bool largest = [&] {
    if constexpr (N == 48) return lexicographically_largest(*y);
    else return y->lexicographically_largest();
  }();
  return checked(A{*x, largest == want_largest ? *y : -*y, false}, check);
}

}  // namespace

std::array<uint8_t, 48> g1_to_compressed(const g1_affine& p) {
  std::array<uint8_t, 48> out{};
  if (p.inf) {
    out[0] = flag_compressed | flag_infinity;
    return out;
  }
  put(out.data(), p.x);
  out[0] |= flag_compressed | (lexicographically_largest(p.y) ? flag_sign : 0);
  return out;
}

std::array<uint8_t, 96> g1_to_uncompressed(const g1_affine& p) {
  std::array<uint8_t, 96> out{};
  if (p.inf) {
    out[0] = flag_infinity;
    return out;
  }
  put(out.data(), p.x);
  put(out.data() + 48, p.y);
  return out;
}

std::array<uint8_t, 96> g2_to_compressed(const g2_affine& p) {
  std::array<uint8_t, 96> out{};
  if (p.inf) {
    out[0] = flag_compressed | flag_infinity;
    return out;
  }
  put(out.data(), p.x);
  out[0] |= flag_compressed | (p.y.lexicographically_largest() ? flag_sign : 0);
  return out;
}

std::array<uint8_t, 192> g2_to_uncompressed(const g2_affine& p) {
  std::array<uint8_t, 192> out{};
  if (p.inf) {
    out[0] = flag_infinity;
    return out;
  }
  put(out.data(), p.x);
  put(out.data() + 96, p.y);
  return out;
}

std::optional<g1_affine> g1_from_compressed(std::span<const uint8_t, 48> b, subgroup_check check) {
  return decode<g1_affine, 48>(b, true, check, get_fp);
}
std::optional<g1_affine> g1_from_uncompressed(std::span<const uint8_t, 96> b, subgroup_check check) {
  return decode<g1_affine, 48>(b, false, check, get_fp);
}
std::optional<g2_affine> g2_from_compressed(std::span<const uint8_t, 96> b, subgroup_check check) {
  return decode<g2_affine, 96>(b, true, check, get_fp2);
}
std::optional<g2_affine> g2_from_uncompressed(std::span<const uint8_t, 192> b, subgroup_check check) {
  return decode<g2_affine, 96>(b, false, check, get_fp2);
}

}  // namespace zk
