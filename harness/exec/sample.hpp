// One benchmark process invocation as the harness records it; shared by the real and simulated executors.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace abtest::exec {

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

// "ok", "failed", "timeout", "crashed", "no_metrics", "bad_output".
std::string_view to_string(sample_status status);
// The inverse of to_string; nullopt for any other text.
std::optional<sample_status> parse_sample_status(std::string_view text);

struct sample_outcome {
  sample_status status = sample_status::failed;
  std::optional<int> exit_code;  // set when the process exited normally
  std::optional<int> signal;     // set when a signal ended it
  std::string error;             // empty for ok; otherwise `<what> — <what to do>`
  // "<bench>.<metric>" → value in seconds (`_s`), MiB (`_mib`) or a plain count.
  std::map<std::string, double> metrics;
  // Correctness facts, e.g. "verified" → "true", "digest" → "9f2c…" (design §4 `checks`).
  std::map<std::string, std::string> checks;
  std::string backend;             // what actually ran ("cpu", "cuda"), empty when not reported
  nlohmann::json context = nlohmann::json::object();
  double started_at_unix = 0.0;    // wall-clock start, seconds since the epoch
  double duration_s = 0.0;         // wall time of the process, start to exit
  std::string output_tail;         // the last few KiB of stderr (stdout when stderr was empty)
};

}  // namespace abtest::exec
