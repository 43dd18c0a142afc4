// --counts below the CLI: the Valgrind command of an arm (params, args, region from the manifest),
// and the exact verdict rows of stored counts — outside Holm, the regressions and the exit code.
#include "harness/experiment/counts.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "harness/report/comparison_output.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/report/mechanisms.hpp"

namespace abtest {
namespace {
using report::to_record;
using report::verdict_label;

db::counts_record stored(int arm, std::map<std::string, counts::count> totals, std::string region = "run*") {
  db::counts_record r;
  r.experiment_id = "r-1";
  r.arm_idx = arm;
  r.benchmark = "synth";
  counts::count_set c;
  c.totals = std::move(totals);
  c.functions["f"] = {"f", "f.cpp", {{"Ir", c.totals["Ir"]}}};
  c.cache_config = "I1 cache: 32768 B";
  c.valgrind_version = "valgrind-3.19.0";
  c.region = std::move(region);
  r.counts = counts::to_json(c);
  return r;
}

run_plan two_arms() {
  run_plan plan;
  plan.arms = {{"base", {}, "baseline", "/b/base", "d0", 1, {}, {}}, {"A1=4", {{"A1", "4"}}, "candidate", "/b/a1", "d1", 2, {}, {}}};
  plan.benchmarks = {"synth"};
  plan.params = {{"preset", "small"}};
  return plan;
}

// One timing row, FASTER with a p-value, as analyze() leaves it.
analysis_result timed() {
  analysis_result a;
  a.arms.resize(2);
  verdict_row t;
  t.arm = 1;
  t.variant = "A1=4";
  t.baseline = "base";
  t.benchmark = "synth";
  t.metric = "synth.synthesis_s";
  t.n = 10;
  t.primary.estimate = std::log(0.9);
  t.primary.p_value = 0.001;
  t.primary.has_ci = true;
  t.p_adjusted = 0.002;
  t.verdict = stats::verdict::faster;
  a.rows.push_back(t);
  return a;
}

const verdict_row* row(const analysis_result& a, const std::string& metric) {
  for (const auto& r : a.rows)
    if (r.metric == metric) return &r;
  return nullptr;
}

TEST(counts_verdicts, are_exact_rows_outside_holm_and_the_exit_code) {
  analysis_result a = timed();
  add_count_verdicts(a, two_arms(),
                     {stored(0, {{"Ir", 1000}, {"D1mr", 7}, {"Bcm", 0}, {"alloc_bytes", 64}}),
                      stored(1, {{"Ir", 1300}, {"D1mr", 7}, {"Bcm", 5}, {"alloc_blocks", 2}})});
  ASSERT_EQ(a.rows.size(), 4u);  // the timing, then Ir, D1mr, Bcm: alloc_* are not in both arms
  EXPECT_EQ(a.rows[0].p_adjusted, 0.002) << "the timing's Holm family is untouched";
  const verdict_row* ir = row(a, "synth.counts.Ir");
  ASSERT_NE(ir, nullptr);
  EXPECT_EQ(ir->verdict, stats::verdict::slower);
  EXPECT_EQ(verdict_label(*ir), "HIGHER (worse)");
  const db::verdict_record rec = to_record(*ir, "r-1");
  EXPECT_EQ(rec.n, 1);
  EXPECT_DOUBLE_EQ(*rec.ratio, 1.3);
  EXPECT_EQ(rec.baseline_median, 1000);
  EXPECT_FALSE(rec.ci_low || rec.ci_high || rec.p_value || rec.p_adjusted);
  EXPECT_EQ(row(a, "synth.counts.D1mr")->verdict, stats::verdict::same);
  EXPECT_FALSE(to_record(*row(a, "synth.counts.Bcm"), "r-1").ratio) << "0 → 5 has no ratio";
  EXPECT_FALSE(a.any_slower()) << "a count reads HIGHER; it is not a timing regression";
  EXPECT_EQ(exit_code_for(a, true), 0);
}

// What moves between runs of one binary, or with where the code lies, is not a verdict: the libdeflate
// trial read D1mr 2,449,778 → 2,449,720 (−24 ppm) as LOWER. Now SAME with the delta in the note;
// the same change on a small count that is 1% and 10 events moves.
TEST(counts_verdicts, drift_of_simulated_counts_reads_same_with_its_delta) {
  analysis_result a;
  a.arms.resize(2);
  add_count_verdicts(a, two_arms(),
                     {stored(0, {{"Ir", 82702453}, {"D1mr", 2449778}, {"LLmr", 500}, {"Bcm", 8039}}),
                      stored(1, {{"Ir", 82702453}, {"D1mr", 2449720}, {"LLmr", 520}, {"Bcm", 8035}})});
  ASSERT_EQ(a.rows.size(), 4u);
  EXPECT_EQ(row(a, "synth.counts.Ir")->verdict, stats::verdict::same);
  EXPECT_EQ(row(a, "synth.counts.D1mr")->verdict, stats::verdict::same);
  EXPECT_NE(row(a, "synth.counts.D1mr")->note.find("-58"), std::string::npos) << row(a, "synth.counts.D1mr")->note;
  EXPECT_EQ(row(a, "synth.counts.Bcm")->verdict, stats::verdict::same);
  EXPECT_EQ(row(a, "synth.counts.LLmr")->verdict, stats::verdict::slower) << "+20 of 520: 3.8% and ≥ 10 events";
}

// The libdeflate matrix trial: SHARED (calls through the PLT) moved Ir 82,702,256 → 82,728,995,
// +0.032%, HIGHER — beside a ratio that reads 1.000×. The note says by how much.
TEST(counts_verdicts, a_moved_count_whose_ratio_reads_one_says_by_how_much) {
  analysis_result a;
  a.arms.resize(2);
  add_count_verdicts(a, two_arms(), {stored(0, {{"Ir", 82702256}, {"D1mr", 1000}}), stored(1, {{"Ir", 82728995}, {"D1mr", 2000}})});
  EXPECT_EQ(row(a, "synth.counts.Ir")->verdict, stats::verdict::slower);
  EXPECT_EQ(row(a, "synth.counts.Ir")->note, "+26739 (+0.032%)");
  EXPECT_EQ(row(a, "synth.counts.D1mr")->verdict, stats::verdict::slower);
  EXPECT_EQ(row(a, "synth.counts.D1mr")->note, "") << "2.000×: the ratio says it";
}

TEST(counts_verdicts, counts_of_different_regions_are_inconclusive_with_the_reason) {
  analysis_result a;
  a.arms.resize(2);
  add_count_verdicts(a, two_arms(), {stored(0, {{"Ir", 1000}}), stored(1, {{"Ir", 900}}, "other*")});
  ASSERT_EQ(a.rows.size(), 1u);
  EXPECT_EQ(a.rows[0].verdict, stats::verdict::inconclusive);
  EXPECT_NE(a.rows[0].note.find("regions differ"), std::string::npos) << a.rows[0].note;
}

TEST(counts_verdicts, a_mechanism_block_explains_each_moved_timing_of_an_arm_with_counts) {
  analysis_result a = timed();
  const std::vector<db::counts_record> counts = {stored(0, {{"Ir", 1000}}), stored(1, {{"Ir", 900}})};
  add_count_verdicts(a, two_arms(), counts);
  std::vector<db::verdict_record> records;
  for (const auto& r : a.rows) records.push_back(to_record(r, "r-1"));
  const auto blocks = report::find_mechanisms({"base", "A1=4"}, records, counts);
  ASSERT_EQ(blocks.size(), 1u);
  ASSERT_EQ(blocks[0].explains.size(), 1u) << "the count rows explain nothing";
  EXPECT_EQ(blocks[0].explains[0].metric, "synth.synthesis_s");
  EXPECT_EQ(blocks[0].block.candidate_label, "A1=4");
  ASSERT_EQ(blocks[0].block.functions.size(), 1u);
  EXPECT_EQ(blocks[0].block.functions[0].delta, -100);
  records[0].verdict = db::verdict_kind::same;  // no moved timing: no block
  EXPECT_TRUE(report::find_mechanisms({"base", "A1=4"}, records, counts).empty());
}

TEST(counts_options, take_the_entrys_params_args_region_and_the_arms_program) {
  const manifest m = parse_manifest(R"({"project": "p", "build": {"targets": ["synth-bench"]}, "params": {"preset": "small"},
    "toggles": [], "benchmarks": [{"name": "synth", "format": "gbench", "timeout_s": 10,
      "command": ["{bin}/synth-bench", "--preset={preset}", "--iterations=3"],
      "counts": {"params": {"preset": "tiny"}, "region": "run*", "args": ["--iterations=1", "--tag={preset}"]}}]})",
                                    "/p/abtest.json");
  run_plan plan = two_arms();
  plan.arms[1].programs["synth-bench"] = "/b/a1/bench/synth-bench";
  plan.arms[1].env = {{"X", "1"}};
  const counts::counts_options o = counts_options_for(m, plan, plan.arms[1], m.benchmarks[0]);
  EXPECT_EQ(o.argv, (std::vector<std::string>{"/b/a1/bench/synth-bench", "--preset=tiny", "--iterations=3", "--iterations=1",
                                              "--tag=tiny"}));
  EXPECT_EQ(o.region, "run*");
  EXPECT_EQ(o.timeout_s, 500);
  EXPECT_EQ(o.env, plan.arms[1].env);
  EXPECT_EQ(o.working_dir, "/p");
}

}  // namespace
}  // namespace abtest
