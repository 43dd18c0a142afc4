// zk::gpu's statuses and reports as the prover's errors and timings — for the files that call the device.
#pragma once

#include <string>

#include "gpu/api.hpp"
#include "groth16/prover.hpp"

namespace zk::groth16::detail {

// Throws gpu_error "gpu: <call>: <status code>: <message>" unless `st` is ok.
inline void check_gpu(const gpu::status& st, const char* call) {
  if (!st.ok()) throw gpu_error(std::string("gpu: ") + call + ": " + gpu::to_string(st.code) + ": " + st.message);
}

// Adds a device call's stages to `t`, and records what B1 did (the last call's; its error, if any).
template <class Report>  // gpu::ntt_report or gpu::msm_report
void add_report(prover_timings& t, const Report& rep) {
  t.host_register_s += rep.time.host_register_s;
  t.transfer_s += rep.time.transfer_s;
  t.transfer_hidden_s += rep.time.transfer_hidden_s;
  t.transfer_exposed_s += rep.time.transfer_exposed_s;
  t.gpu_s += rep.time.kernel_s;
  t.host_register = rep.host_register;
  if (!rep.host_register_error.empty()) t.host_register_error = rep.host_register_error;
}

}  // namespace zk::groth16::detail
