// zk::gpu with CUDA: device discovery (no_device when there is none, or none the kernels were built for).
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "gpu/api.hpp"
#include "gpu/device.cuh"

namespace zk::gpu {
namespace detail {

status probe_device() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();
    return {status_code::no_device, std::string("no usable CUDA device (") + cudaGetErrorName(err) + ": " +
                                        cudaGetErrorString(err) + ") — run on a host with an NVIDIA GPU and driver"};
  }
  if (count == 0)
    return {status_code::no_device, "no CUDA device found — run on a host with an NVIDIA GPU"};
  int dev = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
    cudaGetLastError();
    return {status_code::no_device, "cannot read the CUDA device's properties — check the driver (nvidia-smi)"};
  }
  char what[256];
  std::snprintf(what, sizeof what, "%.200s, sm_%d%d, %.1f GiB", prop.name, prop.major, prop.minor,
                static_cast<double>(prop.totalGlobalMem) / (1ull << 30));
  if (prop.major < 8)
    return {status_code::no_device, std::string(what) + ": the kernels are built for sm_80 and sm_90 only — use a GPU of compute capability 8.0 or newer"};
  return {status_code::ok, what};
}

}  // namespace detail

bool compiled_with_cuda() { return true; }

host_pins::host_pins(bool enabled) : enabled_(enabled) {}

host_pins::~host_pins() {
  for (void* p : ranges_) cudaHostUnregister(p);
}

void host_pins::add(const void* ptr, size_t bytes) {
  if (!enabled_ || bytes == 0 || !failure_.empty()) return;
  const auto t0 = std::chrono::steady_clock::now();
  const cudaError_t err = cudaHostRegister(const_cast<void*>(ptr), bytes, cudaHostRegisterDefault);
  register_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (err == cudaSuccess) {
    ranges_.push_back(const_cast<void*>(ptr));
    bytes_ += bytes;
    return;
  }
  cudaGetLastError();
  if (err != cudaErrorHostMemoryAlreadyRegistered)
    failure_ = std::string(cudaGetErrorName(err)) + ": cudaHostRegister of " + std::to_string(bytes) +
               " bytes failed; the copies ran from pageable memory";
}

double host_pins::release() {
  const auto t0 = std::chrono::steady_clock::now();
  for (void* p : ranges_) cudaHostUnregister(p);
  ranges_.clear();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

status device_status() { return detail::probe_device(); }

bool device_available(std::string* why) {
  const status st = detail::probe_device();
  if (why) *why = st.ok() ? std::string() : st.message;
  return st.ok();
}

}  // namespace zk::gpu
