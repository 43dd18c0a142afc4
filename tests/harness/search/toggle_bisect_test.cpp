// Tests of toggle bisection and group testing against a noiseless oracle with exact, known answers.
#include "harness/search/toggle_bisect.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "harness/search/factorial_search.hpp"
#include "harness/search/group_search.hpp"

namespace abtest::search {
namespace {

// Truth: ln value = Σ of the terms whose toggles are all ON. A comparison answers with a zero-width
// CI at the true ratio (SLOWER / FASTER beyond 0.1%, else SAME); a matrix gives the true log values
// plus a tiny deterministic round-to-round wobble so that σ̂ > 0.
class exact_oracle : public oracle {
 public:
  explicit exact_oracle(std::map<std::set<std::string>, double> terms) : terms_(std::move(terms)) {}

  double truth(const levels& v) const {
    double sum = 0.0;
    for (const auto& [term, effect] : terms_) {
      bool on = true;
      for (const std::string& id : term) on = on && v.contains(id) && v.at(id) == "ON";
      if (on) sum += effect;
    }
    return sum;
  }

  comparison compare(const levels& from, const levels& to, const comparison_request&) override {
    comparison c;
    const double d = truth(to) - truth(from);
    c.estimate.n = 10;
    c.estimate.estimate = c.estimate.ci_low = c.estimate.ci_high = d;
    c.estimate.has_ci = true;
    c.verdict = d > 0.001 ? stats::verdict::slower : d < -0.001 ? stats::verdict::faster : stats::verdict::same;
    c.rounds = 10;
    c.runs = 20;
    c.from_run_s = seconds(from);
    c.to_run_s = seconds(to);
    ++compares;
    return c;
  }

  matrix_result run_matrix(const std::vector<levels>& configs, int rounds) override {
    matrix_result m;
    for (std::size_t c = 0; c < configs.size(); ++c) {
      std::vector<double> row;
      for (int r = 0; r < rounds; ++r) row.push_back(truth(configs[c]) + wobble * (((c * 7 + r * 3) % 5) - 2.0));
      m.log_values.push_back(row);
    }
    m.runs = rounds * static_cast<int>(configs.size());
    for (const levels& c : configs) m.run_s.push_back(seconds(c));
    ++matrices;
    return m;
  }

  // Seconds of one run: 0.03, or 3 where T02 is off when `t02_off_is_slow` (a performance feature).
  double seconds(const levels& v) const {
    return t02_off_is_slow && !(v.contains("T02") && v.at("T02") == "ON") ? 3.0 : 0.03;
  }

  int compares = 0;
  int matrices = 0;
  bool t02_off_is_slow = false;
  double wobble = 1e-4;  // the matrix's round-to-round wobble

