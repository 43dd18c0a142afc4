// Status names and B1's build default: the parts of zk::gpu shared by the CUDA build and the stub.
#include "abtest/toggles/b1.hpp"
#include "gpu/api.hpp"

namespace zk::gpu {

const char* to_string(status_code code) {
  switch (code) {
    case status_code::ok: return "ok";
    case status_code::gpu_disabled: return "gpu_disabled";
    case status_code::no_device: return "no_device";
    case status_code::invalid_argument: return "invalid_argument";
    case status_code::cuda_error: return "cuda_error";
  }
  return "unknown";
}

bool default_host_register() { return ABTEST_B1_HOST_REGISTER != 0; }

}  // namespace zk::gpu
