// The GPU MSM's per-thread steps (gpu/msm/pippenger_steps.hpp) on the CPU, no device needed: the
// recoding against variants/msm's, the bucket split, the segment-sum identity, the sign select, the
// reduction blocks' trees, and pippenger.cu's launch sequence emulated thread by thread against
// zk::msm for both kernel sets.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "gpu/msm/pippenger_steps.hpp"
#include "gpu/random_inputs.hpp"
#include "msm/msm.hpp"
#include "msm/pippenger.hpp"

namespace zk::gpu::msm_steps {
namespace {

scalar_t canonical(const fr& x) {
  scalar_t k;
  x.to_canonical(k.data());
  return k;
}

// Scalars that stress the carries: random ones, 0, 1, r − 1, 2^(c·j) − 1 patterns, all-ones limbs.
std::vector<scalar_t> tricky_scalars(uint64_t seed) {
  std::vector<scalar_t> k = random_scalars(64, seed);
  k.push_back({0, 0, 0, 0});
  k.push_back({1, 0, 0, 0});
  k.push_back(canonical(-fr::one()));
  k.push_back({~0ULL, 0, 0, 0});
  k.push_back({~0ULL, ~0ULL, ~0ULL, 0});
  k.push_back({0, 0, 0, uint64_t{1} << 62});
  k.push_back({0x8000000000000000ULL, 0, 0x8000000000000000ULL, 0});
  return k;
}

TEST(gpu_msm_steps, recoding_matches_the_cpu_recoding_for_every_window) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const std::vector<scalar_t> k = tricky_scalars(seed);
  const size_t n = k.size();
  for (unsigned c = 1; c <= 20; ++c) {
    SCOPED_TRACE("wbits " + std::to_string(c));
    const layout l = make_layout(c);
    std::vector<uint32_t> codes(size_t{l.nwins} * n);
    zk::detail::recode(k, c, 0, n, codes);  // codes[w·n + i]: 0, or (|d| << 1 | sign)
    for (size_t i = 0; i < n; ++i) {
      std::vector<uint32_t> keys(l.nwins), values(l.nwins);
      const uint32_t count = digit_count(k[i].data(), l);
      recode_scalar(k[i].data(), static_cast<uint32_t>(i), l, keys.data(), values.data());
      uint32_t e = 0;
      for (unsigned w = 0; w < l.nwins; ++w) {
        const uint32_t code = codes[w * n + i];
        if (code == 0) continue;
        ASSERT_LT(e, count) << "scalar " << i;
        EXPECT_EQ(keys[e], w * l.nbuckets + (code >> 1) - 1) << "scalar " << i << " window " << w;
        EXPECT_EQ(values[e], static_cast<uint32_t>(i) << 1 | (code & 1)) << "scalar " << i << " window " << w;
        ++e;
      }
      EXPECT_EQ(e, count) << "scalar " << i;
    }
  }
}

// The entries alone give the scalar back, independently of the CPU recoding: for the keys and
// values recode_scalar wrote, Σ ±(key mod nbuckets + 1)·2^(c·w) = k in Fr (every scalar < r), each
// magnitude ≤ 2^(c−1), windows in increasing order, and the value's index the scalar's.
TEST(gpu_msm_steps, entries_sum_back_to_the_scalar) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const std::vector<scalar_t> k = tricky_scalars(seed);
  for (unsigned c = 1; c <= 20; ++c) {
    SCOPED_TRACE("wbits " + std::to_string(c));
    const layout l = make_layout(c);
    const fr radix = fr::from_u64(2).pow(c);
    for (uint32_t i = 0; i < k.size(); ++i) {
      std::vector<uint32_t> keys(l.nwins), values(l.nwins);
      const uint32_t count = digit_count(k[i].data(), l);
      recode_scalar(k[i].data(), i, l, keys.data(), values.data());
      fr sum = fr::zero();
      unsigned next_w = 0;
      for (uint32_t e = 0; e < count; ++e) {
        const uint32_t w = keys[e] / l.nbuckets, mag = keys[e] % l.nbuckets + 1;
        ASSERT_GE(w, next_w) << "scalar " << i << ": windows in order, one entry each";
        next_w = w + 1;
        EXPECT_LE(mag, l.nbuckets);
        EXPECT_EQ(values[e] >> 1, i);
        const fr d = radix.pow(w) * fr::from_u64(mag);
        sum += (values[e] & 1) ? -d : d;
      }
      EXPECT_EQ(sum, fr::from_canonical(k[i].data())) << "scalar " << i;
    }
  }
}

