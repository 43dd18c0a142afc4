// One sample — one benchmark process — as the executor fills it, the store keeps it and the analysis reads it.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "harness/sample/slot.hpp"

namespace abtest {

// How one invocation ended (design §4, §6). Only `ok` samples enter the statistics; every other
// status is recorded with its error and drops its round from paired analysis.
enum class sample_status {
  ok,          // exited 0 and the output parsed into at least one metric
  failed,      // could not be started, or exited with a non-zero code
  timeout,     // ran past its timeout; the whole process group was killed
  crashed,     // killed by a signal it did not ask for (SIGSEGV, SIGABRT, ...)
  no_metrics,  // exited 0 with well-formed output that holds no metric
  bad_output,  // exited 0 but its output does not follow the benchmark's `format`
};
inline constexpr std::array<sample_status, 6> sample_statuses{sample_status::ok,      sample_status::failed,
                                                              sample_status::timeout, sample_status::crashed,
                                                              sample_status::no_metrics, sample_status::bad_output};

// "ok", "failed", "timeout", "crashed", "no_metrics", "bad_output" — the text the store keeps.
std::string_view to_string(sample_status status);
// The inverse of to_string; nullopt for any other text.
std::optional<sample_status> parse_sample_status(std::string_view text);

// The one sample type. Its slot says where the plan put it; the executor (or the simulation) fills
// what the process produced; the experiment adds where it ran as it records it; the store writes all
// of it (table `sample`, metrics in `metric`) and list_samples reads all of it back, equal. A new
// field touches this struct and the store's two statements (db/results_store_samples.cpp).
struct sample : slot {
  // What the process produced.
  sample_status status = sample_status::ok;
  std::optional<int> exit_code;  // set when the process exited normally
  std::optional<int> signal;     // set when a signal ended it
  std::string error;             // empty for ok (stored as NULL); otherwise `<what> — <what to do>`
  // "<bench>.<metric>" → value in seconds (`_s`), MiB (`_mib`) or a plain count; finite when stored.
  std::map<std::string, double> metrics;
  // Correctness facts, e.g. "verified" → "true", "digest" → "9f2c…" (design §4 `checks`).
  std::map<std::string, std::string> checks;
  std::string backend;  // what actually ran ("cpu", "cuda"); empty (stored as NULL) when not reported
  nlohmann::json context = nlohmann::json::object();
  std::chrono::system_clock::time_point started_at{};  // wall-clock start; the store keeps milliseconds
  std::optional<double> duration_s;  // wall time of the process, start to exit (0 when it never started)

  // Where it ran: set by the experiment as it records the sample, and by the store (id, uuid).
  std::int64_t id = 0;                     // assigned by the store
  std::string uuid;                        // filled in by the store when empty; merges deduplicate on it
  std::string experiment_id;
  std::int64_t machine_id = 0;
  std::optional<std::int64_t> build_id;
  std::optional<std::string> binary_hash;  // the arm's binaries digest
  std::optional<double> load_avg;          // the host's 1-minute load average when it was recorded

  bool operator==(const sample&) const = default;
};

}  // namespace abtest
