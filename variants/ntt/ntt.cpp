// Iterative radix-2 Cooley–Tukey NTT (decimation in time after a bit-reversal permutation),
// each stage's butterflies split across threads.
#include "ntt/ntt.hpp"

#include <bit>
#include <stdexcept>
#include <utility>
#include <vector>

#include "ec/parallel_for.hpp"

namespace zk {
namespace {

constexpr size_t chunk = 1 << 12;  // butterflies per task: amortises task pickup, fits in L1/L2

unsigned check_size(size_t n) {
  if (n == 0 || !std::has_single_bit(n) || n > (size_t{1} << 32))
    throw std::invalid_argument("ntt: length must be a power of two ≤ 2^32");
  return static_cast<unsigned>(std::countr_zero(n));
}

// The low lg bits of v in reverse order.
size_t reverse_bits(size_t v, unsigned lg) {
  size_t r = 0;
  for (unsigned i = 0; i < lg; ++i, v >>= 1) r = (r << 1) | (v & 1);
  return r;
}

// a[i] *= s^i.
void scale_by_powers(std::span<fr> a, const fr& s, unsigned nthreads) {
  parallel_for((a.size() + chunk - 1) / chunk, nthreads, [&](size_t t) {
    const size_t begin = t * chunk, end = std::min(a.size(), begin + chunk);
    fr p = s.pow(begin);
    for (size_t i = begin; i < end; ++i) {
      a[i] *= p;
      p *= s;
    }
  });
}

void transform(std::span<fr> a, const fr& root, unsigned nthreads) {
  const size_t n = a.size();
  if (n == 1) return;
  bit_reverse(a);
  // twiddles[j] = root^j, j < n/2; the stage of span 2m uses every (n/2m)-th one.
  std::vector<fr> twiddles(n / 2);
  parallel_for((n / 2 + chunk - 1) / chunk, nthreads, [&](size_t t) {
    const size_t begin = t * chunk, end = std::min(n / 2, begin + chunk);
    fr p = root.pow(begin);
    for (size_t j = begin; j < end; ++j) {
      twiddles[j] = p;
      p *= root;
    }
  });
  for (size_t m = 1; m < n; m *= 2) {
    const size_t stride = n / (2 * m);
    parallel_for((n / 2 + chunk - 1) / chunk, nthreads, [&](size_t t) {
      // Butterfly b is (group b / m, offset j = b mod m); divide once, then step j and wrap.
      const size_t begin = t * chunk, end = std::min(n / 2, begin + chunk);
      size_t j = begin % m, i0 = (begin / m) * 2 * m + j;
      for (size_t b = begin; b < end; ++b) {
        const fr v = a[i0 + m] * twiddles[j * stride];
        a[i0 + m] = a[i0] - v;
        a[i0] = a[i0] + v;
        if (++j == m) {
          j = 0;
          i0 += m + 1;  // skip the odd half of the group just finished
        } else {
          ++i0;
        }
      }
    });
  }
}

}  // namespace

fr domain_root(unsigned lg_domain_size) {
  if (lg_domain_size > fr_params::two_adicity) throw std::invalid_argument("ntt: domain larger than 2^32");
  fr w = fr::root_of_unity();
  for (unsigned i = lg_domain_size; i < fr_params::two_adicity; ++i) w = w.sqr();
  return w;
}

void bit_reverse(std::span<fr> a) {
  const unsigned lg = check_size(a.size());
  if (lg == 0) return;
  for (size_t i = 0; i < a.size(); ++i) {
    const size_t j = reverse_bits(i, lg);
    if (i < j) std::swap(a[i], a[j]);
  }
}

void ntt(std::span<fr> a, unsigned nthreads) {
  transform(a, domain_root(check_size(a.size())), nthreads);
}

void intt(std::span<fr> a, unsigned nthreads) {
  const unsigned lg = check_size(a.size());
  transform(a, domain_root(lg).inverse(), nthreads);
  const fr n_inv = fr::from_u64(a.size()).inverse();
  parallel_for((a.size() + chunk - 1) / chunk, nthreads, [&](size_t t) {
    for (size_t i = t * chunk; i < std::min(a.size(), (t + 1) * chunk); ++i) a[i] *= n_inv;
  });
}

void coset_ntt(std::span<fr> a, const fr& shift, unsigned nthreads) {
  check_size(a.size());
  scale_by_powers(a, shift, nthreads);
  ntt(a, nthreads);
}

void coset_intt(std::span<fr> a, const fr& shift, unsigned nthreads) {
  intt(a, nthreads);
  scale_by_powers(a, shift.inverse(), nthreads);
}

}  // namespace zk