TEST(gpu_msm_steps, zero_makes_no_entry_and_one_a_single_entry) {
  for (unsigned c = 1; c <= 20; ++c) {
    const layout l = make_layout(c);
    const scalar_t zero{0, 0, 0, 0}, one{1, 0, 0, 0};
    EXPECT_EQ(digit_count(zero.data(), l), 0u);
    EXPECT_EQ(digit_count(one.data(), l), 1u);
    uint32_t key = 7, value = 7;
    recode_scalar(one.data(), 5, l, &key, &value);
    EXPECT_EQ(key, 0u);  // window 0, bucket 0 (digit +1)
    EXPECT_EQ(value, 5u << 1);
  }
}

// Bucket offsets from counts, and the pieces' offsets (the exclusive scan of pieces_in).
struct split {
  std::vector<uint32_t> off, poff;
};
split split_of(const std::vector<uint32_t>& counts) {
  split s;
  s.off.assign(counts.size() + 1, 0);
  s.poff.assign(counts.size() + 1, 0);
  for (size_t k = 0; k < counts.size(); ++k) {
    s.off[k + 1] = s.off[k] + counts[k];
    s.poff[k + 1] = s.poff[k] + pieces_in(counts[k]);
  }
  return s;
}

// Both kernel sets' splits: every entry in one piece, in order, none longer than piece_len; the
// tuned split's pieces of one bucket differ in length by at most one.
template <kernel_set K>
void check_pieces(const std::vector<uint32_t>& counts) {
  const split s = split_of(counts);
  const uint32_t nkeys = static_cast<uint32_t>(counts.size());
  EXPECT_LE(s.poff[nkeys], max_pieces(s.off[nkeys], nkeys));
  uint32_t next_entry = 0;
  std::vector<uint32_t> shortest(nkeys, ~0u), longest(nkeys, 0);
  for (uint32_t p = 0; p < s.poff[nkeys]; ++p) {
    const piece pc = piece_at<K>(s.off.data(), s.poff.data(), nkeys, p);
    ASSERT_LT(pc.bucket, nkeys) << "piece " << p;
    EXPECT_GT(counts[pc.bucket], 0u) << "an empty bucket got piece " << p;
    EXPECT_EQ(pc.begin, next_entry) << "piece " << p;
    EXPECT_LT(pc.begin, pc.end) << "piece " << p;
    EXPECT_LE(pc.end - pc.begin, piece_len) << "piece " << p;
    EXPECT_GE(pc.begin, s.off[pc.bucket]);
    EXPECT_LE(pc.end, s.off[pc.bucket + 1]);
    next_entry = pc.end;
    shortest[pc.bucket] = std::min(shortest[pc.bucket], pc.end - pc.begin);
    longest[pc.bucket] = std::max(longest[pc.bucket], pc.end - pc.begin);
  }
  EXPECT_EQ(next_entry, s.off[nkeys]) << "the pieces must reach the last entry";
  if constexpr (K == kernel_set::tuned) {
    for (uint32_t k = 0; k < nkeys; ++k) {
      if (counts[k] == 0) continue;
      EXPECT_LE(longest[k] - shortest[k], 1u) << "bucket " << k << " of " << counts[k];
    }
  }
}

TEST(gpu_msm_steps, pieces_cover_every_bucket_exactly_once_in_order) {
  const std::vector<uint32_t> counts = {0,  1, 0, 0, piece_len - 1, piece_len, piece_len + 1, 2,
                                        0,  100000, 3 * piece_len, 0, piece_len * piece_len + 5, 1, 0};
  check_pieces<kernel_set::first_run>(counts);
  check_pieces<kernel_set::tuned>(counts);
  std::mt19937_64 rng(std::random_device{}());
  std::vector<uint32_t> random_counts(300);
  for (auto& c : random_counts) c = rng() % 4 == 0 ? 0 : static_cast<uint32_t>(rng() % 5000);
  check_pieces<kernel_set::tuned>(random_counts);
}

