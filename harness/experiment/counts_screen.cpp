// Bisect's counts screen: which toggles move no count, and the mechanism blocks of the terms.
#include "harness/experiment/counts_screen.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "harness/counts/count_set.hpp"
#include "harness/report/mechanisms.hpp"

namespace abtest {
namespace {

std::string screened_term(const std::vector<std::string>& toggles) { return fmt::format("{}", fmt::join(toggles, "*")); }

// The mechanism block of two stored counts of one benchmark, with the candidate's rename rules.
counts::mechanism block_of(const db::counts_record& base, const db::counts_record& candidate, const std::string& base_label,
                           const std::string& candidate_label) {
  counts::diff_options o;
  o.rename = report::rename_rules(candidate.spec);
  auto block = counts::diff_counts(counts::count_set_from_json(*base.counts), counts::count_set_from_json(*candidate.counts), o);
  block.base_label = base_label;
  block.candidate_label = candidate_label;
  return block;
}

}  // namespace

counts_screen screen_counts(db::results_store& store, const screen_request& q, const screen_arms& arms, const arm_counter& count,
                            std::vector<std::string>& exclude, std::vector<std::string>& notes) {
  counts_screen out;
  const auto factors = search::differing_factors(q.toggles, q.from, q.to, exclude);
  if (factors.empty()) return out;
  for (const auto& fac : factors) out.factors.emplace(fac.name, fac);
  std::vector<arm_plan> plan_arms{q.from_arm};
  std::vector<std::pair<int, int>> ends;  // per factor: its arm with `from`, its arm without it from `to`
  const auto add = [&](const search::levels& levels) {  // each variant counted once
    const auto arm = arms(levels);
    if (!arm) return -1;
    for (std::size_t i = 0; i < plan_arms.size(); ++i)
      if (plan_arms[i].key == arm->key) return static_cast<int>(i);
    plan_arms.push_back(*arm);
    return static_cast<int>(plan_arms.size()) - 1;
  };
  const int to_arm = add(q.to);
  for (const auto& fac : factors) {
    search::levels with = q.from, without = q.to;
    with[fac.toggle] = fac.high;
    if (const auto it = q.from.find(fac.toggle); it != q.from.end()) without[fac.toggle] = it->second;
    else without.erase(fac.toggle);
    ends.emplace_back(add(with), add(without));
  }
  out.experiment = count(plan_arms, "counts-screen");
  std::map<int, db::counts_record> records;
  std::map<int, counts::count_set> counted;
  for (const auto& c : store.list_counts(out.experiment))
    if (c.benchmark == q.benchmark && c.counts) {
      counted.emplace(c.arm_idx, counts::count_set_from_json(*c.counts));
      records.emplace(c.arm_idx, c);
    }
  const auto moved = [&](int base, int cand) -> std::optional<bool> {  // nullopt: not counted
    if (base < 0 || cand < 0 || !counted.count(base) || !counted.count(cand)) return std::nullopt;
    return !counts::moved_counts(counted.at(base), counted.at(cand)).empty();
  };
  for (std::size_t i = 0; i < factors.size(); ++i) {
    const auto [with, without] = ends[i];
    if (with >= 0 && counted.count(0) && counted.count(with))
      out.blocks.emplace(factors[i].name,
                         block_of(records.at(0), records.at(with), q.from_arm.key, plan_arms[static_cast<std::size_t>(with)].key));
    const auto at_from = moved(0, with), at_to = moved(to_arm, without);
    if (at_from && at_to && !*at_from && !*at_to) {
      out.not_timed.push_back(factors[i].toggle);
      exclude.push_back(factors[i].toggle);
    }
  }
  if (!out.not_timed.empty())
    notes.push_back(fmt::format("counts screen ({}): no count moved with {} at either end — not timed", out.experiment,
                                fmt::join(out.not_timed, ", ")));
  else
    notes.push_back(fmt::format("counts screen ({}): every toggle moved a count — all timed", out.experiment));
  return out;
}

void count_interactions(db::results_store& store, const screen_request& q, const screen_arms& arms, const arm_counter& count,
                        const search::attribution& split, counts_screen& screen) {
  for (const auto* list : {&split.culprits, &split.offsets})
    for (const auto& c : *list) {
      const std::string term = screened_term(c.toggles);
      if (c.toggles.size() < 2 || screen.blocks.count(term)) continue;
      search::levels levels = q.from;
      for (const auto& name : c.toggles)
        if (const auto it = screen.factors.find(name); it != screen.factors.end()) levels[it->second.toggle] = it->second.high;
      const auto arm = arms(levels);
      if (!arm) continue;
      const std::string id = count({q.from_arm, *arm}, "counts-term");
      std::optional<db::counts_record> base, cand;
      for (const auto& rec : store.list_counts(id))
        if (rec.benchmark == q.benchmark && rec.counts) (rec.arm_idx == 0 ? base : cand) = rec;
      if (base && cand) screen.blocks.emplace(term, block_of(*base, *cand, q.from_arm.key, arm->key));
    }
}

std::vector<const counts::mechanism*> term_blocks(const search::culprit& c, const counts_screen& screen) {
  if (const auto it = screen.blocks.find(screened_term(c.toggles)); it != screen.blocks.end()) return {&it->second};
  return {};
}

}  // namespace abtest
