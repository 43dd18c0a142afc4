// zk::gpu::field_self_test and field_bench: the device's Fp (12×32 PTX, gpu/ff/mont32.hpp) checked and timed on the device.
#include <algorithm>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "ff/fp.hpp"
#include "gpu/api.hpp"
#include "gpu/cuda_ok.cuh"
#include "gpu/device.cuh"
#include "gpu/device_memory.cuh"
#include "gpu/ff/mont32.hpp"
#include "gpu/launch.cuh"

namespace zk::gpu {
namespace {

using namespace detail;

// Results per input pair, in this order.
enum result_slot : unsigned { slot_mul_ptx, slot_mul_portable, slot_sqr, slot_add, slot_sub, nslots };

__global__ void __launch_bounds__(threads_per_block)
    field_ops(const fp* a, const fp* b, uint32_t n, fp* out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const fp32 x = fp32::from_fp(a[i]), y = fp32::from_fp(b[i]);
  fp* o = out + size_t{i} * nslots;
  o[slot_mul_ptx] = fp32::mul_ptx(x, y).to_fp();
  o[slot_mul_portable] = fp32::mul_portable(x, y).to_fp();
  o[slot_sqr] = x.sqr().to_fp();
  o[slot_add] = (x + y).to_fp();
  o[slot_sub] = (x - y).to_fp();
}

enum class field_op { mul, sqr };

template <class F>
__device__ F load(const fp& x) {
  if constexpr (std::is_same_v<F, fp>) return x;
  else return F::from_fp(x);
}
template <class F>
__device__ fp store(const F& x) {
  if constexpr (std::is_same_v<F, fp>) return x;
  else return x.to_fp();
}

// `chains` independent dependent chains of `iters` operations per thread: with 4 chains and a full
// grid the multiplier is never idle (throughput); with 1 chain and 1 thread every operation waits
// for the one before (latency). The sums go to sink so that nothing is optimized away.
template <class F, field_op Op, unsigned chains>
__global__ void __launch_bounds__(threads_per_block)
    field_chain(const fp* seeds, uint32_t iters, fp* sink) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  F x[chains];
  for (unsigned j = 0; j < chains; ++j) x[j] = load<F>(seeds[(t + j) % 64]);
  const F y = load<F>(seeds[t % 61]);
  for (uint32_t k = 0; k < iters; ++k) {
#pragma unroll
    for (unsigned j = 0; j < chains; ++j) {
      if constexpr (Op == field_op::mul) x[j] = x[j] * y;
      else x[j] = x[j].sqr();
    }
  }
  F acc = x[0];
  for (unsigned j = 1; j < chains; ++j) acc += x[j];
  sink[t] = store<F>(acc);
}

std::vector<fp> random_fps(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<fp> v(n);
  for (auto& x : v) x = fp::random(rng);
  return v;
}

// Seconds of one launch of `kernel` (a warm-up launch first: module load, clocks).
template <class Kernel>
double time_launch(Kernel kernel, unsigned blocks, unsigned threads, const fp* seeds, uint32_t iters, fp* sink,
                   const stream& s) {
  kernel<<<blocks, threads, 0, s.get()>>>(seeds, 1, sink);
  ZK_CUDA_OK(cudaGetLastError());
  event begin, end;
  begin.record(s);
  kernel<<<blocks, threads, 0, s.get()>>>(seeds, iters, sink);
  ZK_CUDA_OK(cudaGetLastError());
  end.record(s);
  return end.seconds_since(begin);
}

template <class F, field_op Op>
field_bench_row bench_one(const char* field, const fp* seeds, fp* sink, unsigned sms, const stream& s) {
  constexpr unsigned chains = 4;
  constexpr uint32_t iters = 256, latency_iters = 4096;
  const unsigned blocks = sms * 4;
  const double busy_s = time_launch(field_chain<F, Op, chains>, blocks, threads_per_block, seeds, iters, sink, s);
  const double one_s = time_launch(field_chain<F, Op, 1>, 1, 1, seeds, latency_iters, sink, s);
  const double ops = double(blocks) * threads_per_block * chains * iters;
  return {field, Op == field_op::mul ? "mul" : "sqr", ops / busy_s, one_s / latency_iters * 1e9};
}

}  // namespace