TEST(gpu_msm_steps, tuned_pieces_are_equal_where_first_run_leaves_a_short_tail) {
  const std::vector<uint32_t> counts = {piece_len + 1};
  const split s = split_of(counts);
  const piece a = piece_at<kernel_set::first_run>(s.off.data(), s.poff.data(), 1, 0);
  const piece b = piece_at<kernel_set::first_run>(s.off.data(), s.poff.data(), 1, 1);
  EXPECT_EQ(a.end - a.begin, piece_len);
  EXPECT_EQ(b.end - b.begin, 1u);
  const piece c = piece_at<kernel_set::tuned>(s.off.data(), s.poff.data(), 1, 0);
  const piece d = piece_at<kernel_set::tuned>(s.off.data(), s.poff.data(), 1, 1);
  EXPECT_EQ(c.end - c.begin, piece_len / 2);
  EXPECT_EQ(d.end - d.begin, piece_len / 2 + 1);
}

TEST(gpu_msm_steps, bounds_are_the_standard_ones) {
  const std::vector<uint32_t> v = {1, 3, 3, 3, 7, 9};
  for (uint32_t x = 0; x <= 10; ++x) {
    EXPECT_EQ(lower_bound(v.data(), v.size(), x), size_t(std::lower_bound(v.begin(), v.end(), x) - v.begin()));
    EXPECT_EQ(upper_bound(v.data(), v.size(), x), size_t(std::upper_bound(v.begin(), v.end(), x) - v.begin()));
  }
  EXPECT_EQ(lower_bound(v.data(), 0, 5), 0u);
}

// Σ_b (b+1)·bucket_b by segments equals the plain running sum, for the device's plan and for
// plans with one segment, one bucket per segment and segments past the last bucket.
TEST(gpu_msm_steps, segment_sums_add_up_to_the_window_sum) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const g1_jacobian g = g1_jacobian::from_affine(g1_generator());
  for (unsigned c : {1u, 2u, 3u, 6u, 9u}) {
    const layout l = make_layout(c);
    // Window w's buckets are k_b·G for small random k_b (some zero): the expected window sum is
    // (Σ (b+1)·k_b)·G, computed in Fr.
    std::vector<g1_xyzz> buckets(l.nkeys());
    std::vector<fr> expected(l.nwins, fr::zero());
    for (uint32_t key = 0; key < l.nkeys(); ++key) {
      const uint64_t k = rng() % 5 == 0 ? 0 : rng() % 1000;
      const fr kf = fr::from_u64(k);
      buckets[key] = g1_xyzz::identity() + scalar_mul(g, canonical(kf).data(), 4).to_affine();
      expected[key / l.nbuckets] += fr::from_u64(key % l.nbuckets + 1) * kf;
    }
    std::vector<reduction_plan> plans = {plan_reduction(l), {1, l.nbuckets, 1}, {l.nbuckets, 1, 1}};
    if (l.nbuckets >= 4) plans.push_back({3, (l.nbuckets + 2) / 3, 1});
    plans.push_back({l.nbuckets + 2, 1, 1});  // two segments past the end
    for (const reduction_plan& r : plans) {
      SCOPED_TRACE("wbits " + std::to_string(c) + " nseg " + std::to_string(r.nseg) + " seg " + std::to_string(r.seg));
      std::vector<g1_xyzz> partial(size_t{l.nwins} * r.nseg);
      for (uint32_t t = 0; t < partial.size(); ++t) partial[t] = segment_sum(buckets.data(), l, r, t);
      for (uint32_t w = 0; w < l.nwins; ++w) {
        EXPECT_EQ(window_sum(partial.data(), r, w).to_jacobian(), scalar_mul(g, canonical(expected[w]).data(), 4))
            << "window " << w;
      }
    }
  }
}

TEST(gpu_msm_steps, mul_small_is_repeated_addition) {
  const g1_xyzz p = g1_xyzz::identity() + g1_generator();
  g1_xyzz sum = g1_xyzz::identity();
  for (uint32_t k = 0; k < 40; ++k) {
    EXPECT_EQ(mul_small(p, k).to_jacobian(), sum.to_jacobian()) << k;
    sum += p;
  }
}

