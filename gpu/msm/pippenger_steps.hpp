// The GPU MSM's per-thread steps as ZK_HD functions: pippenger.cuh's kernels run them on the device,
// tests/gpu/msm_steps_test.cpp runs them on the CPU against zk::msm, so CI checks the logic without a GPU.
//
// The launch sequence (gpu/msm/pippenger.cu), one step per kernel, each thread calling one function here:
//   digit_count → exclusive scan → recode_scalar      every nonzero signed digit becomes one entry
//   radix sort by key → lower_bound                    entries grouped by bucket, off[k] = bucket k's first
//   pieces_in → scan → piece_at + sum_*                buckets summed in pieces of ≤ piece_len entries,
//                                                      level after level, until each has ≤ 1 entry
//   bucket_value → segment_sum → window_sum | tree    Σ (b+1)·bucket_b per window, then Σ 2^(c·w)·W_w
//   → horner
//
// Two kernel sets share these steps (a build's choice, ABTEST_GPU_MSM_KERNELS, so that one pack
// times both side by side): first_run, the kernels the first device run timed (6×64 field, the
// sign by a branch, one thread per window summing its segments), and tuned (12×32 PTX field,
// the sign by a select, a block per window combining its segments in a tree).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "ec/curves.hpp"
#include "ff/hd.hpp"
#include "gpu/ff/mont32.hpp"
#include "msm/pippenger.hpp"

