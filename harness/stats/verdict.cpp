// The speed verdict rule of design §7.
#include "harness/stats/verdict.hpp"

#include <array>
#include <cmath>
#include <utility>

namespace abtest::stats {

namespace {
constexpr std::array<std::pair<verdict, std::string_view>, 5> names{{
    {verdict::slower, "slower"},
    {verdict::faster, "faster"},
    {verdict::same, "same"},
    {verdict::inconclusive, "inconclusive"},
    {verdict::invalid, "invalid"},
}};
}  // namespace

std::string_view to_string(verdict v) {
  for (const auto& [value, name] : names) {
    if (value == v) return name;
  }
  return "invalid";
}

std::optional<verdict> parse_verdict(std::string_view text) {
  for (const auto& [value, name] : names) {
    if (name == text) return value;
  }
  return std::nullopt;
}

better better_for(std::string_view metric) { return infer_better(metric).value_or(better::lower); }

int log_direction(verdict v, better direction) {
  const int worse = direction == better::lower ? +1 : -1;
  if (v == verdict::slower) return worse;
  if (v == verdict::faster) return -worse;
  return worse;
}

bool is_count_metric(std::string_view metric) {
  const auto dot = metric.find('.');
  return dot != std::string_view::npos && metric.substr(dot + 1).starts_with("counts.");
}

std::string verdict_label(std::string_view metric, verdict v) { return verdict_label(metric, v, better_for(metric)); }

std::string verdict_label(std::string_view metric, verdict v, better direction) {
  const bool higher = direction == better::higher;
  const bool time = !higher && metric.ends_with("_s");
  switch (v) {
    case verdict::slower: return time ? "SLOWER" : higher ? "LOWER (worse)" : "HIGHER (worse)";
    case verdict::faster: return time ? "FASTER" : higher ? "HIGHER (better)" : "LOWER (better)";
    case verdict::same: return "SAME";
    case verdict::inconclusive: return "INCONCLUSIVE";
    case verdict::invalid: return "INVALID";
  }
  return "INVALID";
}

verdict_result decide(const log_estimate& e, double margin, better direction) {
  verdict_result out;
  if (!e.has_ci) return out;
  const double band = std::log1p(margin);
  const verdict up = direction == better::lower ? verdict::slower : verdict::faster;
  const verdict down = direction == better::lower ? verdict::faster : verdict::slower;
  if (e.ci_low > 0.0) {
    out.value = up;
  } else if (e.ci_high < 0.0) {
    out.value = down;
  } else if (e.ci_low >= -band && e.ci_high <= band) {
    out.value = verdict::same;
  }
  out.immaterial = (out.value == verdict::slower || out.value == verdict::faster) && std::abs(e.estimate) < band;
  return out;
}

}  // namespace abtest::stats
