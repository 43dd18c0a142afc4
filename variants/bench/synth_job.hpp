// One synthesis workload of the PoRep-shaped circuit, shared by synth-bench and porep-bench: inputs
// prepared (generated or loaded) and counted outside any timed region, then synthesized with the
// variant's A1 / A2 levels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "circuits/porep_circuit.hpp"
#include "r1cs/counting_cs.hpp"

namespace zk::bench {

struct synth_job {
  const circuits::porep_preset* preset = nullptr;
  circuits::porep_vanilla vanilla;
  std::vector<circuits::porep_circuit> circuits;  // one per partition, pointing into `vanilla`
  r1cs::size_hint hint;                           // per partition (partitions are the same size)
  r1cs::lc_shape shape;                           // of partition 0

  size_t total_constraints() const { return hint.num_constraints * circuits.size(); }
};

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
