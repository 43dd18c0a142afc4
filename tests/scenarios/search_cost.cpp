// Seeded replicates of each toggle scenario through the search: exact culprit sets, and what the search
// cost beside the full factorial at equal precision (design §7) — in runs, builds, wall at the unit
// costs and, where a scenario models its configurations' run seconds (design §7), in those seconds. A table on stdout; exit 1 when a
// scenario's exact-set rate falls below --min-exact, a scenario of 8+ toggles costs more than
// --max-ratio of the full factorial in runs or wall, or a smaller one more than --max-ratio-small.
//
//   abtest_search_cost [--seeds N] [--first SEED] [--design auto|full|half|group] [--min-exact R] [--max-ratio R]
//                      [--max-ratio-small R] FILE...
//
// ABTEST_SEARCH_COST_PHASES=1 prints each seed's runs by phase on stderr (the overall A/B, the
// design's matrix, the rest: confirmations); ABTEST_SEARCH_COST_VERBOSE=1 each seed whose culprit
// set is not the expected one.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/search/scenario.hpp"
#include "harness/search/simulated_oracle.hpp"
#include "harness/search/toggle_bisect.hpp"

namespace {

using namespace abtest::search;

const std::string metric = "proof.total_s";

double median(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  const std::size_t n = x.size();
  return n == 0 ? 0.0 : n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2.0;
}

std::set<std::vector<std::string>> expected(const scenario& s) {
  std::set<std::vector<std::string>> out;
  for (const auto& term : s.document.at("expect").at("culprits")) {
    auto names = term.get<std::vector<std::string>>();
    std::sort(names.begin(), names.end());
    out.insert(names);
  }
  return out;
}

struct row {
  std::string name;
  int k = 0;
  int exact = 0, seeds = 0;
  std::vector<double> runs, builds, wall, ff_runs, ff_builds, ff_wall, run_ratio, wall_ratio;
  std::vector<double> seconds, ff_seconds, seconds_ratio;  // runs' seconds, where the scenario models them (run_s)
  std::string method;
};

// Seconds of `rounds` rounds of the full 2^k factorial at the scenario's run seconds per
// configuration (metric_model::run_s); NaN when it does not model them.
double factorial_seconds(const scenario& s, long long rounds) {
  const std::size_t k = s.toggles.size();
  double round = 0.0;
  for (std::size_t z = 0; z < (std::size_t{1} << k); ++z) {
    levels config;
    for (std::size_t j = 0; j < k; ++j)
      if (z >> j & 1) config[s.toggles[j].id] = s.toggles[j].on_level();
    round += simulated_run_s(s, config, metric);
  }
  return static_cast<double>(rounds) * round;
}

row replicate_all(const std::string& file, int seeds, std::uint64_t first, design_choice design) {
  const scenario s = load_scenario(file);
  row r;
  r.name = file.substr(file.find_last_of('/') + 1);
  levels to;
  for (const toggle_spec& t : s.toggles) to[t.id] = t.on_level();
  r.k = static_cast<int>(s.toggles.size());
  search_options options;
  options.design = design;
  options.costs.build_s = s.document.value("build_s", 0.0);
  options.costs.run_s = s.document.value("run_s", s.metrics.at(metric).base);
  const auto want = expected(s);
  for (int i = 0; i < seeds; ++i) {
    simulated_oracle o(s, metric, first + static_cast<std::uint64_t>(i));
    const bisect_report b = bisect_toggles(o, s.toggles, {}, to, options);
    std::set<std::vector<std::string>> found;
    for (const culprit& c : b.culprits)
      if (c.confirmed.value_or(false)) found.insert(c.toggles);
    r.exact += found == want;
    if (found != want && std::getenv("ABTEST_SEARCH_COST_VERBOSE")) {
      std::fprintf(stderr, "%s seed %llu: overall %s;", r.name.c_str(), static_cast<unsigned long long>(first + i),
                   std::string(abtest::stats::to_string(b.overall.verdict)).c_str());
      for (const culprit& c : b.culprits) {
        std::string t;
        for (const auto& n : c.toggles) t += n + "*";
        std::fprintf(stderr, " %s %.4f [%.4f, %.4f] %s %s;", t.c_str(), c.effect, c.ci_low, c.ci_high,
                     c.confirmed ? (*c.confirmed ? "yes" : "no") : "-", c.support.c_str());
      }
      std::fprintf(stderr, "\n");
    }
    const int matrix_rounds = b.analysis ? b.analysis->rounds : 0;
    if (std::getenv("ABTEST_SEARCH_COST_PHASES"))
      std::fprintf(stderr,
                   "%s seed %llu: overall %d runs (%d rounds), matrix %d×%d = %d, rest %d; hw %.4f sigma %.4f c %.2f; "
                   "full factorial %lld runs\n",
                   r.name.c_str(),
                   static_cast<unsigned long long>(first + i), b.overall.runs, b.overall.rounds, b.plan.chosen.configs, matrix_rounds,
                   b.plan.chosen.configs * matrix_rounds, b.runs - b.overall.runs - b.plan.chosen.configs * matrix_rounds,
                   b.half_width, b.sigma, b.se_factor, static_cast<long long>(b.full_factorial.runs));
    ++r.seeds;
    r.method = b.method;
    r.runs.push_back(b.used.runs);
    r.builds.push_back(static_cast<double>(b.used.builds));
    r.wall.push_back(b.used.wall_s);
    r.ff_runs.push_back(static_cast<double>(b.full_factorial.runs));
    r.ff_builds.push_back(static_cast<double>(b.full_factorial.builds));
    r.ff_wall.push_back(b.full_factorial.wall_s);
    r.run_ratio.push_back(static_cast<double>(b.used.runs) / static_cast<double>(b.full_factorial.runs));
    r.wall_ratio.push_back(b.full_factorial.wall_s > 0 ? b.used.wall_s / b.full_factorial.wall_s : 0.0);
    if (s.metrics.at(metric).run_s > 0.0 && r.k <= 16) {
      const double ff = factorial_seconds(s, b.full_factorial.runs >> r.k);
      r.seconds.push_back(b.run_seconds);
      r.ff_seconds.push_back(ff);
      r.seconds_ratio.push_back(b.run_seconds / ff);
    }
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  int seeds = 20;
  std::uint64_t first = 1;
  double min_exact = 0.0, max_ratio = 0.0, max_ratio_small = 0.0;
  design_choice design = design_choice::automatic;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--seeds" && has_value) seeds = std::atoi(argv[++i]);
    else if (a == "--first" && has_value) first = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--design" && has_value) {
      try {
        design = parse_design_choice(argv[++i]);
      } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
      }
    }
    else if (a == "--min-exact" && has_value) min_exact = std::atof(argv[++i]);
    else if (a == "--max-ratio" && has_value) max_ratio = std::atof(argv[++i]);
    else if (a == "--max-ratio-small" && has_value) max_ratio_small = std::atof(argv[++i]);
    else files.push_back(a);
  }
  if (files.empty() || seeds < 1) {
    std::fprintf(stderr, "error: no scenario file — usage: abtest_search_cost [--seeds N] [--first SEED] [--design D] "
                         "[--min-exact R] [--max-ratio R] [--max-ratio-small R] FILE...\n");
    return 2;
  }
  bool ok = true;
  std::printf("| scenario | k | method | exact | median runs / builds / wall h | full factorial runs / builds / wall h | "
              "ratio runs | ratio wall | median run s: search / full factorial | ratio s |\n|---|---|---|---|---|---|---|---|---|---|\n");
  for (const std::string& f : files) {
    const row r = replicate_all(f, seeds, first, design);
    const double rate = static_cast<double>(r.exact) / r.seeds;
    const double rr = median(r.run_ratio), wr = median(r.wall_ratio);
    std::string seconds = "— | —";  // the scenario does not model its runs' seconds
    if (!r.seconds.empty()) {
      char text[96];
      std::snprintf(text, sizeof text, "%.0f / %.0f | %.2f", median(r.seconds), median(r.ff_seconds), median(r.seconds_ratio));
      seconds = text;
    }
    std::printf("| %s | %d | %s | %d/%d | %.0f / %.0f / %.2f | %.0f / %.0f / %.2f | %.2f | %.2f | %s |\n", r.name.c_str(), r.k,
                r.method.c_str(), r.exact, r.seeds, median(r.runs), median(r.builds), median(r.wall) / 3600.0,
                median(r.ff_runs), median(r.ff_builds), median(r.ff_wall) / 3600.0, rr, wr, seconds.c_str());
    if (rate < min_exact) {
      std::fprintf(stderr, "error: %s: exact culprit sets in %d of %d seeds (from %llu), below %.2f\n", r.name.c_str(), r.exact,
                   r.seeds, static_cast<unsigned long long>(first), min_exact);
      ok = false;
    }
    if (max_ratio > 0 && r.k >= 8 && (rr > max_ratio || wr > max_ratio)) {
      std::fprintf(stderr, "error: %s: %.2fx the full factorial's runs, %.2fx its wall — above %.2f\n", r.name.c_str(), rr, wr,
                   max_ratio);
      ok = false;
    }
    if (max_ratio_small > 0 && r.k < 8 && (rr > max_ratio_small || wr > max_ratio_small)) {
      std::fprintf(stderr, "error: %s: %.2fx the full factorial's runs, %.2fx its wall — above %.2f for %d toggles\n",
                   r.name.c_str(), rr, wr, max_ratio_small, r.k);
      ok = false;
    }
  }
  return ok ? 0 : 1;
}
