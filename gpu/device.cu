// zk::gpu with CUDA: device discovery (no_device when there is none, or none the kernels were built for).
#include <cuda_runtime.h>

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

status device_status() { return detail::probe_device(); }

bool device_available(std::string* why) {
  const status st = detail::probe_device();
  if (why) *why = st.ok() ? std::string() : st.message;
  return st.ok();
}

}  // namespace zk::gpu
