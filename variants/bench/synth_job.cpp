// Prepares and runs the synthesis workload; with setup_job.cpp, the only bench files that read A1 / A2.
#include "bench/synth_job.hpp"

#include <chrono>
#include <ctime>
#include <fmt/format.h>
#include <span>
#include <stdexcept>

#include "abtest/toggles/a1.hpp"
#include "abtest/toggles/a2.hpp"
#include "circuits/assignment_digest.hpp"
#include "circuits/porep_circuit.hpp"
#include "r1cs/counting_cs.hpp"
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
  if (job.vanilla.partitions.empty()) throw std::runtime_error("the PoRep inputs hold no partition");
  r1cs::counting_cs<> count;
  count.alloc_input(r1cs::detail::no_name, fr::one());
  circuits::porep_circuit{job.preset, &job.vanilla.partitions[0]}.synthesize(count);
  job.hint = count.hint();
  job.shape = count.shape();
  return job;
}

struct synthesized::assignments {
  std::vector<r1cs::proving_assignment<>> partitions;
};

synthesized::synthesized() : assignments_(std::make_unique<assignments>()) {}
synthesized::synthesized(synthesized&&) noexcept = default;
synthesized& synthesized::operator=(synthesized&&) noexcept = default;
synthesized::~synthesized() = default;

size_t synthesized::size() const { return assignments_->partitions.size(); }

groth16::assignment_view synthesized::view(size_t i) const { return groth16::view_of(assignments_->partitions.at(i)); }

std::vector<groth16::assignment_view> synthesized::views() const {
  std::vector<groth16::assignment_view> out;
  for (const auto& pa : assignments_->partitions) out.push_back(groth16::view_of(pa));
  return out;
}

std::span<const fr> synthesized::public_inputs(size_t i) const {
  return std::span<const fr>(assignments_->partitions.at(i).input_assignment).subspan(1);
}

std::string synthesized::digest() const { return circuits::assignment_digest(assignments_->partitions); }

synthesized synthesize(const synth_job& job, size_t first, size_t count) {
  if (first + count > job.partitions()) throw std::out_of_range("synthesize: partition out of range");
  std::vector<circuits::porep_circuit> circuits;
  for (size_t i = first; i < first + count; ++i) circuits.push_back({job.preset, &job.vanilla.partitions[i]});
  synthesized out;
  out.assignments_->partitions = r1cs::synthesize_partitions(std::span<const circuits::porep_circuit>(circuits), job.hint);
  return out;
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
  const synthesized all = synthesize_all(job);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.cpu_seconds = cpu_now() - cpu_start;
  if (after_timing) after_timing();
  if (with_digest) r.digest = all.digest();
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
