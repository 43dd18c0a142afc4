// zk::gpu::msm_g1: the G1 bucket-method MSM on the device, with B1 registration, D4 windows and timings.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gpu/api.hpp"
#include "gpu/copy_plan.hpp"
#include "gpu/cuda_ok.cuh"
#include "gpu/device.cuh"
#include "gpu/device_memory.cuh"
#include "gpu/launch.cuh"
#include "gpu/msm/pippenger.cuh"
#include "gpu/msm/pippenger_steps.hpp"

namespace zk::gpu {
namespace {

using namespace detail;
using clock_type = std::chrono::steady_clock;
using msm_steps::kernel_set;
constexpr size_t copy_chunk_bytes = size_t{8} << 20;  // staging buffer size: 2 × 8 MiB pinned

// The kernel set this build runs (CMake ABTEST_GPU_MSM_KERNELS; pippenger_steps.hpp describes both).
constexpr kernel_set active_kernels = ABTEST_GPU_MSM_FIRST_RUN ? kernel_set::first_run : kernel_set::tuned;
using xyzz = msm_steps::xyzz_of<active_kernels>;
static_assert(sizeof(xyzz) == sizeof(g1_xyzz), "both fields' points have the same words");

// Reads one uint32 the device wrote (a scan's total) once the stream reaches it.
uint32_t read_back(const uint32_t* device_value, const stream& s) {
  uint32_t v = 0;
  ZK_CUDA_OK(cudaMemcpyAsync(&v, device_value, sizeof v, cudaMemcpyDeviceToHost, s.get()));
  s.sync();
  return v;
}

// Issues the copy plan's chunks on the copy stream, from a thread of its own so that the host's
// staging (pageable memory, B1 off) goes on while the calling thread launches kernels. Registered
// memory (B1 on) is copied straight from the host arrays. done[k] is recorded after chunk k's copy;
// wait_issued(k) returns once it is (a stream may only wait on a recorded event).
class copy_feeder {
 public:
  copy_feeder(const copy_plan& plan, std::vector<const unsigned char*> host, std::vector<unsigned char*> device,
              bool staged)
      : plan_(plan), host_(std::move(host)), device_(std::move(device)), done_(plan.chunks.size()) {
    if (staged)
      for (unsigned k = 0; k < 2 && k < plan.chunks.size(); ++k) slots_.emplace_back(plan.chunk_bytes);
    origin_.record(copy_);
    thread_ = std::thread([this] { run(); });
  }
  ~copy_feeder() { join(); }

  void wait_issued(size_t k) {
    std::unique_lock lock(mutex_);
    issued_cv_.wait(lock, [&] { return issued_ > k || error_; });
    if (error_) std::rethrow_exception(error_);
  }
  const event& done(size_t k) const { return done_[k]; }
  const event& origin() const { return origin_; }
  const event& end() const { return end_; }
  // Joins the thread; rethrows what it threw.
  void join() {
    if (thread_.joinable()) thread_.join();
  }
  void check() {
    join();
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void run() {
    try {
      for (size_t k = 0; k < plan_.chunks.size(); ++k) {
        const copy_chunk& ch = plan_.chunks[k];
        const unsigned char* src = host_[ch.array] + ch.offset;
        if (!slots_.empty()) {
          if (ch.reuse_after) done_[*ch.reuse_after].sync();  // the slot's last copy has left it
          std::memcpy(slots_[ch.slot].get(), src, ch.bytes);
          src = slots_[ch.slot].get();
        }
        ZK_CUDA_OK(cudaMemcpyAsync(device_[ch.array] + ch.offset, src, ch.bytes, cudaMemcpyHostToDevice, copy_.get()));
        done_[k].record(copy_);
        std::lock_guard lock(mutex_);
        issued_ = k + 1;
        issued_cv_.notify_all();
      }
      end_.record(copy_);
    } catch (...) {
      std::lock_guard lock(mutex_);
      error_ = std::current_exception();
      issued_cv_.notify_all();
    }
  }

  const copy_plan& plan_;
  std::vector<const unsigned char*> host_;
  std::vector<unsigned char*> device_;
  stream copy_;
  std::deque<pinned_host_buffer> slots_;
  std::deque<event> done_;
  event origin_, end_;
  std::mutex mutex_;
  std::condition_variable issued_cv_;
  size_t issued_ = 0;
  std::exception_ptr error_;
  std::thread thread_;
};

// The kernel stream waits for chunk k of the feeder; the wait is timed (pre/post events) as exposed copy time.
class copy_waits {
 public:
  void wait(copy_feeder& feeder, size_t k, const stream& s) {
    feeder.wait_issued(k);
    pre_.emplace_back().record(s);
    feeder.done(k).wait_on(s);
    post_.emplace_back().record(s);
  }
  // Seconds the stream stood still in waits `from` … `to` − 1 (to the last by default).
  double seconds(size_t from = 0, size_t to = ~size_t{0}) const {
    double sum = 0;
    for (size_t i = from; i < pre_.size() && i < to; ++i) sum += post_[i].seconds_since(pre_[i]);
    return sum;
  }
  size_t count() const { return pre_.size(); }

