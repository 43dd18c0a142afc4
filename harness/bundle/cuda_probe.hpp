// Finds a CUDA device through the driver alone (dlopen of libcuda.so.1: no CUDA headers, no toolkit),
// for a bundle plan with a toggle that `requires: cuda`, and names the GPU and driver for the results.
#pragma once

#include <string>

namespace abtest::bundle {

struct cuda_probe {
  int devices = 0;            // cuDeviceGetCount; 0 when the driver is missing or reports none
  std::string why_none;       // when devices == 0: what failed (the library, cuInit's code, …)
  std::string gpu_name;       // device 0 (cuDeviceGetName)
  int driver_api = 0;         // cuDriverGetVersion, e.g. 12080 (CUDA 12.8)
  std::string driver_version; // the kernel module's, from /proc/driver/nvidia/version, e.g. "570.86.15"
};

cuda_probe probe_cuda();

}  // namespace abtest::bundle
