// The GPU backend's public interface: Fr NTT and G1 MSM on a CUDA device, with no CUDA type in sight.
//
// Every call returns a status instead of throwing: `gpu_disabled` in a build without CUDA,
// `no_device` when the build has CUDA but the host has no usable GPU, `invalid_argument` for bad
// input, `cuda_error` (with `expr@file:line`) for a failed CUDA call. The entry points mirror the
// CPU ones (zk::ntt / zk::coset_ntt in ntt/ntt.hpp, zk::msm in msm/msm.hpp), on the same types.
//
//   std::string why;
//   if (!zk::gpu::device_available(&why)) fail(why);                  // or fall back to the CPU
//   zk::gpu::msm_report rep;
//   zk::g1_jacobian acc;
//   zk::gpu::status st = zk::gpu::msm_g1(points, zk::to_scalars(frs), {.wbits = 0}, &acc, &rep);
//   if (!st.ok()) fail(st.message);
//   record(rep.wbits, rep.host_register, rep.host_register_s, rep.transfer_s, rep.kernel_s);
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ec/curves.hpp"
#include "ff/fr.hpp"
#include "msm/msm.hpp"
#include "msm/window.hpp"

namespace zk::gpu {

enum class status_code {
  ok,
  gpu_disabled,      // built without CUDA (ABTEST_CUDA=OFF, or AUTO without nvcc)
  no_device,         // built with CUDA, but no usable device at run time
  invalid_argument,  // bad sizes or configuration; nothing ran
  cuda_error,        // a CUDA call failed; message = "error-name: expr@file:line"
};
const char* to_string(status_code code);

struct status {
  status_code code = status_code::ok;
  std::string message;  // empty when ok
  bool ok() const { return code == status_code::ok; }
};

// Whether this build compiled the CUDA kernels (false: the stub).
bool compiled_with_cuda();

// True when a device of compute capability ≥ 8.0 (the kernels are built for sm_80 and sm_90) can
// run; otherwise false and, if `why` is given, the reason (gpu_disabled / no_device message).
bool device_available(std::string* why = nullptr);
// ok with the device in words ("NVIDIA H200, sm_90, 139.8 GiB") in `message`, or why not.
status device_status();

// B1's default for this build: ABTEST_B1_HOST_REGISTER (abtest/toggles/b1.hpp).
bool default_host_register();

// Seconds per stage of one call. host_register_s: cudaHostRegister before the copies plus
// cudaHostUnregister after (0 when host_register is off); transfer_s: host↔device copies;
// kernel_s: the kernels alone, timed with CUDA events on their stream (no table building, allocation,
// upload or free inside it, nor the kernel stream's waits for copies). The MSM copies on its own
// stream while the kernels run (gpu/copy_plan.hpp): transfer_exposed_s is the time the kernel stream
// waited for copies (before its first kernel and between kernels, plus the result's read-back),
// transfer_hidden_s = transfer_s − transfer_exposed_s, the copy time the kernels covered.
struct timings {
  double host_register_s = 0, transfer_s = 0, kernel_s = 0;
  double transfer_hidden_s = 0, transfer_exposed_s = 0;
};

// B1 at proof scope: cudaHostRegister of every range added, cudaHostUnregister of all of them in
// release() (or the destructor), so the cost grows with the bytes a proof registers. Calls on a
// registered range copy straight from it and do not register it again. Without B1 (enabled false),
// or in a build without CUDA, it does nothing. A failed registration is kept in failure(); the
// copies then run pageable, through the staging buffers.
//
//   zk::gpu::host_pins pins(opt.host_register);
//   pins.add(points.data(), points.size_bytes());
//   … msm_g1 calls …
//   t.host_register_s += pins.register_s() + pins.release();
class host_pins {
 public:
  explicit host_pins(bool enabled);
  ~host_pins();
  host_pins(const host_pins&) = delete;
  host_pins& operator=(const host_pins&) = delete;

  void add(const void* ptr, size_t bytes);
  double release();  // unregisters every range; returns the seconds it took
  double register_s() const { return register_s_; }
  size_t bytes() const { return bytes_; }
  const std::string& failure() const { return failure_; }

