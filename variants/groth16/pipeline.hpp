// Pipelined batch proving: partition i+1 is synthesized on a second thread while i is proved.
//
//   auto proofs = zk::groth16::prove_pipelined(params, circuits.size(),
//       [&](size_t i) { return synthesize(circuits[i]); },   // → a proving assignment
//       [&](size_t i, const auto& pa) { digest_add(pa); },   // sees each assignment once
//       rng, {}, &timings);
#pragma once

#include <chrono>
#include <cstddef>
#include <future>
#include <random>
#include <utility>
#include <vector>

#include "groth16/prover.hpp"

namespace zk::groth16 {

struct pipeline_timings {
  double synthesis_s = 0;   // summed synthesis time (it overlaps proving)
  double wait_s = 0;        // time the prover spent waiting for synthesis
  prover_timings prove;     // summed over the partitions
};

// Proves partitions one at a time (each a batch of one for prove_batch). `synthesize(i)` returns
// partition i's proving assignment and runs on a helper thread one partition ahead; `inspect(i, pa)`
// is called on the prover's thread before partition i is proved (digest, public inputs). At most
// two assignments are alive at once — the memory profile of a pipelined prover.
template <class Synthesize, class Inspect>
std::vector<proof> prove_pipelined(const parameters& params, size_t npartitions, Synthesize&& synthesize,
                                   Inspect&& inspect, std::mt19937_64& rng, const prover_options& opt = {},
                                   pipeline_timings* timings = nullptr) {
  using clock_type = std::chrono::steady_clock;
  using assignment = decltype(synthesize(size_t{0}));
  pipeline_timings t;
  auto launch = [&](size_t i) {
    return std::async(std::launch::async, [&, i] {
      const auto t0 = clock_type::now();
      assignment pa = synthesize(i);
      return std::pair{std::move(pa), std::chrono::duration<double>(clock_type::now() - t0).count()};
    });
  };
  std::vector<proof> out;
  out.reserve(npartitions);
  if (npartitions == 0) return out;
  auto next = launch(0);
  for (size_t i = 0; i < npartitions; ++i) {
    const auto w0 = clock_type::now();
    auto [pa, synth_s] = next.get();
    t.wait_s += std::chrono::duration<double>(clock_type::now() - w0).count();
    t.synthesis_s += synth_s;
    if (i + 1 < npartitions) next = launch(i + 1);
    inspect(i, pa);
    const assignment_view v = view_of(pa);
    prover_timings pt;
    // If this throws, `next` (a std::async future) waits for the helper in its destructor.
    out.push_back(prove_batch(params, std::span(&v, 1), rng, opt, &pt)[0]);
    t.prove.ntt_s += pt.ntt_s;
    t.prove.msm_a_s += pt.msm_a_s;
    t.prove.msm_b_g1_s += pt.msm_b_g1_s;
    t.prove.msm_b_g2_s += pt.msm_b_g2_s;
    t.prove.msm_l_s += pt.msm_l_s;
    t.prove.msm_h_s += pt.msm_h_s;
    t.prove.host_register_s += pt.host_register_s;
    t.prove.transfer_s += pt.transfer_s;
    t.prove.transfer_hidden_s += pt.transfer_hidden_s;
    t.prove.transfer_exposed_s += pt.transfer_exposed_s;
    t.prove.gpu_s += pt.gpu_s;
    t.prove.host_register = pt.host_register;
    t.prove.wbits_h = pt.wbits_h;
    t.prove.wbits_l = pt.wbits_l;
    t.prove.wbits_a = pt.wbits_a;
    t.prove.wbits_b = pt.wbits_b;
  }
  if (timings) *timings = t;
  return out;
}

}  // namespace zk::groth16
