// db records: the plain structs the results store reads and writes, one per table (design §8).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/sample/sample.hpp"

namespace abtest::db {

using time_point = std::chrono::system_clock::time_point;
/// Toggle id → level, e.g. {"A1": "4", "B1": "ON"}; stored as a JSON object.
using level_map = std::map<std::string, std::string>;

enum class build_status { ok, failed };
enum class experiment_kind { run, matrix, bisect, nightly, noise_floor, check };
enum class experiment_status { running, complete, incomplete, failed };
enum class arm_role { baseline, candidate };
enum class verdict_kind { slower, faster, same, inconclusive, invalid };
enum class changepoint_state { new_ /* "new" is a keyword */, acknowledged, fixed, false_positive };
/// An alert's triage state (design §9.1): open while new, acknowledged or expected.
enum class alert_state { new_, acknowledged, expected, invalid, fixed };
/// What opened an alert: a confirmed `abtest pr` regression or a confirmed nightly change point.
enum class alert_source { pr, nightly };

/// The text stored in the database (and printed in --json output): "ok", "noise-floor",
/// "bad_output", "inconclusive", "new", ...
std::string_view to_string(build_status v);
std::string_view to_string(experiment_kind v);
std::string_view to_string(experiment_status v);
std::string_view to_string(arm_role v);
std::string_view to_string(verdict_kind v);
std::string_view to_string(changepoint_state v);
std::string_view to_string(alert_state v);
std::string_view to_string(alert_source v);

/// The inverse of to_string; throws std::invalid_argument naming the accepted spellings.
template <class E>
E parse(std::string_view text);

struct machine_record {
  std::int64_t id = 0;      ///< assigned by the store
  std::string fingerprint;  ///< stable identity of the host; upserts match on it
  std::string hostname;
  std::string cpu_model;
  std::optional<std::int64_t> cores;
  std::optional<std::int64_t> memory_mib;
  std::optional<std::string> gpu;
  std::optional<std::string> os;
  std::optional<std::string> compiler;
  nlohmann::json details = nlohmann::json::object();  ///< governor, turbo, GPU clocks, ...
};

struct build_binary {
  std::string target;  ///< CMake target, e.g. "porep-bench"
  std::string path;
  std::string sha256;
};

struct build_record {
  std::int64_t id = 0;  ///< assigned by the store
  std::string uuid;     ///< filled in by the store when empty
  std::string variant;  ///< canonical key, e.g. "A1=4+B1" or "base"
  level_map levels;
  std::string source_dir;
  std::optional<std::string> commit_sha;  ///< nullopt outside a git checkout
  bool dirty = false;
  std::optional<std::string> compiler;
  std::optional<std::string> flags;
  std::string build_dir;
  time_point started_at{};
  std::optional<double> duration_s;
  build_status status = build_status::ok;
  std::optional<std::string> log_path;
  std::optional<std::string> log_tail;
  std::optional<std::int64_t> machine_id;
  std::vector<build_binary> binaries;
  // What the build cost (schema v3; absent for older rows and where the tools cannot tell).
  std::optional<std::int64_t> objects_compiled;  ///< compiler runs that produced an object
  std::optional<std::int64_t> cache_hits;        ///< objects the compiler cache supplied
  std::optional<std::int64_t> cache_misses;
  std::optional<std::int64_t> links;             ///< executables and libraries linked
  /// Build system, tool versions, {bin}, applied patches, compiled sources, notes.
  nlohmann::json details = nlohmann::json::object();
};

struct arm_record {
  int idx = 0;  ///< 0-based position of the arm in the experiment
  std::string variant;
  level_map levels;
  std::optional<std::int64_t> build_id;  ///< set once the arm's build is known (set_arm_build)
  arm_role role = arm_role::candidate;
};

struct experiment_record {
  std::string id;    ///< short unique id, e.g. "r-20261202-154501-3f2a" (see new_experiment_id)
  std::string uuid;  ///< filled in by the store when empty
  experiment_kind kind = experiment_kind::run;
  std::string command_line;
  std::optional<std::string> manifest_path;
  std::optional<std::string> project;
  nlohmann::json config = nlohmann::json::object();  ///< everything needed to resume the experiment
  std::int64_t seed = 0;
  experiment_status status = experiment_status::running;
  time_point started_at{};
  std::optional<time_point> finished_at;
  std::optional<std::int64_t> machine_id;
  std::vector<arm_record> arms;
};

/// A sample is abtest::sample (harness/sample/sample.hpp): the one type from the executor to the store.

/// What identifies a sample within its experiment: a resumed run skips the keys already stored.
struct sample_key {
  int arm_idx = 0;
  std::string benchmark;
  int round = 0;
  bool warmup = false;
  auto operator<=>(const sample_key&) const = default;
};

struct verdict_record {
  std::string experiment_id;
  std::string variant;
  std::string baseline;
  std::string metric;
  std::int64_t n = 0;  ///< paired rounds analysed
  std::optional<double> baseline_median, candidate_median;
  std::optional<double> ratio, ci_low, ci_high;     ///< exp(mean d) and its t interval
  std::optional<double> hl_ratio, hl_low, hl_high;  ///< Hodges–Lehmann and its Wilcoxon interval
  std::optional<double> p_value, p_adjusted;
  verdict_kind verdict = verdict_kind::inconclusive;
  bool immaterial = false;
  std::optional<std::string> note;
  time_point created_at{};  ///< left at the epoch (default), the store stamps the time of writing
  /// What the interval is made of beyond the rounds: {"layouts": {baseline, candidate, sd_baseline,
  /// sd_candidate, within_sd, share}} for a --layouts row (design §6); empty for a plain row.
  nlohmann::json details = nlohmann::json::object();
};

/// A factorial effect on log time (design §7): term is a toggle ("A1=4") or a product ("A1=4*A2").
struct effect_record {
  std::string experiment_id;
  std::string metric;
  std::string term;
  double estimate = 0;
  std::optional<double> se, ci_low, ci_high, p_value, p_adjusted;
  // A bisection's term: "culprit", "offset" or "rejected" (a candidate its confirmations did not
  // support); nullopt for other experiments' effects.
  std::optional<std::string> role;
};

struct bisect_step_record {
  std::string experiment_id;
  int step = 0;
  std::string from_variant;
  std::string to_variant;
  std::optional<verdict_kind> verdict;  ///< nullopt: the step was skipped (say why in note)
  int rounds = 0;
  std::optional<double> ratio;
  std::optional<std::string> note;
};

struct changepoint_record {
  std::int64_t id = 0;  ///< assigned by the store
  std::string variant;
  std::string metric;
  std::optional<std::string> at_experiment;
  time_point at_time{};
  double magnitude = 0;  ///< relative change, e.g. 0.06 for 6% slower
  std::optional<double> p_value;
  changepoint_state state = changepoint_state::new_;
  std::optional<std::string> note;
};

struct reference_record {
  std::int64_t id = 0;  ///< assigned by the store
  std::string label;
  nlohmann::json params = nlohmann::json::object();
  std::string metric;
  double value = 0;
};

/// One (experiment, arm, benchmark) run once under Valgrind (`abtest run --counts`, design §6):
/// counts of their own kind, never samples. Exactly one of `counts` and `error` is set.
struct counts_record {
  std::string experiment_id;
  int arm_idx = 0;
  std::string benchmark;
  /// What was counted: {"argv": [...], "params": {...}, "region": "...", "rename": [[pattern, to], ...]}.
  nlohmann::json spec = nlohmann::json::object();
  std::optional<nlohmann::json> counts;  ///< harness/counts' count_set as JSON (to_json) when it ran
  std::optional<std::string> error;      ///< why it did not: `<what> — <what to do>`
  std::optional<double> wall_s;          ///< the Valgrind runs' wall time together
  time_point recorded_at{};              ///< left at the epoch (default), the store stamps the time of writing
};

/// One point of a history series: the per-experiment summary of one arm's metric.
struct series_point {
  std::string experiment_id;
  experiment_kind kind = experiment_kind::run;
  time_point started_at{};
  int arm_idx = 0;
  std::int64_t n = 0;  ///< measured, successful samples
  double median = 0;
  double min = 0;
  double max = 0;
};

/// One confirmed regression of one metric, as `pr` or the nightly history reports it to the store
/// (results_store::record_sightings groups them into alerts).
struct alert_sighting {
  alert_source source = alert_source::nightly;
  std::string subject;    ///< pr: the branch of the head; nightly: the variant key
  std::string benchmark;  ///< the manifest's benchmark, the metric's prefix
  std::string metric;     ///< "<bench>.<metric>"
  std::string change;     ///< pr: "<base sha>..<head sha>"; nightly: the experiment of the night at the change
  double ratio = 1.0;     ///< after / before
  std::optional<double> ci_low, ci_high;
  std::optional<double> before_median, after_median;  ///< the levels on either side, for recovery
  std::optional<std::string> experiment_id;           ///< the experiment that confirmed it
  time_point seen_at{};                               ///< left at the epoch, the store stamps the time of writing
};

/// A metric of an alert: its figures when the alert opened, and how often it was seen since.
struct alert_metric_record {
  std::string metric;
  double ratio = 1.0;
  std::optional<double> ci_low, ci_high;
  std::optional<double> before_median, after_median;
  int sightings = 0;
};

/// A state change: opening (from nullopt) or triage, with its note and time.
struct alert_event_record {
  time_point at{};
  std::optional<alert_state> from;
  alert_state to = alert_state::new_;
  std::string note;
};

struct alert_record {
  std::int64_t id = 0;  ///< assigned by the store
  std::string uuid;
  alert_source source = alert_source::nightly;
  std::string subject;
  std::string benchmark;
  std::string change;
  alert_state state = alert_state::new_;
  time_point opened_at{};
  time_point updated_at{};
  std::vector<alert_metric_record> metrics;  ///< the sibling metrics of the change, by name
  std::vector<alert_event_record> events;    ///< oldest first
};

/// True for new, acknowledged and expected: the regression is (believed to be) still there.
bool is_open(alert_state state);

}  // namespace abtest::db