 private:
  bool enabled_;
  std::vector<void*> ranges_;
  size_t bytes_ = 0;
  double register_s_ = 0;
  std::string failure_;
};

// ---- NTT over Fr ----------------------------------------------------------------------------------

enum class ntt_direction { forward, inverse };
enum class ntt_domain {
  natural,  // the subgroup ⟨ωₙ⟩: forward = zk::ntt, inverse = zk::intt
  coset,    // the coset g·⟨ωₙ⟩ with g = fr::generator(): forward = zk::coset_ntt(a, g), inverse = zk::coset_intt(a, g)
};

struct ntt_config {
  bool host_register = default_host_register();  // B1: pin `data` while it is copied
};

struct ntt_report {
  bool host_register = false;       // what ran: false when B1 was asked for but registration failed
  std::string host_register_error;  // non-empty: why cudaHostRegister failed (the copies ran pageable)
  timings time;
};

// Transforms data[0 … 2^lg_domain_size) in place, natural order in and out, the same values as the
// CPU functions named above. lg_domain_size ≤ 30.
status ntt(fr* data, unsigned lg_domain_size, ntt_direction direction, ntt_domain domain,
           const ntt_config& config = {}, ntt_report* report = nullptr);

// ---- The device's field (gpu/ff/mont32.hpp) --------------------------------------------------------

// field_self_test: n random Fp pairs plus edge values (0, 1, p − 1, R mod p, …) on the device: the
// PTX product against the portable one there, and the products, squares, sums and differences of
// both against the host's 64-bit path. mismatches = 0 is a pass; `first` describes the first one.
struct field_check_report {
  size_t inputs = 0, mismatches = 0;
  std::string first;
};
status field_self_test(size_t n, uint64_t seed, field_check_report* report);

// field_bench: multiplications and squarings per second over the whole device (independent chains
// in every thread) and the latency of one (a single dependent chain), for the 12×32 field (mont32)
// and the 6×64 one (mont64) the first device run's kernels used.
struct field_bench_row {
  std::string field, op;  // "mont32" | "mont64", "mul" | "sqr"
  double ops_per_s = 0, latency_ns = 0;
};
status field_bench(std::vector<field_bench_row>* rows);

// ---- MSM over G1 ----------------------------------------------------------------------------------

struct msm_config {
  unsigned wbits = 0;  // window bits 1…20; 0 = auto: msm_window_bits() of the length `window` picks
  msm_window_policy window = default_msm_window_policy();  // D4 (abtest/toggles/d4.hpp)
  size_t shared_npoints = 0;  // window::shared: the average length of the proof's MSMs (0 = this one's)
  bool host_register = default_host_register();  // B1: pin points and scalars while they are copied
};

// One span of the MSM's kernel stream, timed with CUDA events (gpu/msm/pippenger.cu): "count"
// (digit counting and its scan, less the waits for scalar copies), "recode", "sort" (radix sort and
// bucket starts), "level0", "level1", … (each level's piece count, scan and sums), "last_count" (the
// count that finds every bucket done), "gather", "segments" and "windows" (the bucket reduction).
struct msm_phase {
  std::string name;
  double kernel_s = 0;
};

struct msm_report {
  unsigned wbits = 0, nwins = 0;  // the window that ran and its number of windows
  std::string kernels;            // the kernel set this build runs: "tuned" or "first_run" (ABTEST_GPU_MSM_KERNELS)
  std::vector<msm_phase> phases;  // in launch order; "count" alone when every scalar is zero
  bool host_register = false;       // what ran: false when B1 was asked for but registration failed
  std::string host_register_error;  // non-empty: why cudaHostRegister failed (the copies ran pageable)
  size_t nentries = 0;              // nonzero signed digits: the entries sorted into buckets
  unsigned levels = 0;              // bucket-accumulation levels (pippenger_steps.hpp)
  timings time;
};

// The GPU's window for one MSM of npoints points (gpu/msm/window.cpp).
unsigned msm_window_bits(size_t npoints);
// The window config resolves to for an MSM of npoints points: wbits if set, else msm_window_bits
// of npoints (per_msm) or of shared_npoints (shared).
unsigned resolve_wbits(const msm_config& config, size_t npoints);

// *out = Σ scalars[i]·points[i] (bucket method, signed digits), equal to zk::msm on the same input.
// The spans must have the same length; identity points and zero scalars are allowed (a zero digit
// costs nothing past recoding, so mostly-0/1 witness scalars are cheap).
status msm_g1(std::span<const g1_affine> points, std::span<const scalar_t> scalars, const msm_config& config,
              g1_jacobian* out, msm_report* report = nullptr);

}  // namespace zk::gpu
