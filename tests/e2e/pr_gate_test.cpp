// `abtest pr` as a CI job runs it (docs/ci.md): a clone with full history of a generated repository
// holding the planted fixture — main, a branch that changes only a file no benchmark reads, a branch
// that plants 3× the work, one that does not build, one that flips an option's default (design §5) — `abtest pr --base origin/main --comment pr.md` with $GITHUB_STEP_SUMMARY
// set, real builds and real runs.
#include <gtest/gtest.h>

#include <map>

#include "tests/e2e/bisect_test_support.hpp"

namespace abtest::e2e {
namespace {

// The origin (main, docs, slow) is generated once with fixed identities and dates, so its commits
// have the same shas on every run and the clone's build folders under .abtest stay valid.
class pr_gate : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    use_parent_launcher();
    fixed_git_identity();
    ::unsetenv("GITHUB_HEAD_REF");
    const fs::path work = fs::path(ABTEST_E2E_WORK_DIR);
    origin_ = work / "pr_origin";
    clone_ = work / "pr_clone";
    if (!fs::exists(origin_ / ".git") || run_program("git", {"-C", origin_.string(), "rev-parse", "--verify", "-q", "flip"}).code != 0) {
      fs::remove_all(origin_);
      fs::remove_all(clone_);
      planted_copy(origin_);
      git(origin_, {"init", "-q", "-b", "main"});
      std::ofstream(origin_ / ".gitignore") << ".abtest/\n";
      git(origin_, {"add", "-A"});
      git(origin_, {"commit", "-q", "-m", "the planted fixture"});
      git(origin_, {"checkout", "-q", "-b", "docs"});
      std::ofstream(origin_ / "NOTES.md") << "a note no benchmark reads\n";
      git(origin_, {"add", "-A"});
      git(origin_, {"commit", "-q", "-m", "notes only"});
      git(origin_, {"checkout", "-q", "-b", "slow", "main"});
      set_work_percent(origin_, 300);
      git(origin_, {"commit", "-q", "-am", "three times the work"});
      git(origin_, {"checkout", "-q", "-b", "broken", "main"});
      std::ofstream(origin_ / "src" / "work.cpp", std::ios::app) << "\n#error \"does not build\"\n";
      git(origin_, {"commit", "-q", "-am", "does not build"});
      git(origin_, {"checkout", "-q", "-b", "flip", "main"});  // an optimization's option switched on for everyone
      set_option_default(origin_, "PLANTED_SLOW", "ON");
      git(origin_, {"commit", "-q", "-am", "PLANTED_SLOW on by default"});
      git(origin_, {"checkout", "-q", "main"});
    }
    if (!fs::exists(clone_ / ".git")) {  // actions/checkout with fetch-depth: 0
      const auto r = run_program("git", {"clone", "-q", origin_.string(), clone_.string()});
      ASSERT_EQ(r.code, 0) << r.err;
    }
  }

  // `abtest --json --db DB pr --base origin/main --comment pr.md ARGS…` in the clone at `branch`,
  // the step summary in `summary`.
  static cli_result gate(const std::string& branch, const scratch& dir, std::vector<std::string> args = {}) {
    git(clone_, {"fetch", "-q", "origin"});
    git(clone_, {"checkout", "-q", "-f", "-B", branch, "origin/" + branch});
    ::setenv("GITHUB_STEP_SUMMARY", (dir.path() / "summary.md").c_str(), 1);
    std::vector<std::string> all{"--json", "--db", (dir.path() / "r.db").string(), "pr", "--base", "origin/main",
                                 "--comment", (dir.path() / "pr.md").string(), "--bench", "planted", "-j", "2", "--seed", "5"};
    all.insert(all.end(), args.begin(), args.end());
    auto r = run_abtest(all, clone_);
    ::unsetenv("GITHUB_STEP_SUMMARY");
    return r;
  }

  static inline fs::path origin_, clone_;
};