namespace zk::gpu::msm_steps {

enum class kernel_set { first_run, tuned };
inline const char* to_string(kernel_set k) { return k == kernel_set::first_run ? "first_run" : "tuned"; }

// The field a kernel set computes in, and its G1 point types; points arrive as g1_affine (6×64).
template <kernel_set K>
using field_of = std::conditional_t<K == kernel_set::first_run, fp, fp32>;
template <kernel_set K>
using affine_of = affine_t<field_of<K>, g1_curve>;
template <kernel_set K>
using xyzz_of = xyzz_t<field_of<K>, g1_curve>;

// A g1_affine in the field F (the 32-bit words of the same Montgomery values).
template <class F>
ZK_HD affine_t<F, g1_curve> load_point(const g1_affine& p) {
  if constexpr (std::is_same_v<F, fp>) return p;
  else return {F::from_fp(p.x), F::from_fp(p.y), p.inf};
}
// An XYZZ point of either field as g1_xyzz (for the host's Horner sum).
template <class X>
g1_xyzz to_g1(const X& p) {
  if constexpr (std::is_same_v<X, g1_xyzz>) return p;
  else return {p.x.to_fp(), p.y.to_fp(), p.zz.to_fp(), p.zzz.to_fp()};
}

// One MSM's digit layout for window bits c. A nonzero signed digit d of window w is one entry:
// key = w·nbuckets + |d| − 1 (its bucket, the sort key), value = point index << 1 | (d < 0).
// Zero digits make no entry: a zero scalar costs nothing after recoding, a scalar 1 one entry.
struct layout {
  unsigned c, nwins;
  uint32_t nbuckets;  // 2^(c−1): the digits' magnitudes are 1 … 2^(c−1)
  ZK_HD uint32_t nkeys() const { return nwins * nbuckets; }
};

inline layout make_layout(unsigned c) { return {c, zk::detail::msm_nwins(c), uint32_t{1} << (c - 1)}; }

// Bits [bit, bit + c) of the 256-bit little-endian k (zero past the top).
ZK_HD inline uint64_t window_bits_at(const uint64_t* k, unsigned bit, unsigned c) {
  const unsigned limb = bit / 64, shift = bit % 64;
  if (limb >= 4) return 0;
  uint64_t v = k[limb] >> shift;
  if (shift + c > 64 && limb + 1 < 4) v |= k[limb + 1] << (64 - shift);
  return v & ((uint64_t{1} << c) - 1);
}

// Calls f(w, magnitude, negative) for each nonzero signed base-2^c digit of k, window 0 first, with
// the carry of variants/msm/pippenger.hpp's recode: a window value above 2^(c−1) becomes v − 2^c and
// carries one into the next window (v = 2^c leaves digit 0).
template <class F>
ZK_HD void for_each_digit(const uint64_t* k, const layout& l, F&& f) {
  const uint64_t half = uint64_t{1} << (l.c - 1);
  uint64_t carry = 0;
  for (unsigned w = 0; w < l.nwins; ++w) {
    const uint64_t v = window_bits_at(k, w * l.c, l.c) + carry;
    carry = v > half;
    const uint64_t mag = carry ? (uint64_t{1} << l.c) - v : v;
    if (mag != 0) f(w, static_cast<uint32_t>(mag), carry != 0);
  }
}

// How many entries scalar k makes (its nonzero digits); 0 for k = 0, 1 for k = 1.
ZK_HD inline uint32_t digit_count(const uint64_t* k, const layout& l) {
  uint32_t n = 0;
  for_each_digit(k, l, [&](unsigned, uint32_t, bool) { ++n; });
  return n;
}

// Writes point i's entries to keys[0 …), values[0 …) (the caller offsets them by the exclusive
// prefix sum of digit_count), digit_count(k) of each.
ZK_HD inline void recode_scalar(const uint64_t* k, uint32_t i, const layout& l, uint32_t* keys, uint32_t* values) {
  for_each_digit(k, l, [&](unsigned w, uint32_t mag, bool negative) {
    *keys++ = w * l.nbuckets + mag - 1;
    *values++ = i << 1 | (negative ? 1u : 0u);
  });
}

// The first position in sorted[0 … n) holding a value ≥ x (n when none).
ZK_HD inline size_t lower_bound(const uint32_t* sorted, size_t n, uint32_t x) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// The first position in sorted[0 … n) holding a value > x (n when none).
ZK_HD inline size_t upper_bound(const uint32_t* sorted, size_t n, uint32_t x) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (sorted[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// ---- Bucket accumulation in pieces ---------------------------------------------------------------
// One thread per bucket would leave the witness MSMs (A, B_G1, L: mostly 0/1 scalars) with one
// thread adding ~n points into window 0's bucket 0 while the rest idle. Instead each bucket's
// entries [off[k], off[k+1]) are cut into pieces of at most piece_len, one thread sums each piece,
// and the piece sums of a bucket are the next level's entries (a segmented reduction). A level
// divides the longest chain by piece_len: uniform scalars (n/2^(c−1) entries a bucket) take one or
// two levels, a bucket of 2^24 entries four. Uniform inputs keep the thread count near nitems/piece_len.
// piece_len 64: not yet tuned on a device (gpu-bench's MSM rows time it); 32–128 are all plausible.
constexpr uint32_t piece_len = 64;

ZK_HD inline uint32_t pieces_in(uint32_t count) { return (count + piece_len - 1) / piece_len; }

// An upper bound on a level's pieces: Σ ⌈count_k/piece_len⌉ ≤ ⌊nitems/piece_len⌋ + nkeys, and a
// piece holds at least one entry.
inline size_t max_pieces(size_t nitems, uint32_t nkeys) {
  const size_t bound = nitems / piece_len + nkeys;
  return bound < nitems ? bound : nitems;
}

struct piece {
  uint32_t bucket, begin, end;  // the bucket it belongs to and its entries [begin, end)
};

// Piece p of a level whose bucket k has entries [off[k], off[k+1]) and pieces [poff[k], poff[k+1])
// (poff = the exclusive scan of pieces_in of the counts, poff[nkeys] = the level's pieces > p).
// first_run: pieces of piece_len from the bucket's start, the last one short (65 entries: 64 + 1,
// one thread with 64 additions beside one with 1). tuned: the bucket's count cut into its np pieces
// as evenly as possible, piece j = [j·count/np, (j+1)·count/np) — sizes differ by at most one and
// stay ≤ piece_len (count/np ≤ piece_len), so no thread of a level waits on a longer piece of its
// own bucket (65 entries: 33 + 32).
template <kernel_set K>
ZK_HD piece piece_at(const uint32_t* off, const uint32_t* poff, uint32_t nkeys, uint32_t p) {
  const uint32_t k = static_cast<uint32_t>(upper_bound(poff, size_t{nkeys} + 1, p)) - 1;
  const uint32_t j = p - poff[k];
  if constexpr (K == kernel_set::first_run) {
    const uint32_t begin = off[k] + j * piece_len;
    const uint32_t end = off[k + 1] < begin + piece_len ? off[k + 1] : begin + piece_len;
    return {k, begin, end};
  } else {
    const uint64_t count = off[k + 1] - off[k], np = poff[k + 1] - poff[k];
    return {k, off[k] + static_cast<uint32_t>(j * count / np), off[k] + static_cast<uint32_t>((j + 1) * count / np)};
  }
}

// p, or −p when negative is 1, without a branch: −y is computed either way and the limbs chosen
// by a mask, so a warp whose digits differ in sign does not diverge. The identity stays itself
// (its y = 0 and −0 = 0).
template <class A>
ZK_HD A negate_if(const A& p, uint32_t negative) {
  using limb = std::remove_cvref_t<decltype(p.y.limbs[0])>;
  const auto ny = -p.y;
  const limb mask = limb{0} - static_cast<limb>(negative & 1);
  A r = p;
  ZK_UNROLL
  for (size_t i = 0; i < sizeof(p.y.limbs) / sizeof(limb); ++i) r.y.limbs[i] = (p.y.limbs[i] & ~mask) | (ny.limbs[i] & mask);
  return r;
}

// Level 0: the sum of a piece's points, each negated where its digit was negative (XYZZ mixed
// additions, madd-2008-s). first_run: `acc -= P` or `acc += P` by a branch, two inlined additions;
// tuned: one addition call site on negate_if's select.
template <kernel_set K>
ZK_HD xyzz_of<K> sum_points(const g1_affine* points, const uint32_t* sorted_values, const piece& pc) {
  using F = field_of<K>;
  xyzz_of<K> acc = xyzz_of<K>::identity();
  for (uint32_t e = pc.begin; e < pc.end; ++e) {
    const uint32_t v = sorted_values[e];
    if constexpr (K == kernel_set::first_run) {
      if (v & 1) acc -= points[v >> 1];
      else acc += points[v >> 1];
    } else {
      acc += negate_if(load_point<F>(points[v >> 1]), v & 1);
    }
  }
  return acc;
}

// Later levels: the sum of a piece's partial sums (add-2008-s).
template <class X>
ZK_HD X sum_partials(const X* partials, const piece& pc) {
  X acc = X::identity();
  for (uint32_t e = pc.begin; e < pc.end; ++e) acc += partials[e];
  return acc;
}

// After the last level every bucket has at most one entry: that entry, or the identity.
template <class X>
ZK_HD X bucket_value(const X* partials, const uint32_t* off, uint32_t k) {
  return off[k + 1] > off[k] ? partials[off[k]] : X::identity();
}

// ---- Window sums ---------------------------------------------------------------------------------

// k·p for a small k by double-and-add.
template <class X>
ZK_HD X mul_small(const X& p, uint32_t k) {
  X r = X::identity();
  for (int bit = 31; bit >= 0; --bit) {
    r = r.dbl();
    if ((k >> bit) & 1) r += p;
  }
  return r;
}

// Window w's Σ (b+1)·bucket_b is reduced in nseg segments of seg buckets, one thread per
// (window, segment) so the 2^(c−1)-long running sum does not run on one thread. The segments of a
// window are nblk blocks of reduce_block threads: tuned sums each block's segments in a tree
// (segment_block_sums), then each window's nblk block sums in another (window_tree_sums);
// first_run runs the same segments, then one thread per window adds its nseg partials in turn.
struct reduction_plan {
  uint32_t nseg, seg, nblk;
};
// Threads the reduction aims for: enough segments to fill the device without a long tail.
constexpr uint32_t reduction_threads = 1u << 14;
// Threads of a reduction block: its tree holds one XYZZ point a thread in shared memory
// (128 × 192 B = 24 KiB); a window's nblk = ⌈128 / nwins⌉ ≤ 10 block sums fit one block's tree.
constexpr uint32_t reduce_block = 128;
inline reduction_plan plan_reduction(const layout& l) {
  uint32_t nblk = (reduction_threads + l.nwins * reduce_block - 1) / (l.nwins * reduce_block);
  const uint32_t most = l.nbuckets / reduce_block;  // past it, segments would be empty
  nblk = nblk > most ? most : nblk;
  nblk = nblk < 1 ? 1 : nblk;
  const uint32_t nseg = nblk * reduce_block;
  return {nseg, (l.nbuckets + nseg - 1) / nseg, nblk};
}

// Thread t = w·nseg + s: over buckets [lo, hi) = [s·seg, min(nbuckets, lo + seg)) of window w the
// running-sum trick gives weighted = Σ (b−lo+1)·bucket_b (written to `weighted`) and returns
// total = Σ bucket_b. Segments past the end give the identity twice. The tuned kernel keeps
// `weighted` in its shared-memory slot: with three points live in registers (it, the running sum and
// the next bucket) ptxas spilled at 255 registers; with two it needs 244 and spills nothing.
template <class X>
ZK_HD X segment_running_sums(const X* buckets, const layout& l, const reduction_plan& r, uint32_t t, X& weighted) {
  const uint32_t w = t / r.nseg, s = t % r.nseg;
  const uint32_t lo = s * r.seg, hi = l.nbuckets < lo + r.seg ? l.nbuckets : lo + r.seg;
  const X* b = buckets + size_t{w} * l.nbuckets;
  X running = X::identity();
  weighted = X::identity();
  for (uint32_t j = hi; j-- > lo;) {
    running += b[j];
    weighted = weighted + running;
  }
  return running;
}
// The first bucket of thread t's segment.
ZK_HD inline uint32_t segment_lo(const reduction_plan& r, uint32_t t) { return (t % r.nseg) * r.seg; }
// Σ (b+1)·bucket_b over the segment = weighted + lo·total.
template <class X>
ZK_HD X segment_value(const X& weighted, const X& total, uint32_t lo) {
  return lo == 0 || total.is_identity() ? weighted : weighted + mul_small(total, lo);
}
template <class X>
ZK_HD X segment_sum(const X* buckets, const layout& l, const reduction_plan& r, uint32_t t) {
  X weighted = X::identity();
  const X total = segment_running_sums(buckets, l, r, t, weighted);
  return segment_value(weighted, total, segment_lo(r, t));
}

// first_run: window w's sum, its segments added one after another by one thread.
template <class X>
ZK_HD X window_sum(const X* partial, const reduction_plan& r, uint32_t w) {
  X acc = X::identity();
  for (uint32_t s = 0; s < r.nseg; ++s) acc += partial[size_t{w} * r.nseg + s];
  return acc;
}

// tuned: one step of a block's tree sum over v[0 … 2·stride): v[i] += v[i + stride] for i < stride.
// The block runs stride = n/2, n/4, …, 1 with a barrier after each, and v[0] ends as the sum of
// the n values (n a power of two).
template <class X>
ZK_HD void tree_step(X* v, uint32_t i, uint32_t stride) {
  if (i < stride) v[i] = v[i] + v[stride + i];
}
// The segment thread i of block b = w·nblk + j sums: t = w·nseg + j·reduce_block + i.
ZK_HD inline uint32_t segment_of(const reduction_plan& r, uint32_t b, uint32_t i) {
  return (b / r.nblk) * r.nseg + (b % r.nblk) * reduce_block + i;
}

// On the host: Σ over the windows by Horner, top first: acc = 2^c·acc + W_w (as pippenger.hpp).
inline g1_jacobian horner(std::span<const g1_xyzz> windows, unsigned c) {
  g1_jacobian acc = g1_jacobian::identity();
  for (size_t w = windows.size(); w-- > 0;) {
    for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
    acc += windows[w].to_jacobian();
  }
  return acc;
}

}  // namespace zk::gpu::msm_steps
