// --counts: Valgrind runs of every arm into the store, and their exact verdicts.
#include "harness/experiment/counts.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "harness/core/errors.hpp"
#include "harness/counts/count_set.hpp"
#include "harness/counts/mechanism.hpp"
#include "harness/counts/mechanism_format.hpp"

namespace abtest {

void require_valgrind() {
  std::string error;
  if (!counts::valgrind_version("valgrind", error)) throw usage_error(fmt::format("--counts: {}", error));
}

std::vector<const benchmark_spec*> counted_benchmarks(const manifest& m, const run_plan& plan) {
  std::vector<const benchmark_spec*> out;
  for (const auto& name : plan.benchmarks)
    if (const benchmark_spec* b = m.find_benchmark(name); b && b->counts.enabled) out.push_back(b);
  return out;
}

namespace {

// The run's params with the benchmark's counts params over them.
std::map<std::string, std::string> counts_params(const run_plan& plan, const benchmark_spec& bench) {
  std::map<std::string, std::string> params = plan.params;
  for (const auto& [k, v] : bench.counts.params) params[k] = v;
  return params;
}

}  // namespace

counts::counts_options counts_options_for(const manifest& m, const run_plan& plan, const arm_plan& arm,
                                          const benchmark_spec& bench) {
  std::map<std::string, std::string> params = counts_params(plan, bench);
  counts::counts_options o;
  o.argv = expand_command(bench, arm.bin, params, arm.programs);
  params["bin"] = arm.bin.string();
  for (const auto& arg : bench.counts.args) o.argv.push_back(expand_placeholders(arg, params));
  o.working_dir = m.dir;
  o.env = arm.env;
  o.region = bench.counts.region;
  o.timeout_s = bench.counts.timeout_s;
  return o;
}

std::vector<std::string> measure_counts(db::results_store& store, const manifest& m, const run_plan& plan,
                                        const std::string& id, const experiment_context& ctx) {
  std::map<std::pair<int, std::string>, bool> stored;
  for (const auto& c : store.list_counts(id)) stored[{c.arm_idx, c.benchmark}] = c.counts.has_value();
  const auto benches = counted_benchmarks(m, plan);
  // One count per variant: with --layouts, its first layout stands for all (the instructions do
  // not depend on where the code is; simulated misses may, a little).
  std::vector<int> counted;
  for (const auto& group : variant_groups(plan)) counted.push_back(group.front());
  const std::size_t total = counted.size() * benches.size();
  std::size_t done = 0;
  std::vector<std::string> failures;
  for (const int arm : counted) {
    for (const benchmark_spec* bench : benches) {
      ++done;
      if (stored[{arm, bench->name}]) continue;
      const std::string& key = plan.arms[arm].key;
      ctx.report(progress::kind::counts, fmt::format("counting {} · {} under Valgrind ({}/{})", key, bench->name, done, total));
      const counts::counts_options o = counts_options_for(m, plan, plan.arms[arm], *bench);
      const counts::counts_result r = counts::run_counts(o);
      db::counts_record rec;
      rec.experiment_id = id;
      rec.arm_idx = arm;
      rec.benchmark = bench->name;
      rec.spec = {{"argv", o.argv}, {"params", counts_params(plan, *bench)}, {"region", o.region}, {"args", bench->counts.args},
                  {"rename", bench->counts.rename}};
      rec.wall_s = r.cachegrind_wall_s + r.dhat_wall_s;
      if (r.counts) {
        rec.counts = counts::to_json(*r.counts);
        const auto ir = r.counts->totals.find("Ir");
        ctx.report(progress::kind::counts, fmt::format("  counted {:.1f} s: Ir {}", *rec.wall_s,
                                                       ir == r.counts->totals.end() ? "?" : counts::format_count(ir->second)));
      } else {
        rec.error = r.error;
        failures.push_back(fmt::format("warning: the counts of {} for {} failed (the timing runs go on; `abtest run --resume {}` "
                                       "retries them): {}", bench->name, key, id, r.error));
        ctx.report(progress::kind::note, "  " + failures.back());
      }
      store.record_counts(rec);
    }
  }
  return failures;
}

void add_count_verdicts(analysis_result& analysis, const run_plan& plan, const std::vector<db::counts_record>& counts) {
  std::map<std::pair<int, std::string>, counts::count_set> ok;
  for (const auto& c : counts)
    if (c.counts) ok.emplace(std::pair{c.arm_idx, c.benchmark}, counts::count_set_from_json(*c.counts));
  const auto groups = variant_groups(plan);
  for (std::size_t g = 1; g < groups.size(); ++g) {
    const int arm = groups[g].front();
    for (const auto& bench : plan.benchmarks) {
      const auto base = ok.find({0, bench}), cand = ok.find({arm, bench});
      if (base == ok.end() || cand == ok.end()) continue;
      const counts::count_set &b = base->second, &c = cand->second;
      const counts::mechanism diff = counts::diff_counts(b, c, {.top_functions = 0, .top_sites = 0});
      const std::vector<std::string> moved = counts::moved_counts(b, c);
      for (const std::string_view name : counts::headline_counts) {
        const auto bv = b.totals.find(std::string(name)), cv = c.totals.find(std::string(name));
        if (bv == b.totals.end() || cv == c.totals.end()) continue;
        verdict_row row;
        row.arm = arm;
        row.variant = plan.arms[arm].key;
        row.baseline = plan.arms[0].key;
        row.benchmark = bench;
        row.metric = fmt::format("{}.counts.{}", bench, name);
        row.n = 1;
        row.baseline_median = static_cast<double>(bv->second);
        row.candidate_median = static_cast<double>(cv->second);
        // Exact: the ratio of the two counts, nothing estimated (NaN: printed as null).
        row.primary.n = 1;
        row.primary.estimate = bv->second == cv->second ? 0.0
                               : bv->second == 0        ? std::numeric_limits<double>::infinity()
                                                        : std::log(row.candidate_median / row.baseline_median);
        row.primary.p_value = std::numeric_limits<double>::quiet_NaN();
        row.p_adjusted = std::numeric_limits<double>::quiet_NaN();
        // Exact, but not every difference is the toggle's: simulated misses and mispredictions move
        // with where code and data lie, and a benchmark's own report adds a few instructions
        // (counts::moved_counts). A count that did not move beyond that reads SAME, with its delta.
        const bool did_move = std::find(moved.begin(), moved.end(), name) != moved.end();
        row.verdict = !did_move                 ? stats::verdict::same
                      : cv->second > bv->second ? stats::verdict::slower
                                                : stats::verdict::faster;
        const auto delta = static_cast<std::int64_t>(cv->second) - static_cast<std::int64_t>(bv->second);
        if (!did_move && delta != 0)
          row.note = fmt::format("{:+} — within what layout and run-to-run drift move this count (docs/manifest.md, counts)", delta);
        else if (did_move && std::fabs(row.primary.estimate) < 5e-4)  // its ratio reads 1.000×: say by how much it moved
          row.note = fmt::format("{:+} ({:+.3f}%)", delta, 100 * std::expm1(row.primary.estimate));
        if (!diff.comparable) {
          row.verdict = stats::verdict::inconclusive;
          row.note = diff.incomparable_reason + " — count both arms on one host and Valgrind";
        }
        analysis.rows.push_back(std::move(row));
      }
    }
  }
}

}  // namespace abtest