// The tuned level 0's sign: negate_if(P, 1) = −P and negate_if(P, 0) = P in both fields, the
// identity unchanged either way.
TEST(gpu_msm_steps, negate_if_selects_the_negation) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::vector<g1_affine> points = random_points(50, seed);
  points.push_back(g1_affine::identity());
  points.push_back(g1_generator());
  for (const g1_affine& p : points) {
    EXPECT_EQ(negate_if(p, 0), p);
    EXPECT_EQ(negate_if(p, 1), -p);
    EXPECT_EQ(negate_if(p, 3), -p) << "only the sign bit counts";
    using a32 = affine_of<kernel_set::tuned>;
    const a32 q = load_point<fp32>(p), nq = load_point<fp32>(-p);
    const a32 got0 = negate_if(q, 0), got1 = negate_if(q, 1);
    EXPECT_TRUE(got0.x == q.x && got0.y == q.y && got0.inf == q.inf);
    EXPECT_TRUE(got1.x == nq.x && got1.y == nq.y && got1.inf == nq.inf);
  }
}

// The reduction's blocks: segment_of gives every (window, segment) to exactly one thread of one
// block, nblk fits one block's tree, and the plan's segments cover every bucket.
TEST(gpu_msm_steps, reduction_blocks_cover_every_segment_once) {
  for (unsigned c = 1; c <= 20; ++c) {
    SCOPED_TRACE("wbits " + std::to_string(c));
    const layout l = make_layout(c);
    const reduction_plan r = plan_reduction(l);
    EXPECT_EQ(r.nseg, r.nblk * reduce_block);
    EXPECT_GE(r.nblk, 1u);
    EXPECT_LE(r.nblk, reduce_block);
    EXPECT_GE(size_t{r.nseg} * r.seg, l.nbuckets);
    std::vector<uint8_t> seen(size_t{l.nwins} * r.nseg, 0);
    for (uint32_t b = 0; b < l.nwins * r.nblk; ++b)
      for (uint32_t i = 0; i < reduce_block; ++i) {
        const uint32_t t = segment_of(r, b, i);
        ASSERT_LT(t, seen.size());
        EXPECT_EQ(t / r.nseg, b / r.nblk) << "a block stays in its window";
        ++seen[t];
      }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<long>(seen.size()));
  }
}

// A block's tree (the strides and indices the kernel runs, thread by thread) sums what one thread
// adding in turn sums, in both fields.
template <class X>
X tree_model(std::vector<X> v) {
  for (uint32_t stride = static_cast<uint32_t>(v.size()) / 2; stride > 0; stride /= 2)
    for (uint32_t i = 0; i < v.size(); ++i) tree_step(v.data(), i, stride);
  return v[0];
}

TEST(gpu_msm_steps, block_tree_equals_the_serial_sum) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const std::vector<g1_affine> points = random_points(reduce_block, seed);
  std::vector<g1_xyzz> v64(reduce_block);
  std::vector<xyzz_of<kernel_set::tuned>> v32(reduce_block);
  g1_jacobian serial = g1_jacobian::identity();
  for (uint32_t i = 0; i < reduce_block; ++i) {
    const g1_affine p = i % 9 == 4 ? g1_affine::identity() : points[i];  // some identities, as empty segments
    v64[i] = g1_xyzz::identity() + p;
    v32[i] = xyzz_of<kernel_set::tuned>::identity() + load_point<fp32>(p);
    serial += p;
  }
  v64[70] = v64[6];  // equal values meet at the first stride (64): the doubling path
  v32[70] = v32[6];
  serial += points[6];
  serial += -points[70];
  EXPECT_EQ(tree_model(v64).to_jacobian(), serial);
  EXPECT_EQ(to_g1(tree_model(v32)).to_jacobian(), serial);
}

// pippenger.cu's launch sequence, each kernel a loop over its threads and cub's stable radix sort a
// stable sort: what the device computes, step for step.
struct emulation {
  g1_jacobian result;
  size_t nentries = 0;
  unsigned levels = 0;
};