 private:
  std::deque<event> pre_, post_;
};

// Named spans of the kernel stream (recode, sort, each level, …): an event at each start and end;
// seconds() reads them once the stream has passed the last.
class phase_marks {
 public:
  void start(const stream& s) { begin_.emplace_back().record(s); }
  void stop(std::string name, const stream& s) {
    end_.emplace_back().record(s);
    names_.push_back(std::move(name));
  }
  // Phase i's seconds, less `minus_s` (copy waits inside it) for the first.
  std::vector<msm_phase> seconds(double first_minus_s) const {
    std::vector<msm_phase> out;
    for (size_t i = 0; i < names_.size(); ++i)
      out.push_back({names_[i], end_[i].seconds_since(begin_[i]) - (i == 0 ? first_minus_s : 0)});
    return out;
  }

 private:
  std::deque<event> begin_, end_;
  std::vector<std::string> names_;
};

// The buckets' reduction to one sum per window (pippenger_steps.hpp), as phases "segments" and
// "windows". A template, so that only the build's kernel set is instantiated.
template <kernel_set K>
void reduce_buckets(const xyzz* buckets, const msm_steps::layout& l, const msm_steps::reduction_plan& plan, xyzz* partial,
                    xyzz* windows, phase_marks& phases, const stream& s) {
  phases.start(s);
  if constexpr (K == kernel_set::tuned)
    msm_kernels::segment_block_sums<<<l.nwins * plan.nblk, msm_steps::reduce_block, 0, s.get()>>>(buckets, l, plan,
                                                                                               partial);
  else
    msm_kernels::segment_sums<<<nblocks(size_t{l.nwins} * plan.nseg), threads_per_block, 0, s.get()>>>(buckets, l, plan,
                                                                                                      partial);
  ZK_CUDA_OK(cudaGetLastError());
  phases.stop("segments", s);
  phases.start(s);
  if constexpr (K == kernel_set::tuned)
    msm_kernels::window_tree_sums<<<l.nwins, msm_steps::reduce_block, 0, s.get()>>>(partial, plan, windows);
  else
    msm_kernels::window_sums<<<nblocks(l.nwins), threads_per_block, 0, s.get()>>>(partial, l.nwins, plan, windows);
  ZK_CUDA_OK(cudaGetLastError());
  phases.stop("windows", s);
}

}  // namespace

status msm_g1(std::span<const g1_affine> points, std::span<const scalar_t> scalars, const msm_config& config,
              g1_jacobian* out, msm_report* report) {
  if (const status st = probe_device(); !st.ok()) return st;
  return guarded([&] {
    if (points.size() != scalars.size()) throw std::invalid_argument("gpu msm: points and scalars differ in length");
    if (out == nullptr) throw std::invalid_argument("gpu msm: out is null");
    const size_t n = points.size();
    msm_report rep;
    rep.host_register = config.host_register;
    const unsigned c = resolve_wbits(config, n);
    if (c < 1 || c > 20) throw std::invalid_argument("gpu msm: wbits outside 1…20");
    const msm_steps::layout l = msm_steps::make_layout(c);
    rep.wbits = c;
    rep.nwins = l.nwins;
    rep.kernels = msm_steps::to_string(active_kernels);
    if (n == 0) {
      *out = g1_jacobian::identity();
      if (report) *report = rep;
      return;
    }
    const size_t max_items = size_t{l.nwins} * n;  // every digit nonzero
    if (n >= (size_t{1} << 31) || max_items >= (size_t{1} << 31))
      throw std::invalid_argument("gpu msm: windows × points must stay below 2^31 — use a larger wbits or split the MSM");

    auto t0 = clock_type::now();
    host_registration pinned_points(points.data(), points.size_bytes(), config.host_register);
    host_registration pinned_scalars(scalars.data(), scalars.size_bytes(), config.host_register);
    rep.time.host_register_s += seconds_between(t0, clock_type::now());
    rep.host_register_error = !pinned_points.failure().empty() ? pinned_points.failure() : pinned_scalars.failure();
    rep.host_register = config.host_register && rep.host_register_error.empty();

    // Every buffer is sized for the worst case and allocated before the timed region.
    const stream s;
    const uint32_t nkeys = l.nkeys();
    const msm_steps::reduction_plan plan = msm_steps::plan_reduction(l);
    const size_t max_pieces = msm_steps::max_pieces(max_items, nkeys);
    device_buffer<g1_affine> d_points(n);
    device_buffer<uint64_t> d_scalars(4 * n);
    device_buffer<uint32_t> counts(n + 1), at(n + 1);
    device_buffer<uint32_t> keys(max_items), values(max_items), sorted_keys(max_items), sorted_values(max_items);
    device_buffer<uint32_t> off_a(size_t{nkeys} + 1), off_b(size_t{nkeys} + 1), npieces(size_t{nkeys} + 1);
    device_buffer<xyzz> sums_a(max_pieces), sums_b(max_pieces), buckets(nkeys);
    // first_run: a partial per segment; tuned: per block of segments.
    const size_t npartial = size_t{l.nwins} * (active_kernels == kernel_set::tuned ? plan.nblk : plan.nseg);
    device_buffer<xyzz> partial(npartial), windows(l.nwins);
    const int end_bit = std::max(1, static_cast<int>(std::bit_width(nkeys - 1)));
    size_t sort_bytes = 0, scan_items_bytes = 0, scan_keys_bytes = 0;
    ZK_CUDA_OK(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, keys.get(), sorted_keys.get(), values.get(),
                                               sorted_values.get(), static_cast<int>(max_items), 0, end_bit, s.get()));
    ZK_CUDA_OK(cub::DeviceScan::ExclusiveSum(nullptr, scan_items_bytes, counts.get(), at.get(), static_cast<int>(n + 1),
                                             s.get()));
    ZK_CUDA_OK(cub::DeviceScan::ExclusiveSum(nullptr, scan_keys_bytes, npieces.get(), off_b.get(),
                                             static_cast<int>(nkeys + 1), s.get()));
    size_t temp_bytes = std::max({sort_bytes, scan_items_bytes, scan_keys_bytes});
    device_buffer<unsigned char> temp(temp_bytes);

    // Copies on their own stream in the copy plan's chunks, scalars first: digit counting starts on
    // each scalar chunk as it lands, and the points stream in under counting, recoding and sorting;
    // the first kernel that reads a point waits for the last point chunk (cuzk's overlap).
    const copy_plan cplan = plan_copies({{scalars.size_bytes(), sizeof(scalar_t)}, {points.size_bytes(), sizeof(g1_affine)}},
                                        copy_chunk_bytes);
    copy_feeder feeder(cplan, {reinterpret_cast<const unsigned char*>(scalars.data()),
                               reinterpret_cast<const unsigned char*>(points.data())},
                       {reinterpret_cast<unsigned char*>(d_scalars.get()), reinterpret_cast<unsigned char*>(d_points.get())},
                       /*staged=*/!rep.host_register);
    copy_waits waits;

    // The timed region holds only kernels (less the waits for copies), and three 4-byte reads of a
    // scan's total that size the next launch (the host waits there; the GPU idles for microseconds).
    std::vector<xyzz> host_windows(l.nwins, xyzz::identity());
    event begin, end;
    phase_marks phases;  // "count" holds the waits for scalar chunks 1 …: seconds() takes them out
    for (size_t k = 0; k <= *cplan.last_chunk[0]; ++k) {
      const copy_chunk& ch = cplan.chunks[k];
      waits.wait(feeder, k, s);
      if (k == 0) {
        begin.record(s);
        phases.start(s);
      }
      const size_t first = ch.offset / sizeof(scalar_t), count = ch.bytes / sizeof(scalar_t);
      // counts[first + count] = 0 is the next chunk's first count until that chunk overwrites it.
      msm_kernels::count_digits<<<nblocks(count + 1), threads_per_block, 0, s.get()>>>(
          d_scalars.get() + 4 * first, static_cast<uint32_t>(count), l, counts.get() + first);
      ZK_CUDA_OK(cudaGetLastError());
    }
    ZK_CUDA_OK(cub::DeviceScan::ExclusiveSum(temp.get(), temp_bytes, counts.get(), at.get(), static_cast<int>(n + 1),
                                             s.get()));
    phases.stop("count", s);
    const size_t count_waits = waits.count();
    const uint32_t nitems = read_back(at.get() + n, s);
    rep.nentries = nitems;
    if (nitems > 0) {  // else every scalar is zero: every window sum is the identity
      phases.start(s);
      msm_kernels::recode<<<nblocks(n), threads_per_block, 0, s.get()>>>(d_scalars.get(), static_cast<uint32_t>(n), l,
                                                                        at.get(), keys.get(), values.get());
      ZK_CUDA_OK(cudaGetLastError());
      phases.stop("recode", s);
      phases.start(s);
      ZK_CUDA_OK(cub::DeviceRadixSort::SortPairs(temp.get(), temp_bytes, keys.get(), sorted_keys.get(), values.get(),
                                                 sorted_values.get(), static_cast<int>(nitems), 0, end_bit, s.get()));
      msm_kernels::bucket_starts<<<nblocks(size_t{nkeys} + 1), threads_per_block, 0, s.get()>>>(
          sorted_keys.get(), nitems, nkeys, off_a.get());
      ZK_CUDA_OK(cudaGetLastError());
      phases.stop("sort", s);

      waits.wait(feeder, *cplan.last_chunk[1], s);  // the points, for the first sum

      // Levels of pieces until every bucket holds at most one entry (pippenger_steps.hpp).
      uint32_t *off = off_a.get(), *next_off = off_b.get();
      xyzz *sums = sums_a.get(), *next_sums = sums_b.get();
      uint32_t entries = nitems;
      for (unsigned level = 0;; ++level) {
        phases.start(s);  // level k: counting its pieces, the scan, the read-back and its sums
        msm_kernels::count_pieces<<<nblocks(size_t{nkeys} + 1), threads_per_block, 0, s.get()>>>(off, nkeys,
                                                                                                npieces.get());
        ZK_CUDA_OK(cudaGetLastError());
        ZK_CUDA_OK(cub::DeviceScan::ExclusiveSum(temp.get(), temp_bytes, npieces.get(), next_off,
                                                 static_cast<int>(nkeys + 1), s.get()));
        const uint32_t pieces = read_back(next_off + nkeys, s);
        if (level > 0 && pieces == entries) {  // one piece per entry: no bucket has two
          phases.stop("last_count", s);
          break;
        }
        if (level == 0)
          msm_kernels::sum_point_pieces<active_kernels><<<nblocks(pieces), threads_per_block, 0, s.get()>>>(
              d_points.get(), sorted_values.get(), off, next_off, nkeys, pieces, next_sums);
        else
          msm_kernels::sum_partial_pieces<active_kernels><<<nblocks(pieces), threads_per_block, 0, s.get()>>>(
              sums, off, next_off, nkeys, pieces, next_sums);
        ZK_CUDA_OK(cudaGetLastError());
        phases.stop("level" + std::to_string(level), s);
        std::swap(off, next_off);
        std::swap(sums, next_sums);
        entries = pieces;
        rep.levels = level + 1;
      }
      phases.start(s);
      msm_kernels::gather_buckets<<<nblocks(nkeys), threads_per_block, 0, s.get()>>>(sums, off, nkeys, buckets.get());
      ZK_CUDA_OK(cudaGetLastError());
      phases.stop("gather", s);
      reduce_buckets<active_kernels>(buckets.get(), l, plan, partial.get(), windows.get(), phases, s);
    }
    end.record(s);
    feeder.check();
    const double waited_s = waits.seconds();
    rep.time.kernel_s = end.seconds_since(begin) - waits.seconds(1);  // begin follows the first wait
    rep.phases = phases.seconds(waits.seconds(1, count_waits));
    // Copy time: the copy stream's span. Exposed: the kernel stream's waits for it (the first
    // chunk's wait included); the rest ran under kernels.
    const double copy_s = feeder.end().seconds_since(feeder.origin());
    rep.time.transfer_s += copy_s;
    rep.time.transfer_exposed_s += std::min(copy_s, waited_s);
    rep.time.transfer_hidden_s += copy_s - std::min(copy_s, waited_s);

    if (nitems > 0) {
      t0 = clock_type::now();
      ZK_CUDA_OK(cudaMemcpyAsync(host_windows.data(), windows.get(), l.nwins * sizeof(xyzz), cudaMemcpyDeviceToHost,
                                 s.get()));
      s.sync();
      const double back_s = seconds_between(t0, clock_type::now());
      rep.time.transfer_s += back_s;
      rep.time.transfer_exposed_s += back_s;
    }

    t0 = clock_type::now();
    pinned_scalars.release();
    pinned_points.release();
    rep.time.host_register_s += seconds_between(t0, clock_type::now());

    std::vector<g1_xyzz> g1_windows(l.nwins);
    for (unsigned w = 0; w < l.nwins; ++w) g1_windows[w] = msm_steps::to_g1(host_windows[w]);
    *out = msm_steps::horner(g1_windows, c);
    if (report) *report = rep;
  });
}

}  // namespace zk::gpu
