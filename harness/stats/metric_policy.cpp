// A metric's direction and margin: inference from its name or unit, and the manifest's rules.
#include "harness/stats/metric_policy.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace abtest::stats {

namespace {

std::string lower_case(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// The words of a name: runs of characters between '_', '.', '/', '-' and spaces.
std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  std::string word;
  for (const char c : lower_case(text)) {
    if (c == '_' || c == '.' || c == '/' || c == '-' || c == ' ') {
      if (!word.empty()) out.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

bool any_of_words(const std::vector<std::string>& w, std::initializer_list<std::string_view> set) {
  return std::any_of(w.begin(), w.end(), [&](const std::string& x) { return std::find(set.begin(), set.end(), x) != set.end(); });
}

// A rule's rank for one field: exact names first, then globs by their literal characters, then the
// benchmark's own declaration. Larger is more specific.
std::pair<int, int> specificity(const metric_rule& r) {
  if (r.whole_benchmark) return {0, 0};
  const auto wild = static_cast<int>(std::count_if(r.pattern.begin(), r.pattern.end(), [](char c) { return c == '*' || c == '?'; }));
  if (wild == 0) return {2, 0};
  return {1, static_cast<int>(r.pattern.size()) - wild};
}

template <class Get>
const metric_rule* most_specific(const std::vector<metric_rule>& rules, std::string_view metric, Get has) {
  const metric_rule* best = nullptr;
  for (const auto& r : rules) {
    if (!has(r) || !glob_match(r.pattern, metric)) continue;
    if (best == nullptr || specificity(r) > specificity(*best)) best = &r;
  }
  return best;
}

}  // namespace

std::string_view to_string(better b) { return b == better::higher ? "higher" : "lower"; }

std::optional<better> parse_better(std::string_view text) {
  if (text == "lower") return better::lower;
  if (text == "higher") return better::higher;
  return std::nullopt;
}

std::string_view to_string(policy_source s) {
  switch (s) {
    case policy_source::manifest: return "manifest";
    case policy_source::inferred: return "inferred";
    case policy_source::fallback: return "default";
  }
  return "default";
}

std::optional<policy_source> parse_policy_source(std::string_view text) {
  for (const auto s : {policy_source::manifest, policy_source::inferred, policy_source::fallback})
    if (to_string(s) == text) return s;
  return std::nullopt;
}

std::optional<better> infer_better(std::string_view metric, std::string_view unit) {
  if (!unit.empty()) {
    const std::string u = lower_case(unit);
    if (u.ends_with("/s") || u.ends_with("/sec") || u == "ops" || u == "hz" || u == "qps") return better::higher;
  }
  const std::vector<std::string> w = words(metric);
  if (w.empty()) return std::nullopt;
  const std::size_t n = w.size();
  // A rate's suffix: `…_per_s`, `…_per_sec`, `…_per_second` (items_per_second), `…_ops_s`, `…_hz`.
  if (n >= 2 && w[n - 2] == "per" && (w[n - 1] == "s" || w[n - 1] == "sec" || w[n - 1] == "second")) return better::higher;
  if (w[n - 1] == "hz") return better::higher;
  if (any_of_words(w, {"ops", "throughput", "qps", "iops"})) return better::higher;
  return std::nullopt;
}

bool glob_match(std::string_view pattern, std::string_view text) {
  // Iterative wildcard matching with one backtrack point (the last '*'): linear in practice.
  std::size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool is_harness_metric(std::string_view metric) {
  const auto dot = metric.find('.');
  const std::string_view name = dot == std::string_view::npos ? metric : metric.substr(dot + 1);
  static constexpr std::array<std::string_view, 12> process{"wall_s", "user_s", "sys_s",   "maxrss_mib",   "minflt", "majflt",
                                                            "nvcsw",  "nivcsw", "threads", "instructions", "cycles", "cache_misses"};
  return name.starts_with("counts.") || std::find(process.begin(), process.end(), name) != process.end();
}

metric_policy resolve_policy(const std::vector<metric_rule>& rules, std::string_view metric, double default_margin,
                             std::string_view unit) {
  metric_policy out;
  out.margin = default_margin;
  const bool harness = is_harness_metric(metric);
  if (const auto* r = most_specific(rules, metric, [&](const metric_rule& x) {
        return x.direction.has_value() && !(harness && x.whole_benchmark);
      })) {
    out.direction = *r->direction;
    out.direction_from = policy_source::manifest;
  } else if (const auto inferred = infer_better(metric, unit)) {
    out.direction = *inferred;
    out.direction_from = policy_source::inferred;
  }
  if (const auto* r = most_specific(rules, metric, [](const metric_rule& x) { return x.margin.has_value(); })) {
    out.margin = *r->margin;
    out.margin_from = policy_source::manifest;
  }
  return out;
}

}  // namespace abtest::stats
