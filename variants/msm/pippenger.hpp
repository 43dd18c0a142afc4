// Pippenger's bucket method with signed window digits and XYZZ buckets, generic over the group.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "ec/parallel_for.hpp"
#include "msm/msm.hpp"

namespace zk::detail {

// Signed base-2^c digits of a 255-bit scalar: dⱼ ∈ [−2^(c−1), 2^(c−1)], Σ dⱼ·2^(c·j) = k. A digit
// above 2^(c−1) becomes d − 2^c with a carry into the next window, so each window needs only
// 2^(c−1) buckets (Bootle et al. 2016 §4; the trick blst and sppark use). nwins = ⌊255/c⌋ + 1
// leaves room for the last carry: the top window holds 255 mod c < c bits.
inline unsigned msm_nwins(unsigned c) { return 255 / c + 1; }

inline uint64_t window_bits_at(const scalar_t& k, unsigned bit, unsigned c) {
  const unsigned limb = bit / 64, shift = bit % 64;
  if (limb >= 4) return 0;
  uint64_t v = k[limb] >> shift;
  if (shift + c > 64 && limb + 1 < 4) v |= k[limb + 1] << (64 - shift);
  return v & ((uint64_t{1} << c) - 1);
}

// digits[w·n + i] for window w, point i: 0 = skip, else (bucket index + 1) << 1 | sign.
inline void recode(std::span<const scalar_t> scalars, unsigned c, size_t begin, size_t end,
                   std::vector<uint32_t>& digits) {
  const unsigned nwins = msm_nwins(c);
  const size_t n = scalars.size();
  const uint64_t half = uint64_t{1} << (c - 1);
  for (size_t i = begin; i < end; ++i) {
    uint64_t carry = 0;
    for (unsigned w = 0; w < nwins; ++w) {
      uint64_t v = window_bits_at(scalars[i], w * c, c) + carry;
      carry = v > half;
      uint32_t code = 0;
      if (carry) {
        const uint64_t neg = (uint64_t{1} << c) - v;  // digit −neg; v = 2^c leaves digit 0
        code = neg == 0 ? 0 : static_cast<uint32_t>(neg << 1 | 1);
      } else if (v != 0) {
        code = static_cast<uint32_t>(v << 1);
      }
      digits[w * n + i] = code;
    }
  }
}

// One window over points [begin, end): bucket b holds Σ of points whose digit is ±(b+1), then
// Σ (b+1)·bucket_b by the running-sum trick (2·2^(c−1) additions).
template <class A>
jacobian_t<typename A::field, typename A::curve> window_sum(std::span<const A> points,
                                                            const uint32_t* codes, unsigned c,
                                                            size_t begin, size_t end) {
  using X = xyzz_t<typename A::field, typename A::curve>;
  std::vector<X> buckets(size_t{1} << (c - 1), X::identity());
  for (size_t i = begin; i < end; ++i) {
    const uint32_t code = codes[i];
    if (code == 0) continue;
    X& b = buckets[(code >> 1) - 1];
    if (code & 1) b -= points[i];
    else b += points[i];
  }
  X running = X::identity(), acc = X::identity();
  for (size_t b = buckets.size(); b-- > 0;) {
    running += buckets[b];
    acc += running;
  }
  return acc.to_jacobian();
}

template <class A>
jacobian_t<typename A::field, typename A::curve> pippenger(std::span<const A> points,
                                                           std::span<const scalar_t> scalars,
                                                           const msm_options& opt) {
  using J = jacobian_t<typename A::field, typename A::curve>;
  if (points.size() != scalars.size())
    throw std::invalid_argument("msm: points and scalars differ in length");
  const size_t n = points.size();
  if (n == 0) return J::identity();
  const unsigned c = opt.wbits == 0 ? msm_window_bits(n) : opt.wbits;
  if (c < 1 || c > 20) throw std::invalid_argument("msm: wbits outside 1…20");
  const unsigned nthreads = resolve_threads(opt.nthreads);
  const unsigned nwins = msm_nwins(c);

  // Split the points into chunks so that windows × chunks ≥ 2 × threads keeps every core busy.
  const size_t min_chunk = 1024;
  size_t nchunks = std::max<size_t>(1, (2 * nthreads + nwins - 1) / nwins);
  nchunks = std::min(nchunks, std::max<size_t>(1, n / min_chunk));
  if (nthreads == 1) nchunks = 1;
  const size_t chunk = (n + nchunks - 1) / nchunks;

  std::vector<uint32_t> digits(nwins * n);
  parallel_for(nchunks, nthreads, [&](size_t t) {
    recode(scalars, c, t * chunk, std::min(n, (t + 1) * chunk), digits);
  });
  std::vector<J> partial(nwins * nchunks);
  parallel_for(nwins * nchunks, nthreads, [&](size_t task) {
    const size_t w = task / nchunks, t = task % nchunks;
    partial[task] = window_sum(points, digits.data() + w * n, c, t * chunk, std::min(n, (t + 1) * chunk));
  });
  // Horner over the windows, top first: acc = 2^c·acc + Wⱼ.
  J acc = J::identity();
  for (size_t w = nwins; w-- > 0;) {
    for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
    for (size_t t = 0; t < nchunks; ++t) acc += partial[w * nchunks + t];
  }
  return acc;
}

}  // namespace zk::detail