template <kernel_set K>
emulation emulate(std::span<const g1_affine> points, std::span<const scalar_t> scalars, unsigned c) {
  using X = xyzz_of<K>;
  const layout l = make_layout(c);
  const size_t n = points.size();
  const uint32_t nkeys = l.nkeys();
  emulation out;
  std::vector<uint32_t> counts(n + 1, 0), at(n + 1, 0);
  for (size_t i = 0; i < n; ++i) counts[i] = digit_count(scalars[i].data(), l);  // count_digits
  std::exclusive_scan(counts.begin(), counts.end(), at.begin(), 0u);
  const uint32_t nitems = at[n];
  out.nentries = nitems;
  std::vector<X> windows(l.nwins, X::identity());
  if (nitems > 0) {
    std::vector<uint32_t> keys(nitems), values(nitems);
    for (size_t i = 0; i < n; ++i)  // recode
      recode_scalar(scalars[i].data(), static_cast<uint32_t>(i), l, keys.data() + at[i], values.data() + at[i]);
    std::vector<uint32_t> order(nitems);  // SortPairs
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
    std::vector<uint32_t> sorted_keys(nitems), sorted_values(nitems);
    for (uint32_t e = 0; e < nitems; ++e) {
      sorted_keys[e] = keys[order[e]];
      sorted_values[e] = values[order[e]];
    }
    std::vector<uint32_t> off(nkeys + 1), next_off(nkeys + 1), npieces(nkeys + 1);
    for (uint32_t k = 0; k <= nkeys; ++k) off[k] = static_cast<uint32_t>(lower_bound(sorted_keys.data(), nitems, k));
    std::vector<X> sums, next_sums;
    uint32_t entries = nitems;
    for (unsigned level = 0;; ++level) {
      for (uint32_t k = 0; k < nkeys; ++k) npieces[k] = pieces_in(off[k + 1] - off[k]);  // count_pieces
      npieces[nkeys] = 0;
      std::exclusive_scan(npieces.begin(), npieces.end(), next_off.begin(), 0u);
      const uint32_t pieces = next_off[nkeys];
      EXPECT_LE(pieces, max_pieces(nitems, nkeys)) << "the device sizes its piece buffers by max_pieces";
      if (level > 0 && pieces == entries) break;
      next_sums.assign(pieces, X::identity());
      for (uint32_t p = 0; p < pieces; ++p) {
        const piece pc = piece_at<K>(off.data(), next_off.data(), nkeys, p);
        next_sums[p] = level == 0 ? sum_points<K>(points.data(), sorted_values.data(), pc) : sum_partials(sums.data(), pc);
      }
      std::swap(off, next_off);
      std::swap(sums, next_sums);
      entries = pieces;
      out.levels = level + 1;
    }
    std::vector<X> buckets(nkeys);
    for (uint32_t k = 0; k < nkeys; ++k) buckets[k] = bucket_value(sums.data(), off.data(), k);  // gather_buckets
    const reduction_plan r = plan_reduction(l);
    if constexpr (K == kernel_set::first_run) {  // segment_sums, window_sums
      std::vector<X> partial(size_t{l.nwins} * r.nseg);
      for (uint32_t t = 0; t < partial.size(); ++t) partial[t] = segment_sum(buckets.data(), l, r, t);
      for (uint32_t w = 0; w < l.nwins; ++w) windows[w] = window_sum(partial.data(), r, w);
    } else {  // segment_block_sums, window_tree_sums: a block of reduce_block threads each
      std::vector<X> block_sums(size_t{l.nwins} * r.nblk), block(reduce_block);
      for (uint32_t b = 0; b < block_sums.size(); ++b) {
        for (uint32_t i = 0; i < reduce_block; ++i) block[i] = segment_sum(buckets.data(), l, r, segment_of(r, b, i));
        block_sums[b] = tree_model(block);
      }
      for (uint32_t w = 0; w < l.nwins; ++w) {
        for (uint32_t i = 0; i < reduce_block; ++i) block[i] = i < r.nblk ? block_sums[size_t{w} * r.nblk + i] : X::identity();
        windows[w] = tree_model(block);
      }
    }
  }
  std::vector<g1_xyzz> g1_windows(l.nwins);
  for (uint32_t w = 0; w < l.nwins; ++w) g1_windows[w] = to_g1(windows[w]);
  out.result = horner(g1_windows, c);
  return out;
}

