// db records: the text spelling of each record enum, both ways.
#include "db/records.hpp"

#include <array>
#include <stdexcept>
#include <string>
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

// A table with the word parse's error uses for a value: "unknown <what> '…'".
template <class E, std::size_t N>
struct named_spellings {
  std::string_view what;
  const spellings<E, N>& names;
};

// Each enum's table and word, found by the enum's type (the argument only picks the overload).
constexpr named_spellings<build_status, 2> spellings_of(build_status) { return {"build status", build_status_names}; }
constexpr named_spellings<experiment_kind, 6> spellings_of(experiment_kind) {
  return {"experiment kind", experiment_kind_names};
}
constexpr named_spellings<experiment_status, 4> spellings_of(experiment_status) {
  return {"experiment status", experiment_status_names};
}
constexpr named_spellings<arm_role, 2> spellings_of(arm_role) { return {"arm role", arm_role_names}; }
constexpr named_spellings<verdict_kind, 5> spellings_of(verdict_kind) { return {"verdict", verdict_kind_names}; }
constexpr named_spellings<changepoint_state, 4> spellings_of(changepoint_state) {
  return {"change-point state", changepoint_state_names};
}
constexpr named_spellings<alert_state, 5> spellings_of(alert_state) { return {"alert state", alert_state_names}; }
constexpr named_spellings<alert_source, 2> spellings_of(alert_source) { return {"alert source", alert_source_names}; }

template <class E>
std::string_view name_of(E v) {
  for (const auto& [e, name] : spellings_of(v).names)
    if (e == v) return name;
  throw std::invalid_argument("enum value out of range");
}

}  // namespace

std::string_view to_string(build_status v) { return name_of(v); }
std::string_view to_string(experiment_kind v) { return name_of(v); }
std::string_view to_string(experiment_status v) { return name_of(v); }
std::string_view to_string(arm_role v) { return name_of(v); }
std::string_view to_string(verdict_kind v) { return name_of(v); }
std::string_view to_string(changepoint_state v) { return name_of(v); }
std::string_view to_string(alert_state v) { return name_of(v); }
std::string_view to_string(alert_source v) { return name_of(v); }

bool is_open(alert_state state) {
  return state == alert_state::new_ || state == alert_state::acknowledged || state == alert_state::expected;
}

template <class E>
E parse(std::string_view text) {
  const auto table = spellings_of(E{});
  std::string accepted;
  for (const auto& [e, name] : table.names) {
    if (name == text) return e;
    accepted += (accepted.empty() ? "" : ", ") + std::string(name);
  }
  throw std::invalid_argument("unknown " + std::string(table.what) + " '" + std::string(text) + "' — use one of " +
                              accepted);
}

// The sample statuses are spelled by harness/sample, which owns the enum.
template <>
sample_status parse<sample_status>(std::string_view t) {
  if (const auto status = parse_sample_status(t)) return *status;
  std::string accepted;
  for (const sample_status s : sample_statuses) accepted += (accepted.empty() ? "" : ", ") + std::string(to_string(s));
  throw std::invalid_argument("unknown sample status '" + std::string(t) + "' — use one of " + accepted);
}

template build_status parse<build_status>(std::string_view);
template experiment_kind parse<experiment_kind>(std::string_view);
template experiment_status parse<experiment_status>(std::string_view);
template arm_role parse<arm_role>(std::string_view);
template verdict_kind parse<verdict_kind>(std::string_view);
template changepoint_state parse<changepoint_state>(std::string_view);
template alert_state parse<alert_state>(std::string_view);
template alert_source parse<alert_source>(std::string_view);

}  // namespace abtest::db
