// The CUDA driver API through dlopen: cuInit, cuDeviceGetCount, cuDeviceGet, cuDeviceGetName,
// cuDriverGetVersion (CUresult 0 is CUDA_SUCCESS; a CUdevice is an int).
#include "harness/bundle/cuda_probe.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <fstream>
#include <regex>

namespace abtest::bundle {

namespace {

std::string kernel_module_version() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  std::getline(in, line);  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.86.15  Thu …"
  std::smatch m;
  static const std::regex version_re(R"(Kernel Module\s+([0-9][0-9.]*))");
  return std::regex_search(line, m, version_re) ? m[1].str() : std::string{};
}

}  // namespace

cuda_probe probe_cuda() {
  cuda_probe p;
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* why = dlerror();
    p.why_none = fmt::format("the NVIDIA driver's libcuda.so.1 cannot be loaded ({})", why ? why : "not found");
    return p;
  }
  using init_fn = int (*)(unsigned);
  using count_fn = int (*)(int*);
  using get_fn = int (*)(int*, int);
  using name_fn = int (*)(char*, int, int);
  using version_fn = int (*)(int*);
  const auto init = reinterpret_cast<init_fn>(dlsym(lib, "cuInit"));
  const auto count = reinterpret_cast<count_fn>(dlsym(lib, "cuDeviceGetCount"));
  const auto get = reinterpret_cast<get_fn>(dlsym(lib, "cuDeviceGet"));
  const auto name = reinterpret_cast<name_fn>(dlsym(lib, "cuDeviceGetName"));
  const auto version = reinterpret_cast<version_fn>(dlsym(lib, "cuDriverGetVersion"));
  if (!init || !count || !get || !name || !version) {
    p.why_none = "libcuda.so.1 lacks the driver API (cuInit, cuDeviceGetCount) — is it the NVIDIA driver's?";
    return p;  // the library stays loaded: the process ends soon, and unloading a driver is no help
  }
  if (const int rc = init(0); rc != 0) {
    p.why_none = fmt::format("cuInit failed with CUresult {} (100: no device, 999: unknown — is the kernel module loaded?)", rc);
    return p;
  }
  int n = 0;
  if (const int rc = count(&n); rc != 0 || n == 0) {
    p.why_none = rc != 0 ? fmt::format("cuDeviceGetCount failed with CUresult {}", rc) : "the driver reports no device";
    return p;
  }
  p.devices = n;
  int device = 0;
  char text[256] = {};
  if (get(&device, 0) == 0 && name(text, sizeof text - 1, device) == 0) p.gpu_name = text;
  version(&p.driver_api);
  p.driver_version = kernel_module_version();
  return p;
}

}  // namespace abtest::bundle