status field_self_test(size_t n, uint64_t seed, field_check_report* report) {
  if (const status st = probe_device(); !st.ok()) return st;
  return guarded([&] {
    if (report == nullptr) throw std::invalid_argument("gpu field self-test: report is null");
    std::vector<fp> a = random_fps(n, seed), b = random_fps(n, seed + 1);
    // Edge values against every other edge value: 0, 1, 2, p − 1, p − 2, R mod p, −1, a top word of ones.
    fp pm1{}, pm2{}, top{};
    for (size_t i = 0; i < 6; ++i) pm1.limbs[i] = pm2.limbs[i] = fp_params::modulus[i];
    pm1.limbs[0] -= 1;
    pm2.limbs[0] -= 2;
    top.limbs[5] = fp_params::modulus[5] - 1;
    fp raw_one{}, raw_two{};
    raw_one.limbs[0] = 1;
    raw_two.limbs[0] = 2;
    const std::vector<fp> edges = {fp::zero(), fp::one(), raw_one, raw_two, pm1, pm2, -fp::one(), top};
    for (const fp& x : edges)
      for (const fp& y : edges) a.push_back(x), b.push_back(y);
    const size_t total = a.size();
    const stream s;
    device_buffer<fp> da(total), db(total), dout(total * nslots);
    ZK_CUDA_OK(cudaMemcpyAsync(da.get(), a.data(), total * sizeof(fp), cudaMemcpyHostToDevice, s.get()));
    ZK_CUDA_OK(cudaMemcpyAsync(db.get(), b.data(), total * sizeof(fp), cudaMemcpyHostToDevice, s.get()));
    field_ops<<<nblocks(total), threads_per_block, 0, s.get()>>>(da.get(), db.get(), static_cast<uint32_t>(total),
                                                                 dout.get());
    ZK_CUDA_OK(cudaGetLastError());
    std::vector<fp> out(total * nslots);
    ZK_CUDA_OK(cudaMemcpyAsync(out.data(), dout.get(), out.size() * sizeof(fp), cudaMemcpyDeviceToHost, s.get()));
    s.sync();
    field_check_report rep;
    rep.inputs = total;
    static const char* names[nslots] = {"PTX product", "portable product", "square", "sum", "difference"};
    for (size_t i = 0; i < total; ++i) {
      const fp want[nslots] = {a[i] * b[i], a[i] * b[i], a[i].sqr(), a[i] + b[i], a[i] - b[i]};
      for (unsigned k = 0; k < nslots; ++k) {
        if (out[i * nslots + k] == want[k]) continue;
        if (rep.mismatches++ == 0)
          rep.first = std::string(names[k]) + " of " + a[i].to_hex() + " and " + b[i].to_hex() + ": device " +
                      out[i * nslots + k].to_hex() + ", host " + want[k].to_hex();
      }
    }
    *report = rep;
  });
}

status field_bench(std::vector<field_bench_row>* rows) {
  if (const status st = probe_device(); !st.ok()) return st;
  return guarded([&] {
    if (rows == nullptr) throw std::invalid_argument("gpu field bench: rows is null");
    int dev = 0, sms = 0;
    ZK_CUDA_OK(cudaGetDevice(&dev));
    ZK_CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    const std::vector<fp> seeds = random_fps(64, 1);
    const stream s;
    device_buffer<fp> dseeds(seeds.size()), sink(size_t(sms) * 4 * threads_per_block);
    ZK_CUDA_OK(cudaMemcpyAsync(dseeds.get(), seeds.data(), seeds.size() * sizeof(fp), cudaMemcpyHostToDevice, s.get()));
    const unsigned n = static_cast<unsigned>(sms);
    rows->clear();
    rows->push_back(bench_one<fp32, field_op::mul>("mont32", dseeds.get(), sink.get(), n, s));
    rows->push_back(bench_one<fp32, field_op::sqr>("mont32", dseeds.get(), sink.get(), n, s));
    rows->push_back(bench_one<fp, field_op::mul>("mont64", dseeds.get(), sink.get(), n, s));
    rows->push_back(bench_one<fp, field_op::sqr>("mont64", dseeds.get(), sink.get(), n, s));
  });
}

}  // namespace zk::gpu