 private:
  std::map<std::set<std::string>, double> terms_;
};

std::vector<toggle_spec> named(int k) {
  std::vector<toggle_spec> out;
  for (int i = 1; i <= k; ++i) out.push_back(toggle_spec{(i < 10 ? "T0" : "T") + std::to_string(i), {"OFF", "ON"}, ""});
  return out;
}

levels all_on(const std::vector<toggle_spec>& toggles) {
  levels out;
  for (const toggle_spec& t : toggles) out[t.id] = "ON";
  return out;
}

std::set<std::vector<std::string>> culprit_terms(const bisect_report& r) {
  std::set<std::vector<std::string>> out;
  for (const culprit& c : r.culprits) {
    if (c.confirmed.value_or(true)) out.insert(c.toggles);
  }
  return out;
}

TEST(toggle_bisect, one_culprit_among_24_within_the_comparison_budget) {
  const auto toggles = named(24);
  for (int culprit_index = 1; culprit_index <= 24; ++culprit_index) {
    exact_oracle o({{{toggles[culprit_index - 1].id}, 0.05}});
    const bisect_report r = bisect_toggles(o, toggles, {}, all_on(toggles));
    EXPECT_EQ(r.method, "group testing");
    EXPECT_EQ(culprit_terms(r), (std::set<std::vector<std::string>>{{toggles[culprit_index - 1].id}})) << culprit_index;
    // overall + at most 2 per halving (⌈log2 24⌉ = 5) + 2 confirmations
    EXPECT_LE(r.comparisons, 1 + 2 * 5 + 2) << culprit_index;
    EXPECT_NEAR(r.culprits.at(0).effect, 0.05, 1e-12);
  }
}

TEST(toggle_bisect, two_independent_culprits_and_a_speedup_direction) {
  const auto toggles = named(16);
  exact_oracle slow({{{"T02"}, 0.03}, {{"T11"}, 0.04}});
  EXPECT_EQ(culprit_terms(bisect_toggles(slow, toggles, {}, all_on(toggles))),
            (std::set<std::vector<std::string>>{{"T02"}, {"T11"}}));
  exact_oracle fast({{{"T07"}, -0.05}});
  const bisect_report r = bisect_toggles(fast, toggles, {}, all_on(toggles));
  EXPECT_EQ(r.overall.verdict, stats::verdict::faster);
  EXPECT_EQ(culprit_terms(r), (std::set<std::vector<std::string>>{{"T07"}}));
  EXPECT_TRUE(r.culprits.at(0).confirmed.value());
}

TEST(toggle_bisect, an_interaction_across_halves_is_found_as_one_set) {
  const auto toggles = named(24);
  exact_oracle o({{{"T03", "T17"}, 0.05}});  // neither alone costs anything
  const bisect_report r = bisect_toggles(o, toggles, {}, all_on(toggles));
  EXPECT_EQ(culprit_terms(r), (std::set<std::vector<std::string>>{{"T03", "T17"}}));
  EXPECT_TRUE(r.skipped.empty());
}

std::set<std::vector<std::string>> terms_of(const std::vector<culprit>& list) {
  std::set<std::vector<std::string>> out;
  for (const culprit& c : list) out.insert(c.toggles);
  return out;
}

// design §9: a culprit pushes the way of the verdict; a term pulling the other way is an offset. Here
// T04 (−3%) is a speed-up inside a slowdown: an offset, never a culprit.
TEST(toggle_bisect, a_speed_up_inside_a_slowdown_is_an_offset) {
  const auto toggles = named(4);
  exact_oracle o({{{"T01"}, 0.05}, {{"T02", "T03"}, 0.04}, {{"T04"}, -0.03}});
  const bisect_report r = bisect_toggles(o, toggles, {}, all_on(toggles));
  ASSERT_EQ(r.overall.verdict, stats::verdict::slower);
  const attribution a = split_by_direction(r, stats::better::lower);
  EXPECT_EQ(terms_of(a.culprits), (std::set<std::vector<std::string>>{{"T01"}, {"T02", "T03"}}));
  EXPECT_EQ(terms_of(a.offsets), (std::set<std::vector<std::string>>{{"T04"}}));
  EXPECT_TRUE(a.rejected.empty());
  // The same terms on a rate (better higher): the overall rise is FASTER, and its culprits are the
  // terms that raise it — T04, which lowers the rate, still pulls the other way.
  bisect_report rate = r;
  rate.overall.verdict = stats::verdict::faster;
  const attribution b = split_by_direction(rate, stats::better::higher);
  EXPECT_EQ(terms_of(b.culprits), terms_of(a.culprits));
  EXPECT_EQ(terms_of(b.offsets), terms_of(a.offsets));
}

// Without a direction (SAME: a masking pair), the culprit is the term that pushes the way of a
// regression and the speed-up that masks it is its offset.
TEST(toggle_bisect, a_masked_slowdown_has_its_culprit_and_its_offset) {
  const auto toggles = named(4);
  exact_oracle o({{{"T02"}, 0.05}, {{"T04"}, -0.05}});
  const bisect_report r = bisect_toggles(o, toggles, {}, all_on(toggles));
  ASSERT_EQ(r.overall.verdict, stats::verdict::same);
  const attribution a = split_by_direction(r, stats::better::lower);
  EXPECT_EQ(terms_of(a.culprits), (std::set<std::vector<std::string>>{{"T02"}}));
  EXPECT_EQ(terms_of(a.offsets), (std::set<std::vector<std::string>>{{"T04"}}));
  bisect_report unconfirmed = r;
  for (culprit& c : unconfirmed.culprits) c.confirmed = false;
  const attribution none = split_by_direction(unconfirmed, stats::better::lower);
  EXPECT_TRUE(none.culprits.empty() && none.offsets.empty());
  EXPECT_EQ(none.rejected.size(), r.culprits.size());
}

TEST(toggle_bisect, nothing_to_search_when_the_overall_is_the_same) {
  const auto toggles = named(10);
  exact_oracle o({{{"T01"}, 0.05}, {{"T02"}, -0.05}});  // masked: group testing cannot see it
  const bisect_report r = bisect_toggles(o, toggles, {}, all_on(toggles));
  EXPECT_EQ(r.overall.verdict, stats::verdict::same);
  EXPECT_TRUE(r.culprits.empty());
  EXPECT_EQ(r.comparisons, 1);
}

TEST(toggle_bisect, factorial_path_attributes_mains_and_pairs) {
  const auto toggles = named(4);
  exact_oracle o({{{"T01"}, 0.05}, {{"T02", "T03"}, 0.04}, {{"T04"}, -0.03}});
  const bisect_report r = bisect_toggles(o, toggles, {}, all_on(toggles));
  EXPECT_EQ(r.method, "factorial full 2^4");
  EXPECT_EQ(culprit_terms(r), (std::set<std::vector<std::string>>{{"T01"}, {"T02", "T03"}, {"T04"}}));
  for (const culprit& c : r.culprits) EXPECT_TRUE(c.confirmed.value()) << c.toggles.front();
  ASSERT_TRUE(r.analysis.has_value());
  EXPECT_EQ(r.full_matrix_runs, 16 * r.analysis->rounds);
  EXPECT_EQ(r.analysis->configs, 16);
}

// The factorial "at equal precision" must match every culprit: its runs follow the term with the
// largest c/h, not the narrowest interval — a pair (c = 4 in the factorial) measured to ±0.011 asks
// more of it than a main effect beside it (c = 2√2) to ±0.008. A rejected candidate asks nothing.
TEST(toggle_bisect, the_factorial_is_priced_for_the_culprit_it_finds_hardest_to_match) {
  const auto term = [](std::vector<std::string> toggles, double h, std::optional<bool> confirmed) {
    return culprit{std::move(toggles), 0.05, 0.05 - h, 0.05 + h, confirmed, ""};
  };
  const std::map<std::vector<std::string>, double> c{{{"A"}, 2.0 * std::sqrt(2.0)}, {{"A", "B"}, 4.0}, {{"C"}, 2.0}};
  const auto [h, factor] = binding_term({term({"A"}, 0.008, true), term({"A", "B"}, 0.011, true), term({"C"}, 0.001, false)}, 0.5, c);
  EXPECT_DOUBLE_EQ(h, 0.011);
  EXPECT_DOUBLE_EQ(factor, 4.0);
  const auto [h2, factor2] = binding_term({term({"A"}, 0.004, std::nullopt), term({"A", "B"}, 0.011, true)}, 0.5, c);
  EXPECT_DOUBLE_EQ(h2, 0.004) << "2√2/0.004 = 707 beats 4/0.011 = 364";
  EXPECT_DOUBLE_EQ(factor2, 2.0 * std::sqrt(2.0));
  EXPECT_EQ(binding_term({term({"C"}, 0.001, false)}, 0.5, c), std::make_pair(0.5, 2.0)) << "no supported term: the fallback";
}

// Sized for a 2% effect at 90% power, a matrix whose terms are all decided — each clearly active or
// clearly inside ±2% — after its first 3 rounds stops there; with --rounds it runs them all.
TEST(toggle_bisect, a_matrix_stops_once_every_term_is_decided) {
  const auto toggles = named(4);
  exact_oracle o({{{"T01"}, 0.05}, {{"T02", "T03"}, 0.04}});
  const bisect_report r = bisect_toggles(o, toggles, {}, all_on(toggles));
  ASSERT_TRUE(r.analysis.has_value());
  EXPECT_GT(r.plan.chosen.rounds, 3) << "the plan, at the default 2% noise, asks for more than the first batch";
  EXPECT_EQ(r.analysis->rounds, 3);
  EXPECT_TRUE(matrix_decided(*r.analysis, 0.05, 0.02));
  search_options fixed;
  fixed.matrix_rounds = 6;
  const bisect_report f = bisect_toggles(o, toggles, {}, all_on(toggles), fixed);
  EXPECT_EQ(f.analysis->rounds, 6);
}

// The price of what was done: runs and distinct configurations at the unit costs, beside the full
// factorial that reaches the narrowest culprit's half-width.
TEST(toggle_bisect, the_search_is_priced_beside_the_full_factorial) {
  const auto toggles = named(4);
  exact_oracle o({{{"T01"}, 0.05}});
  search_options options;
  options.costs.build_s = 60.0;
  options.costs.run_s = 2.0;
  const search_plan auto_plan = bisect_toggles(o, toggles, {}, all_on(toggles), options).plan;
  EXPECT_EQ(auto_plan.chosen.design, design_choice::full)
      << "below group_testing_from toggles auto keeps to the factorial that sees every pair";
  const auto group = std::find_if(auto_plan.alternatives.begin(), auto_plan.alternatives.end(),
                                   [](const priced_design& d) { return d.design == design_choice::group; });
  ASSERT_NE(group, auto_plan.alternatives.end());
  EXPECT_LT(group->expected.wall_s, auto_plan.chosen.expected.wall_s) << "at 60 s a build and 2 s a run, 7 configurations are priced below 16";
  options.design = design_choice::full;
  const bisect_report r = bisect_toggles(o, toggles, {}, all_on(toggles), options);
  EXPECT_EQ(r.builds, 16) << "the 16 configurations of the matrix; the A/Bs' variants are among them";
  EXPECT_EQ(r.used.runs, r.runs);
  EXPECT_DOUBLE_EQ(r.used.wall_s, 16 * 60.0 + r.runs * 2.0);
  EXPECT_EQ(r.full_factorial.builds, 16);
  EXPECT_EQ(r.full_factorial.runs % 16, 0);
  EXPECT_GE(r.full_factorial.runs, 32);
  EXPECT_DOUBLE_EQ(r.half_width, (r.culprits.at(0).ci_high - r.culprits.at(0).ci_low) / 2.0);
}

// The Cargo case: two big features whose interaction (0.83×) pulls against the slowdown. The
// matrix decides it (its interval is clear of the margin, design §7): it is an offset, not a rejected
// candidate, and not measured again.
TEST(toggle_bisect, an_interaction_pulling_the_other_way_is_an_offset_by_heredity) {
  const auto toggles = named(4);
  exact_oracle o({{{"T01"}, std::log(18.0)}, {{"T02"}, std::log(9.5)}, {{"T01", "T02"}, std::log(0.83)}, {{"T03"}, std::log(1.04)}});
  const bisect_report r = bisect_toggles(o, toggles, {}, all_on(toggles));
  const attribution a = split_by_direction(r, stats::better::lower);
  EXPECT_EQ(terms_of(a.culprits), (std::set<std::vector<std::string>>{{"T01"}, {"T02"}, {"T03"}}));
  EXPECT_EQ(terms_of(a.offsets), (std::set<std::vector<std::string>>{{"T01", "T02"}}));
  EXPECT_TRUE(a.rejected.empty());
  EXPECT_EQ(a.offsets.at(0).support, "matrix");
}

// A pair with no effect of its own in either toggle holds up only through its four cells, measured afresh.
TEST(toggle_bisect, a_pair_without_parents_is_confirmed_by_its_four_cells) {
  const auto toggles = named(5);
  exact_oracle o({{{"T02", "T05"}, 0.05}});
  const bisect_report r = bisect_toggles(o, toggles, {}, all_on(toggles));
  EXPECT_EQ(culprit_terms(r), (std::set<std::vector<std::string>>{{"T02", "T05"}}));
  ASSERT_EQ(r.culprits.size(), 1u);
  EXPECT_EQ(r.culprits[0].support, "four cells");
  EXPECT_TRUE(r.culprits[0].confirmed.value());
}

// An oracle whose matrices of more than four configurations show a pair that is not there: the screen
// names it, the four cells (measured apart) do not support it, so it is rejected, not reported.
class mirage_oracle : public exact_oracle {
 public:
  using exact_oracle::exact_oracle;
  matrix_result run_matrix(const std::vector<levels>& configs, int rounds) override {
    matrix_result m = exact_oracle::run_matrix(configs, rounds);
    if (configs.size() > 4)
      for (std::size_t c = 0; c < configs.size(); ++c)
        if (configs[c].at("T01") == "ON" && configs[c].at("T04") == "ON")
          for (double& y : m.log_values[c]) y += 0.05;
    return m;
  }
};

// In a half fraction a pair is aliased with a three-factor interaction, so the matrix does not decide
// it even when its interval is clear of the margin: its four cells do.
TEST(toggle_bisect, a_pair_the_four_cells_do_not_support_is_rejected) {
  const auto toggles = named(5);
  mirage_oracle o({{{"T02"}, 0.05}});
  search_options options;
  options.design = design_choice::half;
  const bisect_report r = bisect_toggles(o, toggles, {}, all_on(toggles), options);
  EXPECT_EQ(culprit_terms(r), (std::set<std::vector<std::string>>{{"T02"}}));
  const attribution a = split_by_direction(r, stats::better::lower);
  EXPECT_EQ(terms_of(a.rejected), (std::set<std::vector<std::string>>{{"T01", "T04"}}));
}

// An oracle that keeps every comparison's request, to see how the search asked.
class recording_oracle : public exact_oracle {
 public:
  using exact_oracle::exact_oracle;
  comparison compare(const levels& from, const levels& to, const comparison_request& request) override {
    requests.push_back(request);
    return exact_oracle::compare(from, to, request);
  }
  std::vector<comparison_request> requests;
};

// After a factorial matrix the confirmations carry the matrix's noise (at its upper bound), start
// from three rounds and mix at the culprit's own scale; the overall A/B, before any matrix, carries
// nothing and keeps the oracle's defaults.
TEST(toggle_bisect, confirmations_after_a_matrix_carry_its_noise) {
  const auto toggles = named(4);
  recording_oracle o({{{"T01"}, 0.08}});
  o.wobble = 0.04;  // 3 rounds leave the culprit's always-valid interval over the margin: not decided
  search_options options;
  options.matrix_rounds = 3;
  const bisect_report r = bisect_toggles(o, toggles, {}, all_on(toggles), options);
  ASSERT_EQ(culprit_terms(r), (std::set<std::vector<std::string>>{{"T01"}}));
  ASSERT_EQ(r.culprits.at(0).support, "A/Bs");
  ASSERT_EQ(o.requests.size(), 3u) << "the overall A/B, then the culprit's two confirmations";
  EXPECT_TRUE(std::isnan(o.requests[0].known_variance));
  EXPECT_EQ(o.requests[0].min_rounds, 0);
  EXPECT_EQ(o.requests[0].tau, 0.0);
  const double sigma = r.analysis->sigma;
  for (std::size_t i = 1; i < o.requests.size(); ++i) {
    EXPECT_GT(o.requests[i].known_variance, 2.0 * sigma * sigma) << "2σ̂² raised to its upper bound";
    EXPECT_EQ(o.requests[i].min_rounds, 3);
    EXPECT_NEAR(o.requests[i].tau, r.culprits.at(0).effect, 1e-12) << "|effect| 0.08 is above the default 0.02";
  }
}

// Every run counts once (design §7): a term the matrix decided — its always-valid interval clear of the margin — is not
// confirmed again by A/Bs that repeat what the matrix measured.
TEST(toggle_bisect, a_term_the_matrix_decided_is_not_confirmed_again) {
  const auto toggles = named(4);
  recording_oracle o({{{"T01"}, 0.08}});
  const bisect_report r = bisect_toggles(o, toggles, {}, all_on(toggles));
  ASSERT_EQ(culprit_terms(r), (std::set<std::vector<std::string>>{{"T01"}}));
  EXPECT_EQ(r.culprits.at(0).support, "matrix");
  EXPECT_TRUE(r.culprits.at(0).confirmed.value());
  EXPECT_EQ(o.requests.size(), 1u) << "the overall A/B alone";
}

// A main effect's two confirmations run the end whose runs take fewer seconds first: here turning T02
// off makes a run 100 times longer, so to vs to − T01 (T02 on) goes before from + T01 vs from.
TEST(toggle_bisect, the_cheaper_end_confirms_first) {
  const auto toggles = named(4);
  recording_oracle o({{{"T01"}, 0.08}});
  o.wobble = 0.04;  // undecided by the matrix (see above)
  o.t02_off_is_slow = true;
  search_options options;
  options.matrix_rounds = 3;
  const bisect_report r = bisect_toggles(o, toggles, {}, all_on(toggles), options);
  ASSERT_EQ(r.culprits.at(0).support, "A/Bs");
  ASSERT_EQ(o.requests.size(), 3u);
  EXPECT_NE(o.requests[1].settle_side, 0) << "to vs to − T01, one-sided, first";
  EXPECT_EQ(o.requests[2].settle_side, 0) << "from + T01 vs from second";
  EXPECT_GT(r.run_seconds, 0.0);
}

// The budget (design §7): a search told to stop (--budget-s, Ctrl-C) starts nothing new and ends with what it has
// decided: a culprit the matrix decided stays one; a candidate not yet confirmed is undecided, with
// what every run says of it.
TEST(toggle_bisect, a_stopped_search_ends_with_what_it_decided) {
  const auto toggles = named(4);
  {
    recording_oracle o({{{"T01"}, 0.08}});
    search_options options;
    options.stop = [&o] { return o.matrices > 0; };
    const bisect_report r = bisect_toggles(o, toggles, {}, all_on(toggles), options);
    EXPECT_TRUE(r.stopped);
    EXPECT_EQ(culprit_terms(r), (std::set<std::vector<std::string>>{{"T01"}}));
    EXPECT_EQ(r.culprits.at(0).support, "matrix");
    EXPECT_TRUE(r.undecided.empty()) << "the other terms are inside the margin";
  }
  {
    recording_oracle o({{{"T01"}, 0.08}});
    o.wobble = 0.04;
    search_options options;
    options.matrix_rounds = 3;
    options.stop = [&o] { return o.matrices > 0; };
    const bisect_report r = bisect_toggles(o, toggles, {}, all_on(toggles), options);
    EXPECT_TRUE(r.stopped);
    EXPECT_TRUE(r.culprits.empty());
    ASSERT_FALSE(r.undecided.empty());
    EXPECT_EQ(r.undecided.at(0).toggles, std::vector<std::string>{"T01"});
    EXPECT_EQ(r.undecided.at(0).support, "undecided");
    EXPECT_LT(r.undecided.at(0).ci_low, r.undecided.at(0).effect);
    EXPECT_EQ(o.requests.size(), 1u) << "no confirmation started";
  }
  {
    recording_oracle o({{{"T01"}, 0.08}});
    search_options options;
    options.stop = [] { return true; };  // before the matrix: the overall A/B alone
    const bisect_report r = bisect_toggles(o, toggles, {}, all_on(toggles), options);
    EXPECT_TRUE(r.stopped);
    EXPECT_EQ(o.matrices, 0);
    EXPECT_TRUE(r.culprits.empty());
  }
}

// Ctrl-C inside a matrix's first rounds can leave no complete round: the search is stopped with what
// it had (the overall comparison), not failed.
class interrupted_oracle : public recording_oracle {
 public:
  using recording_oracle::recording_oracle;
  matrix_result run_matrix(const std::vector<levels>& configs, int rounds) override {
    matrix_result m = recording_oracle::run_matrix(configs, rounds);
    for (auto& row : m.log_values) std::fill(row.begin(), row.end(), std::nan(""));
    return m;
  }
};

TEST(toggle_bisect, an_interrupt_before_a_complete_matrix_round_stops_without_an_error) {
  const auto toggles = named(4);
  interrupted_oracle o({{{"T01"}, 0.08}});
  search_options options;
  options.stop = [&o] { return o.matrices > 0; };
  const bisect_report r = bisect_toggles(o, toggles, {}, all_on(toggles), options);
  EXPECT_TRUE(r.stopped);
  EXPECT_TRUE(r.culprits.empty());
  EXPECT_EQ(r.overall.verdict, stats::verdict::slower);
  options.stop = nullptr;
  EXPECT_THROW(bisect_toggles(o, toggles, {}, all_on(toggles), options), std::invalid_argument) << "not stopped: an error, as before";
}

TEST(toggle_bisect, design_flag_overrides_the_plan) {
  const auto toggles = named(6);
  exact_oracle o({{{"T03"}, 0.05}});
  search_options options;
  options.design = design_choice::group;
  bisect_report r = bisect_toggles(o, toggles, {}, all_on(toggles), options);
  EXPECT_EQ(r.method, "group testing");
  EXPECT_EQ(culprit_terms(r), (std::set<std::vector<std::string>>{{"T03"}}));
  options.design = design_choice::full;
  r = bisect_toggles(o, toggles, {}, all_on(toggles), options);
  EXPECT_EQ(r.method, "factorial full 2^6");
  options.design = design_choice::half;
  EXPECT_THROW(bisect_toggles(o, named(10), {}, all_on(named(10)), options), std::invalid_argument);
}

TEST(toggle_bisect, excluded_toggles_are_reported_as_skipped) {
  const auto toggles = named(5);
  exact_oracle o({{{"T01"}, 0.05}});
  search_options options;
  options.exclude = {"T05"};
  const bisect_report r = bisect_toggles(o, toggles, {}, all_on(toggles), options);
  EXPECT_EQ(r.skipped, std::vector<std::string>{"T05"});
  EXPECT_EQ(r.method, "factorial full 2^4");
  EXPECT_EQ(r.to_key, "T01+T02+T03+T04+T05");
}

}  // namespace
}  // namespace abtest::search
