// Mechanism blocks from stored verdicts and counts (see mechanisms.hpp).
#include "harness/report/mechanisms.hpp"
#include "harness/report/metric_policy_text.hpp"

#include <algorithm>
#include <map>
#include <regex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "harness/counts/count_set.hpp"
#include "harness/counts/mechanism_format.hpp"
#include "harness/stats/verdict.hpp"

namespace abtest::report {

std::vector<std::pair<std::string, std::string>> rename_rules(const nlohmann::json& spec) {
  std::vector<std::pair<std::string, std::string>> rules;
  if (spec.contains("rename") && spec["rename"].is_array())
    for (const auto& r : spec["rename"])
      if (r.is_array() && r.size() == 2 && r[0].is_string() && r[1].is_string()) rules.emplace_back(r[0], r[1]);
  return rules;
}

std::vector<text_table> mechanism_tables(const counts::mechanism& m) {
  std::vector<text_table> out;
  text_table moved{{"count", "base", "candidate", "change", "relative"}, {}};
  for (const auto& c : m.moved)
    moved.rows.push_back({c.name, counts::format_count(c.base), counts::format_count(c.candidate), counts::format_delta(c.delta),
                          counts::format_relative(c.relative)});
  text_table functions{{"function (by Δ " + m.rank_by + ")", "file", "Δ " + m.rank_by, "relative", "other counts"}, {}};
  for (const auto& f : m.functions) {
    std::string others;
    for (const auto& [event, delta] : f.event_deltas)
      if (event != m.rank_by) others += fmt::format("{}{} {}", others.empty() ? "" : ", ", event, counts::format_delta(delta));
    functions.rows.push_back({f.name, f.file, counts::format_delta(f.delta), counts::format_relative(f.relative), others});
  }
  text_table sites{{"allocation site", "Δ bytes", "Δ blocks"}, {}};
  for (const auto& a : m.alloc_sites)
    sites.rows.push_back({a.where, counts::format_delta(a.delta_bytes), counts::format_delta(a.delta_blocks)});
  for (auto* t : {&moved, &functions, &sites})
    if (!t->rows.empty()) out.push_back(std::move(*t));
  return out;
}

std::vector<std::string> mechanism_remarks(const counts::mechanism& m) {
  std::vector<std::string> out;
  out.push_back(m.region.empty() ? "counted over the whole program" : "counted in " + m.region);
  if (!m.comparable) out.push_back("warning: " + m.incomparable_reason + " — count both arms on one host and Valgrind");
  if (m.moved.empty()) out.push_back("no count moved");
  if (!m.unchanged.empty()) out.push_back(fmt::format("unchanged: {}", fmt::join(m.unchanged, ", ")));
  if (!m.missing.empty()) out.push_back(fmt::format("measured in one arm only: {}", fmt::join(m.missing, ", ")));
  return out;
}

std::string explained_verdicts(const mechanism_entry& e) {
  std::string out;
  for (const auto& v : e.explains)
    out += fmt::format("{}{} {}{}", out.empty() ? "" : ", ", v.metric,
                       stats::verdict_label(v.metric, stats::parse_verdict(db::to_string(v.verdict)).value_or(stats::verdict::invalid),
                                            policy_of(v).direction),
                       v.immaterial ? " (immaterial)" : "");
  return out;
}

std::vector<mechanism_entry> find_mechanisms(const std::vector<std::string>& arm_variants,
                                             const std::vector<db::verdict_record>& verdicts,
                                             const std::vector<db::counts_record>& counts) {
  std::map<std::pair<int, std::string>, const db::counts_record*> by_arm;
  for (const auto& c : counts)
    if (c.counts) by_arm[{c.arm_idx, c.benchmark}] = &c;
  std::vector<mechanism_entry> out;
  for (int arm = 1; arm < static_cast<int>(arm_variants.size()); ++arm) {
    for (const auto& [key, cand] : by_arm) {
      if (key.first != arm) continue;
      const auto base = by_arm.find({0, key.second});
      if (base == by_arm.end()) continue;
      mechanism_entry e;
      e.benchmark = key.second;
      for (const auto& v : verdicts)
        if (v.variant == arm_variants[arm] && v.baseline == arm_variants[0] && v.metric.starts_with(e.benchmark + ".") &&
            !stats::is_count_metric(v.metric) && (v.verdict == db::verdict_kind::slower || v.verdict == db::verdict_kind::faster))
          e.explains.push_back(v);
      if (e.explains.empty()) continue;
      // By metric: the same block whichever order the verdicts come in (analysis, or sorted for reading).
      std::sort(e.explains.begin(), e.explains.end(), [](const auto& x, const auto& y) { return x.metric < y.metric; });
      counts::diff_options o;
      o.rename = rename_rules(cand->spec);
      const counts::count_set b = counts::count_set_from_json(*base->second->counts);
      const counts::count_set c = counts::count_set_from_json(*cand->counts);
      try {
        e.block = counts::diff_counts(b, c, o);
      } catch (const std::regex_error&) {  // rules from a manifest are checked; a hand-edited row is not
        o.rename.clear();
        e.block = counts::diff_counts(b, c, o);
      }
      e.block.base_label = arm_variants[0];
      e.block.candidate_label = arm_variants[arm];
      out.push_back(std::move(e));
    }
  }
  return out;
}

}  // namespace abtest::report
