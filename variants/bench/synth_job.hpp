// One synthesis workload of the PoRep-shaped circuit, shared by synth-bench and porep-bench: inputs
// prepared (generated or loaded) and counted outside any timed region, then synthesized with the
// variant's A1 / A2 levels.
//
// Only synth_job.cpp (and setup_job.cpp, whose keypair assembly synthesizes too) instantiates the
// circuit: the type of a proving assignment depends on A1's inline capacity, so this header hands
// out what the prover reads (spans) instead. A variant that changes A1 or A2 then recompiles those
// two files, not every mode of porep-bench (design §5: variants share every object a toggle does
// not touch).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <memory>
#include <span>

#include "circuits/porep_preset.hpp"
#include "circuits/porep_vanilla.hpp"
#include "ff/fr.hpp"
#include "groth16/prover.hpp"
#include "r1cs/sizes.hpp"

namespace zk::bench {

struct synth_job {
  const circuits::porep_preset* preset = nullptr;
  circuits::porep_vanilla vanilla;  // one witness per partition
  r1cs::size_hint hint;             // per partition (partitions are the same size)
  r1cs::lc_shape shape;             // of partition 0

  size_t partitions() const { return vanilla.partitions.size(); }
  size_t total_constraints() const { return hint.num_constraints * partitions(); }
};

// The proving assignments of synthesized partitions, with the build's A1 level inside.
class synthesized {
 public:
  synthesized();
  synthesized(synthesized&&) noexcept;
  synthesized& operator=(synthesized&&) noexcept;
  ~synthesized();

  size_t size() const;
  groth16::assignment_view view(size_t i) const;  // valid while this object lives
  std::vector<groth16::assignment_view> views() const;
  std::span<const fr> public_inputs(size_t i) const;  // without the leading one
  std::string digest() const;                         // circuits::assignment_digest of a, b, c

 private:
  struct assignments;
  std::unique_ptr<assignments> assignments_;
  friend synthesized synthesize(const synth_job&, size_t, size_t);
};

// Synthesizes partitions [first, first + count) of the job with the toggles' levels (A2 reserves
// from the job's hint).
synthesized synthesize(const synth_job& job, size_t first, size_t count);
inline synthesized synthesize_all(const synth_job& job) { return synthesize(job, 0, job.partitions()); }

// The view of a one-partition set, found by groth16::prove_pipelined's unqualified view_of(pa).
inline groth16::assignment_view view_of(const synthesized& one) { return one.view(0); }

// Generates the inputs for `preset_name` (or loads `input_file`, written by `porep-bench
// gen-vanilla`), then runs the counting pass. Throws std::invalid_argument / std::runtime_error
// with an actionable message (unknown or documentation-only preset, unreadable file).
// `count_only` admits the documentation-only presets (porep32g): counting needs no assignment.
synth_job prepare_synth_job(const std::string& preset_name, uint64_t seed,
                            const std::optional<std::string>& input_file = std::nullopt, bool count_only = false);

// What one synthesis of every partition produced.
struct synth_result {
  double seconds = 0;      // wall time of synthesize_partitions, the timed region
  double cpu_seconds = 0;  // process CPU time over the same region: on a loaded host it leaves out
                           // the time the scheduler gave to other processes
  std::string digest;  // assignment_digest of a, b, c (empty unless asked for)
};

// Synthesizes all partitions with the toggles' levels. `after_timing` runs once the timed region has
// ended and before the assignments are freed (synth-bench pauses its timer there).
synth_result run_synthesis(const synth_job& job, bool with_digest, const std::function<void()>& after_timing = {});

// The levels this binary was built with (from the toggle headers).
int a1_inline_cap();
bool a2_presize();

// "A 2.41 / B 1.00 / C 2.20 terms per row …" beside the real PoRep figures.
std::string describe_shape(const r1cs::lc_shape& s);

}  // namespace zk::bench
