// Prepares and runs the synthesis workload; the only bench file that reads the A1 / A2 toggles.
#include "bench/synth_job.hpp"

#include <chrono>
#include <ctime>
#include <fmt/format.h>
#include <span>
#include <stdexcept>

#include "abtest/toggles/a1.hpp"
#include "abtest/toggles/a2.hpp"
#include "circuits/assignment_digest.hpp"
#include "r1cs/synthesize.hpp"

namespace zk::bench {

synth_job prepare_synth_job(const std::string& preset_name, uint64_t seed, const std::optional<std::string>& input_file,
                            bool count_only) {
  synth_job job;
  if (input_file) {
    job.vanilla = circuits::load_porep_vanilla(*input_file);
    job.preset = &circuits::find_porep_preset(job.vanilla.preset);
    if (job.vanilla.preset != preset_name) {
      throw std::invalid_argument(fmt::format("{} holds preset '{}', not '{}' — pass --preset {} or regenerate it",
                                              *input_file, job.vanilla.preset, preset_name, job.vanilla.preset));
    }
  } else {
    job.preset = &circuits::find_porep_preset(preset_name);
    if (!job.preset->runnable && !count_only) {
      throw std::invalid_argument(fmt::format("preset '{}' documents the real size ({}) and is not run here — use "
                                              "tiny, small, medium or large (or --count-only)",
                                              preset_name, job.preset->note));
    }
    job.vanilla = circuits::generate_porep_vanilla(*job.preset, seed);
  }
  for (const auto& w : job.vanilla.partitions) job.circuits.push_back({job.preset, &w});
  r1cs::counting_cs<> count;
  count.alloc_input(r1cs::detail::no_name, fr::one());
  job.circuits.at(0).synthesize(count);
  job.hint = count.hint();
  job.shape = count.shape();
  return job;
}

synth_result run_synthesis(const synth_job& job, bool with_digest, const std::function<void()>& after_timing) {
  synth_result r;
  const auto cpu_now = [] {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
  };
  const double cpu_start = cpu_now();
  const auto start = std::chrono::steady_clock::now();
  auto pas = r1cs::synthesize_partitions(std::span<const circuits::porep_circuit>(job.circuits), job.hint);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.cpu_seconds = cpu_now() - cpu_start;
  if (after_timing) after_timing();
  if (with_digest) r.digest = circuits::assignment_digest(pas);
  return r;
}

int a1_inline_cap() { return ABTEST_A1_INLINE_CAP; }
bool a2_presize() { return ABTEST_A2_PRESIZE != 0; }

std::string describe_shape(const r1cs::lc_shape& s) {
  return fmt::format(
      "terms per row A {:.2f} / B {:.2f} / C {:.2f} (real PoRep 2.4 / 1.0 / 2.2); rows with <= 3 terms "
      "A {:.1f}% / B {:.1f}% / C {:.1f}%; aux density A {:.1f}% / B {:.1f}% (real 99.7% / 25.4%)",
      s.mean_terms(0), s.mean_terms(1), s.mean_terms(2), 100 * s.short_share(0), 100 * s.short_share(1),
      100 * s.short_share(2), 100 * s.a_aux_density(), 100 * s.b_aux_density());
}

}  // namespace zk::bench
