// Names of the sample statuses, as stored in the results database.
#include "harness/exec/sample.hpp"

#include <array>
#include <utility>

namespace abtest::exec {

namespace {
constexpr std::array<std::pair<sample_status, std::string_view>, 6> status_names{{
    {sample_status::ok, "ok"},
    {sample_status::failed, "failed"},
    {sample_status::timeout, "timeout"},
    {sample_status::crashed, "crashed"},
    {sample_status::no_metrics, "no_metrics"},
    {sample_status::bad_output, "bad_output"},
}};
}  // namespace

std::string_view to_string(sample_status status) {
  for (const auto& [value, name] : status_names) {
    if (value == status) return name;
  }
  return "unknown";
}

std::optional<sample_status> parse_sample_status(std::string_view text) {
  for (const auto& [value, name] : status_names) {
    if (name == text) return value;
  }
  return std::nullopt;
}

}  // namespace abtest::exec
