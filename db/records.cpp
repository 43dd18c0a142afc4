// db records: the text spelling of each record enum, both ways.
#include "db/records.hpp"

#include <array>
#include <stdexcept>
#include <utility>

namespace abtest::db {

namespace {

template <class E, std::size_t N>
using spellings = std::array<std::pair<E, std::string_view>, N>;

constexpr spellings<build_status, 2> build_status_names{{{build_status::ok, "ok"}, {build_status::failed, "failed"}}};
constexpr spellings<experiment_kind, 6> experiment_kind_names{{{experiment_kind::run, "run"},
                                                               {experiment_kind::matrix, "matrix"},
                                                               {experiment_kind::bisect, "bisect"},
                                                               {experiment_kind::nightly, "nightly"},
                                                               {experiment_kind::noise_floor, "noise-floor"},
                                                               {experiment_kind::check, "check"}}};
constexpr spellings<experiment_status, 4> experiment_status_names{{{experiment_status::running, "running"},
                                                                   {experiment_status::complete, "complete"},
                                                                   {experiment_status::incomplete, "incomplete"},
                                                                   {experiment_status::failed, "failed"}}};
constexpr spellings<arm_role, 2> arm_role_names{{{arm_role::baseline, "baseline"}, {arm_role::candidate, "candidate"}}};
constexpr spellings<verdict_kind, 5> verdict_kind_names{{{verdict_kind::slower, "slower"},
                                                         {verdict_kind::faster, "faster"},
                                                         {verdict_kind::same, "same"},
                                                         {verdict_kind::inconclusive, "inconclusive"},
                                                         {verdict_kind::invalid, "invalid"}}};
constexpr spellings<changepoint_state, 4> changepoint_state_names{
    {{changepoint_state::new_, "new"},
     {changepoint_state::acknowledged, "acknowledged"},
     {changepoint_state::fixed, "fixed"},
     {changepoint_state::false_positive, "false_positive"}}};

constexpr spellings<alert_state, 5> alert_state_names{{{alert_state::new_, "new"},
                                                      {alert_state::acknowledged, "acknowledged"},
                                                      {alert_state::expected, "expected"},
                                                      {alert_state::invalid, "invalid"},
                                                      {alert_state::fixed, "fixed"}}};
constexpr spellings<alert_source, 2> alert_source_names{{{alert_source::pr, "pr"}, {alert_source::nightly, "nightly"}}};

template <class E, std::size_t N>
std::string_view name_of(const spellings<E, N>& names, E v) {
  for (const auto& [e, name] : names)
    if (e == v) return name;
  throw std::invalid_argument("enum value out of range");
}

template <class E, std::size_t N>
E value_of(const spellings<E, N>& names, std::string_view text, std::string_view what) {
  std::string accepted;
  for (const auto& [e, name] : names) {
    if (name == text) return e;
    accepted += (accepted.empty() ? "" : ", ") + std::string(name);
  }
  throw std::invalid_argument("unknown " + std::string(what) + " '" + std::string(text) + "' — use one of " +
                              accepted);
}

}  // namespace

std::string_view to_string(build_status v) { return name_of(build_status_names, v); }
std::string_view to_string(experiment_kind v) { return name_of(experiment_kind_names, v); }
std::string_view to_string(experiment_status v) { return name_of(experiment_status_names, v); }
std::string_view to_string(arm_role v) { return name_of(arm_role_names, v); }
std::string_view to_string(verdict_kind v) { return name_of(verdict_kind_names, v); }
std::string_view to_string(changepoint_state v) { return name_of(changepoint_state_names, v); }
std::string_view to_string(alert_state v) { return name_of(alert_state_names, v); }
std::string_view to_string(alert_source v) { return name_of(alert_source_names, v); }

bool is_open(alert_state state) {
  return state == alert_state::new_ || state == alert_state::acknowledged || state == alert_state::expected;
}

template <>
build_status parse<build_status>(std::string_view t) { return value_of(build_status_names, t, "build status"); }
template <>
experiment_kind parse<experiment_kind>(std::string_view t) {
  return value_of(experiment_kind_names, t, "experiment kind");
}
template <>
experiment_status parse<experiment_status>(std::string_view t) {
  return value_of(experiment_status_names, t, "experiment status");
}
template <>
arm_role parse<arm_role>(std::string_view t) { return value_of(arm_role_names, t, "arm role"); }
template <>
sample_status parse<sample_status>(std::string_view t) {
  if (const auto status = parse_sample_status(t)) return *status;
  std::string accepted;
  for (const sample_status s : sample_statuses) accepted += (accepted.empty() ? "" : ", ") + std::string(to_string(s));
  throw std::invalid_argument("unknown sample status '" + std::string(t) + "' — use one of " + accepted);
}
template <>
verdict_kind parse<verdict_kind>(std::string_view t) { return value_of(verdict_kind_names, t, "verdict"); }
template <>
changepoint_state parse<changepoint_state>(std::string_view t) {
  return value_of(changepoint_state_names, t, "change-point state");
}

template <>
alert_state parse<alert_state>(std::string_view t) { return value_of(alert_state_names, t, "alert state"); }
template <>
alert_source parse<alert_source>(std::string_view t) { return value_of(alert_source_names, t, "alert source"); }

}  // namespace abtest::db
