// zk::gpu without CUDA (ABTEST_CUDA=OFF, or AUTO without nvcc): every entry point reports gpu_disabled.
#include "gpu/api.hpp"

namespace zk::gpu {
namespace {

status disabled() {
  return {status_code::gpu_disabled,
          "this build has no CUDA backend — reconfigure with -DABTEST_CUDA=ON on a host with nvcc "
          "(CMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc) to build the kernels"};
}

}  // namespace

bool compiled_with_cuda() { return false; }

status device_status() { return disabled(); }

bool device_available(std::string* why) {
  if (why) *why = disabled().message;
  return false;
}

status ntt(fr*, unsigned, ntt_direction, ntt_domain, const ntt_config&, ntt_report*) { return disabled(); }

host_pins::host_pins(bool) : enabled_(false) {}
host_pins::~host_pins() = default;
void host_pins::add(const void*, size_t) {}
double host_pins::release() { return 0; }

status field_self_test(size_t, uint64_t, field_check_report*) { return disabled(); }
status field_bench(std::vector<field_bench_row>*) { return disabled(); }

status msm_g1(std::span<const g1_affine>, std::span<const scalar_t>, const msm_config&, g1_jacobian*, msm_report*) {
  return disabled();
}

}  // namespace zk::gpu
