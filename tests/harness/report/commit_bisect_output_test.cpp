// `abtest bisect --commits`, `--bundle DIR` and a run with nothing to measure, rendered: exact
// terminal text, the --json keys, and markdown refused.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "harness/report/bundle_output.hpp"
#include "harness/report/commit_bisect_output.hpp"
#include "harness/report/comparison_output.hpp"

namespace abtest::report {
namespace {

commit_bisect_result four_commits() {
  commit_bisect_result r;
  r.experiment = "b-1";
  r.range = {"aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "cccccccccccccccc", "dddddddddddddddd"};
  r.metric = "planted.total_s";
  r.built_as = "defaults";
  r.verdict = stats::verdict::slower;
  r.ratio = 1.3;
  r.tested = {{"bbbbbbbbbbbbbbbb", "same"}, {"cccccccccccccccc", "slower"}};
  r.runs = 3;
  r.wall_s = 12.34;
  r.range_flips = {{"SLOW", "OFF", "ON", std::string("OFF")}};
  return r;
}

TEST(commit_bisect_output, the_first_bad_commit_with_its_subject_and_flips) {
  auto r = four_commits();
  r.first_bad = 2;
  r.first_bad_subject = "three times the work";
  r.flips = r.range_flips;
  EXPECT_EQ(render(r, format::terminal),
            "dddddddddddd vs aaaaaaaaaaaa on planted.total_s: SLOWER (ratio 1.3000)\n"
            "first bad commit: cccccccccccccccc three times the work\n"
            "  SLOW: OFF → ON in this commit\n"
            "4 commits in the range, 2 tested, 3 runs, 12.3 s\n");
  const auto j = nlohmann::json::parse(render(r, format::json));
  EXPECT_EQ(j["first_bad"], "cccccccccccccccc");
  EXPECT_EQ(j["subject"], "three times the work");
  EXPECT_EQ(j["defaults_changed"], nlohmann::json::parse(R"([{"toggle": "SLOW", "from": "OFF", "to": "ON", "text": "SLOW: OFF → ON"}])"));
  EXPECT_EQ(j["tested"][1], nlohmann::json({{"commit", "cccccccccccccccc"}, {"verdict", "slower"}}));
  EXPECT_FALSE(j.contains("mechanisms"));  // only with --counts
}

TEST(commit_bisect_output, candidates_when_the_search_could_not_narrow_it_and_the_range_flips) {
  auto r = four_commits();
  r.candidates = {1, 2};
  EXPECT_EQ(render(r, format::terminal),
            "dddddddddddd vs aaaaaaaaaaaa on planted.total_s: SLOWER (ratio 1.3000)\n"
            "the first bad commit is one of: bbbbbbbbbbbbbbbb, cccccccccccccccc\n"
            "  SLOW: OFF → ON between GOOD and BAD\n"
            "4 commits in the range, 2 tested, 3 runs, 12.3 s\n");
  const auto j = nlohmann::json::parse(render(r, format::json));
  EXPECT_TRUE(j["first_bad"].is_null());
  EXPECT_EQ(j["candidates"], nlohmann::json({"bbbbbbbbbbbbbbbb", "cccccccccccccccc"}));
  EXPECT_THROW(render(r, format::markdown), std::invalid_argument);
}

TEST(bundle_output, the_summary_and_the_two_commands_of_the_other_host) {
  const bundle_written b{"/b", "r-1", {"base", "SLOW"}, {"planted"}, 3, 1, 4, 2, 1, 3 << 20, {"note: x"}};
  EXPECT_EQ(render(b, format::terminal),
            "note: x\n"
            "bundle /b: experiment r-1, 2 arms (base, SLOW) × 1 benchmark(s), 1 warm-up + 3 rounds, seed 4\n"
            "  2 program(s), 1 shared library beside them, 3.0 MiB in all\n"
            "  on the host that measures: /b/run --check, then /b/run --out OUT\n"
            "  back here: abtest import OUT (README.txt in the folder says more)\n");
  const auto j = nlohmann::json::parse(render(b, format::json));
  EXPECT_EQ(j["arms"], nlohmann::json({"base", "SLOW"}));
  EXPECT_EQ(j["bytes"], 3 << 20);
  EXPECT_EQ(j["notes"], nlohmann::json({"note: x"}));
}

TEST(nothing_measured_output, the_notes_and_a_null_experiment) {
  const nothing_measured n{"base", {"NULL: the same binary as base — nothing to measure"}};
  EXPECT_EQ(render(n, format::terminal), "NULL: the same binary as base — nothing to measure\n");
  const auto j = nlohmann::json::parse(render(n, format::json));
  EXPECT_TRUE(j["experiment"].is_null());
  EXPECT_EQ(j["baseline"], "base");
  EXPECT_EQ(j["verdicts"], nlohmann::json::array());
  EXPECT_EQ(j["notes"].size(), 1u);
}

}  // namespace
}  // namespace abtest::report
