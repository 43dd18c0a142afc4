// Scenario suite: many seeded replicates of each tests/scenarios/*.json through the simulator and the search.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "harness/search/commit_bisect.hpp"
#include "harness/search/scenario.hpp"
#include "harness/search/simulated_oracle.hpp"
#include "harness/search/toggle_bisect.hpp"

namespace abtest::search {
namespace {

const std::string metric = "proof.total_s";

scenario load(const std::string& name) { return load_scenario(std::string(ABTEST_SCENARIO_DIR) + "/" + name); }

levels all_on(const scenario& s) {
  levels out;
  for (const toggle_spec& t : s.toggles) out[t.id] = t.on_level();
  return out;
}

using term_set = std::set<std::vector<std::string>>;

term_set expected_terms(const nlohmann::json& list) {
  term_set out;
  for (const auto& term : list) {
    std::vector<std::string> names = term.get<std::vector<std::string>>();
    std::sort(names.begin(), names.end());
    out.insert(names);
  }
  return out;
}

struct tally {
  int successes = 0;
  int replicates = 0;
  long long runs = 0;
  long long full_matrix_runs = 0;
  long long comparisons = 0;
  int max_comparisons = 0;
  int with_unconfirmed = 0;  // replicates reporting a culprit that the confirmation A/Bs then rejected
};

// One replicate of toggle bisection from base to all-on, checked against the file's "expect".
bool replicate(const scenario& s, std::uint64_t seed, tally& t) {
  const nlohmann::json& expect = s.document.at("expect");
  simulated_oracle o(s, metric, seed);
  const bisect_report r = bisect_toggles(o, s.toggles, {}, all_on(s));
  t.runs += r.runs;
  t.full_matrix_runs += r.full_matrix_runs;
  t.comparisons += r.comparisons;
  t.max_comparisons = std::max(t.max_comparisons, r.comparisons);
  // A culprit counts once both confirmation A/Bs support it.
  term_set found;
  for (const culprit& c : r.culprits) {
    if (c.confirmed.value_or(false)) found.insert(c.toggles);
  }
  t.with_unconfirmed += found.size() != r.culprits.size();
  const term_set want = expected_terms(expect.at("culprits"));
  bool ok = expect.at("exact").get<bool>() ? found == want
                                           : std::includes(found.begin(), found.end(), want.begin(), want.end());
  if (expect.contains("overall")) {
    ok = ok && stats::to_string(r.overall.verdict) == expect["overall"].get<std::string>();
  }
  if (expect.contains("max_comparisons")) ok = ok && r.comparisons <= expect["max_comparisons"].get<int>();
  if (expect.contains("screen")) {
    // The ±1 effects significant after Holm, named like culprits.
    term_set screen;
    std::vector<std::string> names;
    for (const toggle_spec& ts : s.toggles) names.push_back(ts.term(ts.on_level()));
    std::sort(names.begin(), names.end());
    for (const term_effect& e : r.analysis.value().effects) {
      if (e.p_adjusted >= 0.05) continue;
      std::vector<std::string> term;
      for (int j : e.factors) term.push_back(names[static_cast<std::size_t>(j)]);
      screen.insert(term);
    }
    ok = ok && screen == expected_terms(expect["screen"]);
  }
  return ok;
}

void run_toggle_scenario(const std::string& file) {
  const scenario s = load(file);
  const nlohmann::json& expect = s.document.at("expect");
  const int replicates = expect.at("replicates").get<int>();
  tally t;
  for (int i = 0; i < replicates; ++i) {
    const std::uint64_t seed = s.seed * 100000 + static_cast<std::uint64_t>(i);
    t.successes += replicate(s, seed, t);
    ++t.replicates;
  }
  const double rate = static_cast<double>(t.successes) / replicates;
  std::printf("[scenario] %s: success %.3f over %d replicates (seeds %llu..), mean runs %.1f vs full matrix %.1f, "
              "mean comparisons %.2f (max %d), replicates with a rejected candidate %d\n",
              file.c_str(), rate, replicates, static_cast<unsigned long long>(s.seed * 100000),
              static_cast<double>(t.runs) / replicates, static_cast<double>(t.full_matrix_runs) / replicates,
              static_cast<double>(t.comparisons) / replicates, t.max_comparisons, t.with_unconfirmed);
  EXPECT_GE(rate, expect.at("success_rate").get<double>())
      << file << ": seeds " << s.seed * 100000 << " + replicate index";
}

TEST(scenarios, aa_matrix_family_wise_false_positives) { run_toggle_scenario("aa_matrix.json"); }
TEST(scenarios, one_culprit_among_five) { run_toggle_scenario("one_culprit.json"); }
TEST(scenarios, interaction_only_pair) { run_toggle_scenario("interaction.json"); }
TEST(scenarios, masking_pair) { run_toggle_scenario("masking.json"); }
TEST(scenarios, incident) { run_toggle_scenario("incident.json"); }
TEST(scenarios, many_toggles_group_testing) { run_toggle_scenario("many_toggles.json"); }
// Real projects (design §7): configurations whose run times span 100-fold and whose noise differs (noise_effects).
TEST(scenarios, regex_features_noise_per_configuration) { run_toggle_scenario("regex_features.json"); }
TEST(scenarios, spread_five_noise_per_configuration) { run_toggle_scenario("spread_five.json"); }

// The culprits' effects and intervals come from every run of the search (pooled_fit.hpp), the A/Bs'
// optionally stopped ones and the screen's selected terms included, so their 95% intervals are checked
// against the planted 0/1 effects over seeded replicates: coverage at least 90%. Measured (seeds
// 7000–7099): 0.940, 0.940, 0.940, 0.960 in the order below; the matrix's own intervals, before they
// were pooled, covered 0.940, 0.940, 0.910, 0.980. With noise per configuration (design §7; terms the matrix
// decided are not confirmed; the weighted fit where the noise differs): 0.933, 0.980, 0.935, 0.960,
// and for the two heteroscedastic scenarios 0.963 (regex_features) and 0.921 (spread_five).
TEST(scenarios, culprit_intervals_from_every_run_cover_the_planted_effects) {
  for (const std::string file :
       {"incident.json", "one_culprit.json", "masking.json", "interaction.json", "regex_features.json", "spread_five.json"}) {
    const scenario s = load(file);
    std::map<std::set<std::string>, double> planted;
    for (const scenario_effect& e : s.metrics.at(metric).effects) {
      std::set<std::string> names;
      for (std::size_t from = 0, star; from <= e.key.size(); from = star + 1) {
        star = std::min(e.key.find('*', from), e.key.size());
        names.insert(e.key.substr(from, star - from));
      }
      planted[names] = e.log_effect;
    }
    int intervals = 0, covered = 0;
    for (int i = 0; i < 100; ++i) {
      simulated_oracle o(s, metric, 7000 + static_cast<std::uint64_t>(i));
      const bisect_report r = bisect_toggles(o, s.toggles, {}, all_on(s));
      for (const culprit& c : r.culprits) {
        if (!c.confirmed.value_or(false)) continue;
        const auto it = planted.find(std::set<std::string>(c.toggles.begin(), c.toggles.end()));
        const double truth = it == planted.end() ? 0.0 : it->second;
        ++intervals;
        covered += c.ci_low <= truth && truth <= c.ci_high;
      }
    }
    const double coverage = intervals ? static_cast<double>(covered) / intervals : 0.0;
    std::printf("[scenario] %s: %d of %d culprit intervals cover the planted effect (%.3f)\n", file.c_str(), covered,
                intervals, coverage);
    EXPECT_GE(intervals, 90) << file;  // a culprit or more in nearly every replicate
    EXPECT_GE(coverage, 0.90) << file;
  }
}

TEST(scenarios, commit_bisection_with_skips) {
  const scenario s = load("commits.json");
  const int count = s.document.at("commits").get<int>();
  const auto first_bad = s.document.at("first_bad").get<std::size_t>();
  const auto unbuildable = s.document.at("unbuildable").get<std::set<std::size_t>>();
  const int replicates = s.document.at("expect").at("replicates").get<int>();
  int successes = 0;
  for (int i = 0; i < replicates; ++i) {
    const std::uint64_t seed = s.seed * 100000 + static_cast<std::uint64_t>(i);
    simulated_oracle o(s, metric, seed);
    const levels good{};
    // Commit c carries the regression from first_bad on; an unbuildable one is skipped like git bisect.
    const auto test = [&](std::size_t c) {
      if (unbuildable.contains(c)) return commit_state::skip;
      const levels commit{{"REGRESSION", c >= first_bad ? "ON" : "OFF"}};
      comparison r = o.compare(good, commit, {.margin = 0.02, .alpha = 0.05, .attempt = 0});
      if (r.verdict == stats::verdict::inconclusive) r = o.compare(good, commit, {.margin = 0.02, .alpha = 0.05, .attempt = 1});
      if (r.verdict == stats::verdict::slower) return commit_state::bad;
      if (r.verdict == stats::verdict::inconclusive) return commit_state::skip;
      return commit_state::good;
    };
    const commit_bisect_result r = bisect_commits(static_cast<std::size_t>(count), test);
    successes += r.found && r.first_bad == first_bad;
  }
  const double rate = static_cast<double>(successes) / replicates;
  std::printf("[scenario] commits.json: first bad found in %.3f of %d replicates\n", rate, replicates);
  EXPECT_GE(rate, s.document.at("expect").at("success_rate").get<double>()) << "seeds " << s.seed * 100000 << "+i";
}

}  // namespace
}  // namespace abtest::search
