// Scenario files (design §12): a model of toggles' true effects, and the simulator that samples it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "harness/search/toggle_spec.hpp"

namespace abtest::search {

// One additive term of log(value): active when every toggle in `levels` is at that level.
struct scenario_effect {
  std::string key;  // as written: "A1=4", "B1", "A1=4*A2"
  std::vector<std::pair<std::string, std::string>> levels;  // (toggle id, level) per factor of the product
  double log_effect = 0.0;
};

struct metric_model {
  double base = 1.0;          // value of the all-off variant without noise
  double noise_cv = 0.0;      // noise ~ N(0, ln(1 + cv)²) on log(value)
  std::vector<scenario_effect> effects;
  double outlier_rate = 0.0;  // probability that a sample is an outlier …
  double outlier_scale = 1.0; // … whose value is multiplied by this
  double drift_per_round = 0.0;  // relative change per round: log(value) += round · ln(1 + drift)
  // Layouts (design §6). Where the linker put the code: each build (and each relinked layout) of a variant is
  // off by its own fixed N(0, ln(1 + layout_cv)²), drawn once per (variant, layout).
  double layout_cv = 0.0;
  // The moment's disturbance (other tenants, frequency): N(0, ln(1 + shared_noise_cv)²) drawn anew
  // for each invocation run alone, and once for the two invocations of a duet, which share it.
  double shared_noise_cv = 0.0;
  // Real projects (design §7): configurations whose noise and run time differ 100-fold. The noise's
  // sd ln(1 + noise_cv) is multiplied by exp(Σ active noise_effects); one run of a variant takes
  // run_s · exp(Σ active run_s_effects) seconds (run_s 0: run times not modelled).
  std::vector<scenario_effect> noise_effects;
  double run_s = 0.0;
  std::vector<scenario_effect> run_s_effects;
};

struct scenario {
  std::vector<toggle_spec> toggles;
  std::map<std::string, metric_model> metrics;
  std::uint64_t seed = 0;
  nlohmann::json document;  // the whole file, so a test can read its expected answer from extra keys
};

// Parses the §12 contract. Top-level keys other than toggles / metrics / seed are ignored; unknown keys
// inside a toggle or a metric, unknown toggles or levels in an effect key, a multi-level toggle
// written without its level, an off level, a toggle repeated in one product, a non-positive base, a
// negative cv, a rate outside [0, 1] or a scale ≤ 0 are errors: std::invalid_argument with
// "error: <what> — <what to do>", naming the metric or toggle.
scenario parse_scenario(const nlohmann::json& document);

// Reads and parses a file; errors name the file.
scenario load_scenario(const std::filesystem::path& file);

// One sample of `metric` for the variant `levels` in `round`:
//   log(value) = log(base) + Σ active effects + N(0, (ln(1 + cv) · exp(Σ active noise_effects))²)
//                + round · ln(1 + drift)
//                [+ ln(scale) with probability rate].
// Throws std::invalid_argument on an unknown metric, toggle or level.
double simulate(const scenario& s, const levels& variant, const std::string& metric, int round,
                std::mt19937_64& rng);

// Seconds of one run of `variant` (metric_model::run_s), NaN when the metric does not model them.
double simulated_run_s(const scenario& s, const levels& variant, const std::string& metric);

}  // namespace abtest::search
