// Names of the sample statuses, as the results database stores them.
#include "harness/sample/sample.hpp"

namespace abtest {

std::string_view to_string(sample_status status) {
  switch (status) {
    case sample_status::ok: return "ok";
    case sample_status::failed: return "failed";
    case sample_status::timeout: return "timeout";
    case sample_status::crashed: return "crashed";
    case sample_status::no_metrics: return "no_metrics";
    case sample_status::bad_output: return "bad_output";
  }
  return "unknown";
}

std::optional<sample_status> parse_sample_status(std::string_view text) {
  for (const sample_status status : sample_statuses)
    if (to_string(status) == text) return status;
  return std::nullopt;
}

}  // namespace abtest