TEST_F(pr_gate, a_change_no_benchmark_reads_times_nothing_and_passes) {
  scratch dir("pr-docs");
  const auto r = gate("docs", dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = json_of(r);
  ASSERT_EQ(j["benchmarks"].size(), 1u);
  EXPECT_EQ(j["benchmarks"][0]["timed"], false);
  EXPECT_EQ(j["benchmarks"][0]["reason"], "identical programs");
  EXPECT_TRUE(j["first"].is_null()) << "nothing was measured";
  EXPECT_EQ(j["head_ref"], "docs");
  const std::string comment = slurp(dir.path() / "pr.md");
  EXPECT_NE(comment.find("**abtest pr: pass** — no benchmark can change"), std::string::npos) << comment;
  EXPECT_NE(comment.find("Not timed: identical programs — `planted`."), std::string::npos) << comment;
  EXPECT_NE(slurp(dir.path() / "summary.md").find(comment), std::string::npos) << "the step summary holds the comment";
}

TEST_F(pr_gate, a_planted_regression_is_confirmed_commented_alerted_and_fails) {
  scratch dir("pr-slow");
  const auto r = gate("slow", dir);
  ASSERT_EQ(r.code, 1) << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(j["benchmarks"][0]["timed"], true);
  EXPECT_EQ(j["benchmarks"][0]["reason"], "programs differ: planted-bench");
  const nlohmann::json* work = nullptr;
  for (const auto& c : j["changed"])
    if (c["metric"] == "planted.work_count") work = &c;
  ASSERT_NE(work, nullptr) << j.dump(2);
  EXPECT_EQ((*work)["verdict"], "slower");
  EXPECT_NEAR((*work)["ratio"].get<double>(), 3.0, 1e-9) << "work_count is exact";
  EXPECT_EQ((*work)["confirmation"], "confirmed");
  EXPECT_NE(j["confirmation"]["seed"], j["first"]["seed"]) << "the confirmation is a second experiment";
  ASSERT_EQ(j["alerts"]["recorded"].size(), 1u);
  EXPECT_EQ(j["alerts"]["recorded"][0]["source"], "pr");
  EXPECT_EQ(j["alerts"]["recorded"][0]["subject"], "slow");

  const std::string comment = slurp(dir.path() / "pr.md");
  EXPECT_NE(comment.find("**abtest pr: fail**"), std::string::npos) << comment;
  EXPECT_NE(comment.find("| `planted.work_count` | 80000 | 240000 | 3.0000 [3.0000, 3.0000] | HIGHER (worse) | confirmed:"),
            std::string::npos)
      << comment;
  EXPECT_NE(comment.find("<details><summary>How it measured</summary>"), std::string::npos);

  // The alert is in the store as `abtest alerts` lists it, its change the merge base..head.
  const auto listed = run_abtest({"--json", "--db", (dir.path() / "r.db").string(), "alerts"});
  ASSERT_EQ(listed.code, 0) << listed.err;
  const auto alerts = json_of(listed);
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0]["change"], j["base"].get<std::string>() + ".." + j["head"].get<std::string>());

  // Pushed again with --fail-on never: the same alert is seen a second time, and the job passes.
  const auto again = gate("slow", dir, {"--fail-on", "never"});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(json_of(again)["alerts"]["recorded"][0]["id"], j["alerts"]["recorded"][0]["id"]);
}

