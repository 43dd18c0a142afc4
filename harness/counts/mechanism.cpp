// cg_diff-style differences of two count sets: totals, then functions and allocation sites by |Δ|.
#include "harness/counts/mechanism.hpp"

#include <algorithm>
#include <regex>
#include <set>

#include <fmt/format.h>

namespace abtest::counts {

namespace {

std::int64_t minus(count candidate, count base) {
  return static_cast<std::int64_t>(candidate) - static_cast<std::int64_t>(base);
}

std::optional<double> relative(std::int64_t delta, count base) {
  if (base == 0) return std::nullopt;
  return static_cast<double>(delta) / static_cast<double>(base);
}

count get(const std::map<std::string, count>& m, const std::string& key) {
  const auto it = m.find(key);
  return it == m.end() ? 0 : it->second;
}

std::uint64_t magnitude(std::int64_t d) { return d < 0 ? 0 - static_cast<std::uint64_t>(d) : static_cast<std::uint64_t>(d); }

// The totals to compare, in report order.
std::vector<std::string> compared_names(const count_set& base, const count_set& candidate, bool headline_only) {
  std::vector<std::string> names(headline_counts.begin(), headline_counts.end());
  if (headline_only) return names;
  std::set<std::string> rest;
  for (const auto* c : {&base, &candidate})
    for (const auto& [name, value] : c->totals) rest.insert(name);
  for (const std::string& name : rest)
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  return names;
}

void compare_totals(const count_set& base, const count_set& candidate, const diff_options& o, mechanism& m) {
  for (const std::string& name : compared_names(base, candidate, o.headline_only)) {
    const auto b = base.totals.find(name), c = candidate.totals.find(name);
    const bool in_base = b != base.totals.end(), in_candidate = c != candidate.totals.end();
    if (!in_base && !in_candidate) continue;  // neither arm measured it (e.g. no DHAT run)
    if (!in_base || !in_candidate) {
      m.missing.push_back(name);
    } else if (b->second == c->second) {
      m.unchanged.push_back(name);
    } else {
      const std::int64_t d = minus(c->second, b->second);
      m.moved.push_back({name, b->second, c->second, d, relative(d, b->second)});
    }
  }
}

void compare_functions(const count_set& base, const count_set& candidate, const diff_options& o, mechanism& m) {
  std::set<std::string> names;
  for (const auto* c : {&base, &candidate})
    for (const auto& [name, f] : c->functions) names.insert(name);
  static const function_counts none;
  std::vector<function_change> all;
  for (const std::string& name : names) {
    const auto bi = base.functions.find(name), ci = candidate.functions.find(name);
    const function_counts& b = bi == base.functions.end() ? none : bi->second;
    const function_counts& c = ci == candidate.functions.end() ? none : ci->second;
    function_change f;
    f.name = name;
    f.file = ci != candidate.functions.end() ? c.file : b.file;
    f.base = get(b.events, o.rank_by);
    f.candidate = get(c.events, o.rank_by);
    f.delta = minus(f.candidate, f.base);
    if (f.delta == 0) continue;
    f.relative = relative(f.delta, f.base);
    std::set<std::string> events;
    for (const auto* e : {&b.events, &c.events})
      for (const auto& [event, value] : *e) events.insert(event);
    for (const std::string& event : events)
      if (const std::int64_t d = minus(get(c.events, event), get(b.events, event)); d != 0) f.event_deltas[event] = d;
    all.push_back(std::move(f));
  }
  // `all` is in name order, so a stable sort by |Δ| leaves ties by name.
  std::stable_sort(all.begin(), all.end(), [](const function_change& x, const function_change& y) {
    return magnitude(x.delta) > magnitude(y.delta);
  });
  if (all.size() > o.top_functions) all.resize(o.top_functions);
  m.functions = std::move(all);
}

void compare_sites(const count_set& base, const count_set& candidate, const diff_options& o, mechanism& m) {
  std::map<std::string, site_change> by_where;
  for (const alloc_site& s : base.alloc_sites) {
    site_change& c = by_where[s.where];
    c.where = s.where;
    c.base_bytes += s.bytes;
    c.delta_bytes -= static_cast<std::int64_t>(s.bytes);
    c.delta_blocks -= static_cast<std::int64_t>(s.blocks);
  }
  for (const alloc_site& s : candidate.alloc_sites) {
    site_change& c = by_where[s.where];
    c.where = s.where;
    c.candidate_bytes += s.bytes;
    c.delta_bytes += static_cast<std::int64_t>(s.bytes);
    c.delta_blocks += static_cast<std::int64_t>(s.blocks);
  }
  std::vector<site_change> all;
  for (auto& [where, c] : by_where)
    if (c.delta_bytes != 0 || c.delta_blocks != 0) all.push_back(std::move(c));
  std::stable_sort(all.begin(), all.end(), [](const site_change& x, const site_change& y) {
    if (magnitude(x.delta_bytes) != magnitude(y.delta_bytes)) return magnitude(x.delta_bytes) > magnitude(y.delta_bytes);
    return magnitude(x.delta_blocks) > magnitude(y.delta_blocks);
  });
  if (all.size() > o.top_sites) all.resize(o.top_sites);
  m.alloc_sites = std::move(all);
}

// `c`'s functions and allocation sites under their rewritten names, merged where names meet.
count_set renamed(const count_set& c, const std::vector<std::pair<std::regex, std::string>>& rules) {
  const auto rename = [&](std::string name) {
    for (const auto& [pattern, replacement] : rules) name = std::regex_replace(name, pattern, replacement);
    return name;
  };
  count_set out;
  for (const auto& [name, f] : c.functions) {
    const std::string to = rename(name);
    auto [it, fresh] = out.functions.try_emplace(to, function_counts{to, f.file, {}});
    for (const auto& [event, value] : f.events) it->second.events[event] += value;
  }
  std::map<std::string, alloc_site> sites;
  for (const alloc_site& s : c.alloc_sites) {
    alloc_site& merged = sites[rename(s.where)];
    merged.where = rename(s.where);
    merged.blocks += s.blocks;
    merged.bytes += s.bytes;
  }
  for (auto& [where, s] : sites) out.alloc_sites.push_back(std::move(s));
  return out;
}

}  // namespace

mechanism diff_counts(const count_set& base, const count_set& candidate, const diff_options& options) {
  mechanism m;
  m.rank_by = options.rank_by;
  m.region = candidate.region;
  if (base.cache_config != candidate.cache_config) {
    m.comparable = false;
    m.incomparable_reason = fmt::format("simulated caches differ ('{}' vs '{}')", base.cache_config, candidate.cache_config);
  } else if (base.valgrind_version != candidate.valgrind_version) {
    m.comparable = false;
    m.incomparable_reason = fmt::format("Valgrind versions differ ({} vs {})", base.valgrind_version, candidate.valgrind_version);
  } else if (base.region != candidate.region) {
    m.comparable = false;
    m.incomparable_reason = fmt::format("counted regions differ ('{}' vs '{}')", base.region, candidate.region);
  }
  compare_totals(base, candidate, options, m);
  if (options.rename.empty()) {
    compare_functions(base, candidate, options, m);
    compare_sites(base, candidate, options, m);
    return m;
  }
  std::vector<std::pair<std::regex, std::string>> rules;
  for (const auto& [pattern, replacement] : options.rename) rules.emplace_back(std::regex(pattern), replacement);
  const count_set b = renamed(base, rules), c = renamed(candidate, rules);
  compare_functions(b, c, options, m);
  compare_sites(b, c, options, m);
  return m;
}

}  // namespace abtest::counts