class gpu_msm_emulation : public ::testing::Test {
 protected:
  const uint64_t seed = std::random_device{}();
  void check(const std::vector<g1_affine>& points, const std::vector<scalar_t>& scalars, std::initializer_list<unsigned> windows,
             const char* what) {
    const g1_jacobian expected = zk::msm(points, scalars);
    for (unsigned c : windows) {
      EXPECT_EQ(emulate<kernel_set::first_run>(points, scalars, c).result, expected)
          << "first_run, " << what << ", wbits " << c << ", seed " << seed;
      EXPECT_EQ(emulate<kernel_set::tuned>(points, scalars, c).result, expected)
          << "tuned, " << what << ", wbits " << c << ", seed " << seed;
    }
  }
};

TEST_F(gpu_msm_emulation, random_inputs_equal_the_cpu_msm) {
  for (size_t n : {size_t{1}, size_t{2}, size_t{7}, size_t{300}, size_t{2048}}) {
    const auto points = random_points(n, seed + n);
    const auto scalars = random_scalars(n, seed + 100 + n);
    check(points, scalars, {1u, 2u, 5u, 8u, 11u}, ("random, n " + std::to_string(n)).c_str());
  }
}

TEST_F(gpu_msm_emulation, zero_scalars_cost_nothing_and_give_the_identity) {
  const auto points = random_points(500, seed);
  std::vector<scalar_t> scalars(500, scalar_t{0, 0, 0, 0});
  const emulation e = emulate<kernel_set::tuned>(points, scalars, 8);
  EXPECT_EQ(e.nentries, 0u);
  EXPECT_TRUE(e.result.is_identity());
  scalars[17] = canonical(fr::from_u64(3));  // one nonzero among zeros
  check(points, scalars, {1u, 4u, 8u}, "one nonzero scalar");
}

// The witness MSMs' shape: all scalars 1 puts every point in one bucket; 5000 > piece_len² needs
// three levels of pieces.
TEST_F(gpu_msm_emulation, all_ones_fill_one_bucket_which_the_levels_split) {
  const auto points = random_points(5000, seed);
  const std::vector<scalar_t> ones(5000, scalar_t{1, 0, 0, 0});
  const emulation e = emulate<kernel_set::tuned>(points, ones, 10);
  EXPECT_EQ(e.nentries, 5000u);
  EXPECT_EQ(e.levels, 3u);
  g1_jacobian sum = g1_jacobian::identity();
  for (const auto& p : points) sum += p;
  EXPECT_EQ(e.result, sum) << "seed " << seed;
}

TEST_F(gpu_msm_emulation, witness_like_scalars_mostly_zero_and_one) {
  const size_t n = 3000;
  const auto points = random_points(n, seed);
  auto scalars = random_scalars(n, seed + 1);
  std::mt19937_64 rng(seed + 2);
  for (auto& k : scalars) {
    const uint64_t u = rng() % 100;
    if (u < 45) k = {0, 0, 0, 0};
    else if (u < 95) k = {1, 0, 0, 0};
  }
  check(points, scalars, {3u, 9u, 13u}, "mostly 0/1");
}

TEST_F(gpu_msm_emulation, points_at_infinity_duplicates_opposites_and_extreme_scalars) {
  auto points = random_points(400, seed);
  auto scalars = random_scalars(400, seed + 1);
  points[1] = points[0];
  scalars[1] = scalars[0];  // the same point twice in the same buckets: the doubling path
  points[3] = -points[2];
  scalars[3] = scalars[2];  // P + (−P) in the same buckets
  for (size_t i = 10; i < 40; ++i) points[i] = g1_affine::identity();
  for (size_t i = 50; i < 60; ++i) scalars[i] = canonical(-fr::one());  // r − 1: every digit large
  check(points, scalars, {1u, 4u, 7u, 16u}, "edge points");
  const std::vector<g1_affine> all_inf(64, g1_affine::identity());
  check(all_inf, random_scalars(64, seed + 2), {4u}, "every point at infinity");
}

}  // namespace
}  // namespace zk::gpu::msm_steps