// A pull request that switches an option on for everyone (option(PLANTED_SLOW … OFF) → ON, +30%
// work): both sides are built with their own defaults, so the head runs the new default — timed,
// confirmed, exit 1, one alert, the toggle named beside the verdict, and the head built again with
// the old default shows that the flip alone accounts for it (design §5).
TEST_F(pr_gate, a_flipped_option_default_is_timed_named_and_attributed) {
  scratch dir("pr-flip");
  const auto r = gate("flip", dir);
  ASSERT_EQ(r.code, 1) << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(j["variant"], "defaults");
  EXPECT_EQ(j["benchmarks"][0]["timed"], true) << j.dump(2);
  const nlohmann::json* work = nullptr;
  for (const auto& c : j["changed"])
    if (c["metric"] == "planted.work_count") work = &c;
  ASSERT_NE(work, nullptr) << j.dump(2);
  EXPECT_NEAR((*work)["ratio"].get<double>(), 1.3, 1e-9) << "PLANTED_SLOW's +30% work, exact";
  EXPECT_EQ((*work)["confirmation"], "confirmed");
  ASSERT_EQ(j["defaults_changed"].size(), 1u) << j.dump(2);
  EXPECT_EQ(j["defaults_changed"][0]["toggle"], "SLOW");
  EXPECT_EQ(j["defaults_changed"][0]["from"], "OFF");
  EXPECT_EQ(j["defaults_changed"][0]["to"], "ON");
  ASSERT_EQ(j["alerts"]["recorded"].size(), 1u);
  EXPECT_EQ(j["alerts"]["recorded"][0]["subject"], "flip");

  // The attribution: the head built with SLOW=OFF, beside the base and the head.
  ASSERT_TRUE(j["attribution"].is_object()) << j.dump(2);
  ASSERT_EQ(j["attribution"]["reverted"].size(), 1u);
  const auto& reverted = j["attribution"]["reverted"][0];
  EXPECT_EQ(reverted["toggle"], "SLOW");
  EXPECT_EQ(reverted["level"], "OFF");
  bool accounted = false;
  for (const auto& m : reverted["metrics"])
    if (m["metric"] == "planted.work_count") {
      EXPECT_NEAR(m["ratio"].get<double>(), 1.0, 1e-9) << "the head with the old default does the base's work";
      accounted = m["share"] == "accounts";
    }
  EXPECT_TRUE(accounted) << reverted.dump(2);

  const std::string comment = slurp(dir.path() / "pr.md");
  const std::string summary = comment.substr(0, comment.find('\n'));
  EXPECT_NE(summary.find("**abtest pr: fail**"), std::string::npos) << summary;
  EXPECT_NE(summary.find("SLOW: OFF → ON in this change"), std::string::npos) << summary;
  EXPECT_NE(comment.find("- `planted.work_count`: HIGHER (worse) 1.30×; reverting SLOW's default alone gives 1.0000×"), std::string::npos)
      << comment;
  EXPECT_NE(comment.find("the flip accounts for it"), std::string::npos) << comment;

  // What each side's build resolved is in the build rows: the base's SLOW OFF, the head's ON, both
  // the project's own default; the attribution's SLOW=OFF given by abtest.
  const auto rows = run_abtest({"--db", (dir.path() / "r.db").string(), "query", "--format", "json",
                                "SELECT variant, commit_sha, json_extract(details, '$.resolved.SLOW') AS slow FROM build"});
  ASSERT_EQ(rows.code, 0) << rows.err;
  std::map<std::string, std::string> seen;  // "<variant>@<sha>" → resolved SLOW
  for (const auto& row : nlohmann::json::parse(rows.out)) {
    const auto slow = nlohmann::json::parse(row["slow"].get<std::string>());
    seen[row["variant"].get<std::string>() + "@" + row["commit_sha"].get<std::string>()] =
        slow["level"].get<std::string>() + " " + slow["set_by"].get<std::string>();
  }
  EXPECT_EQ(seen["defaults@" + j["base"].get<std::string>()], "OFF project");
  EXPECT_EQ(seen["defaults@" + j["head"].get<std::string>()], "ON project");
  EXPECT_EQ(seen["defaults+SLOW=OFF@" + j["head"].get<std::string>()], "OFF abtest");
}

// The same flip given on both sides with --toggle SLOW=OFF is no longer a difference: the named
// toggle applies to both sides alike, so the programs are identical and nothing is timed.
TEST_F(pr_gate, a_named_toggle_applies_to_both_sides_alike) {
  scratch dir("pr-flip-named");
  const auto r = gate("flip", dir, {"--toggle", "SLOW=OFF"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(j["variant"], "defaults+SLOW=OFF");
  EXPECT_EQ(j["benchmarks"][0]["timed"], false) << j.dump(2);
  EXPECT_TRUE(j["defaults_changed"].empty()) << "a toggle given a level is no default";
}

// A budget far below what 30 rounds take (each round runs both sides' benchmark: ≥ 0.1 s of work)
// ends the first experiment early; what it measured is reported, and the comment says why.
TEST_F(pr_gate, the_wall_budget_ends_the_measurement_and_says_so) {
  scratch dir("pr-budget");
  const auto r = gate("slow", dir, {"--budget-s", "0.5", "--fail-on", "never"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(j["first"]["budget_ended"], true) << j.dump(2);
  EXPECT_LT(j["first"]["rounds"].get<int>(), 30);
  EXPECT_NE(slurp(dir.path() / "pr.md").find("**stopped by the wall budget**"), std::string::npos);
}

// --layouts: each side relinked K times with seeded section orders, and the confirmation links
// afresh — new seeds, so a layout that happened to favour one side cannot confirm itself.
TEST_F(pr_gate, the_confirmation_runs_on_fresh_layouts) {
  scratch dir("pr-layouts");
  const auto r = gate("slow", dir, {"--rounds", "4", "--layouts", "2"});
  if (r.code == 2 && r.err.find("ld.lld") != std::string::npos) GTEST_SKIP() << "lld is not installed: " << r.err;
  ASSERT_EQ(r.code, 1) << r.err;
  const auto j = json_of(r);
  bool work_confirmed = false;
  for (const auto& c : j["changed"]) work_confirmed |= c["metric"] == "planted.work_count" && c["confirmation"] == "confirmed";
  EXPECT_TRUE(work_confirmed) << j.dump(2);
  const auto seeds = run_abtest({"--db", (dir.path() / "r.db").string(), "query", "--format", "csv",
                                 "SELECT COUNT(DISTINCT json_extract(details, '$.layout.seed')) FROM build"});
  ASSERT_EQ(seeds.code, 0) << seeds.err;
  EXPECT_NE(seeds.out.find("\n8"), std::string::npos) << "2 sides × 2 layouts × 2 experiments: " << seeds.out;
}

// --counts: the comment's details explain the regression in Valgrind's exact counts.
TEST_F(pr_gate, counts_put_the_mechanism_in_the_comment) {
  if (std::system("valgrind --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "valgrind is not installed (apt-get install valgrind)";
  scratch dir("pr-counts");
  const auto r = gate("slow", dir, {"--counts", "--fail-on", "never"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string comment = slurp(dir.path() / "pr.md");
  const auto details = comment.find("<details>");
  const auto mechanisms = comment.find("#### Mechanisms (Valgrind counts");
  ASSERT_NE(mechanisms, std::string::npos) << comment;
  EXPECT_GT(mechanisms, details) << "the blocks are in the collapsible details";
  EXPECT_NE(comment.find("| Ir |", mechanisms), std::string::npos) << comment;
  EXPECT_NE(comment.find("planted::run_rep", mechanisms), std::string::npos) << "the function that does the work";
}

TEST_F(pr_gate, a_head_that_does_not_build_is_exit_3_with_its_log) {
  scratch dir("pr-broken");
  const auto r = gate("broken", dir);
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("error: the head ("), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("does not build"), std::string::npos) << r.err;
}

// Built with the fixture's CRASH toggle the benchmark dies by SIGSEGV on both sides: exit 4, as
// `run` does, whatever --fail-on says, with the error in the comment.
TEST_F(pr_gate, a_benchmark_that_crashes_is_exit_4) {
  scratch dir("pr-crash");
  const auto r = gate("slow", dir, {"--toggle", "CRASH", "--rounds", "2", "--fail-on", "never"});
  EXPECT_EQ(r.code, 4) << r.err;
  EXPECT_EQ(json_of(r)["first"]["failed"], true);
  const std::string comment = slurp(dir.path() / "pr.md");
  EXPECT_NE(comment.find("**abtest pr: error** — a benchmark failed"), std::string::npos) << comment;
  EXPECT_NE(comment.find("- a benchmark failed: "), std::string::npos) << comment;
}

TEST_F(pr_gate, a_ref_that_does_not_resolve_is_a_usage_error_naming_it) {
  scratch dir("pr-usage");
  const auto r = gate("docs", dir, {"--head", "no-such-branch"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no-such-branch"), std::string::npos) << r.err;
  EXPECT_EQ(gate("docs", dir, {"--fail-on", "slower"}).code, 2);
}

}  // namespace
}  // namespace abtest::e2e
