// A metric's direction end to end (design §4): the gbench-rate fixture, a real Google
// Benchmark whose items_per_second and bytes_per_second are better higher, built and run by abtest.
// A toggle that doubles the throughput is FASTER / HIGHER (better) and passes --fail-on-regression;
// one that halves it fails; a `lines` metric in MB/s is declared `better: higher` in the manifest;
// `abtest pr` on a commit that raises the throughput passes and opens no alert, one that lowers it
// fails and opens one.
#include <gtest/gtest.h>

#include "tests/e2e/bisect_test_support.hpp"

namespace abtest::e2e {
namespace {

const fs::path fixture = fs::path(ABTEST_SOURCE_DIR) / "tests" / "fixtures" / "gbench-rate";

// The fixture copied into `dest` (unchanged files keep their mtimes: builds stay warm).
fs::path rate_copy(const fs::path& dest) {
  for (const char* file : {"CMakeLists.txt", "abtest.json", "src/rate_bench.cpp"})
    write_if_changed(dest / file, slurp(fixture / file));
  return dest / "abtest.json";
}

const nlohmann::json* verdict_of(const nlohmann::json& j, const std::string& metric) {
  for (const auto& v : j["verdicts"])
    if (v["metric"] == metric) return &v;
  return nullptr;
}

constexpr const char* items = "rate.BM_checksum_items_per_second";
constexpr const char* bytes = "rate.BM_checksum_bytes_per_second";
constexpr const char* lines = "rate_lines.level3_mb";

class rate_direction : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    use_parent_launcher();
    manifest_ = rate_copy(fs::path(ABTEST_E2E_WORK_DIR) / "rate_work");
  }
  static cli_result run(const scratch& dir, std::vector<std::string> args) {
    std::vector<std::string> all{"--manifest", manifest_.string(), "--db", (dir.path() / "r.db").string()};
    all.insert(all.end(), args.begin(), args.end());
    return run_abtest(all);
  }
  static inline fs::path manifest_;
};

TEST_F(rate_direction, a_faster_variant_reads_higher_better_and_passes_fail_on_regression) {
  scratch dir("rate-fast");
  const auto r = run(dir, {"--json", "run", "--toggle", "FAST", "--rounds", "6", "--seed", "3", "-j", "2", "--fail-on-regression"});
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const auto j = json_of(r);
  for (const char* metric : {items, bytes}) {
    const auto* v = verdict_of(j, metric);
    ASSERT_NE(v, nullptr) << metric << "\n" << j.dump(2);
    EXPECT_EQ((*v)["verdict"], "faster") << j.dump(2);
    EXPECT_GT((*v)["ratio"].get<double>(), 1.5) << "half the work per item: about twice the items per second";
    EXPECT_EQ((*v)["better"], "higher");
    EXPECT_EQ((*v)["better_from"], "inferred");
    EXPECT_EQ((*v)["margin_from"], "default");
  }
  const auto* mb = verdict_of(j, lines);
  ASSERT_NE(mb, nullptr) << j.dump(2);
  EXPECT_EQ((*mb)["verdict"], "faster");
  EXPECT_GT((*mb)["ratio"].get<double>(), 1.5);
  EXPECT_EQ((*mb)["better"], "higher");
  EXPECT_EQ((*mb)["better_from"], "manifest");
  EXPECT_DOUBLE_EQ((*mb)["margin"].get<double>(), 0.05);
  EXPECT_EQ((*mb)["margin_from"], "manifest");

  // `show` reads the stored verdicts the same way.
  const auto shown = run(dir, {"show", j["experiment"].get<std::string>()});
  ASSERT_EQ(shown.code, 0) << shown.err;
  EXPECT_NE(shown.out.find("HIGHER (better) · better higher (inferred)"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("better higher (manifest) · margin 5% (manifest)"), std::string::npos) << shown.out;
  EXPECT_EQ(shown.out.find("(worse)"), std::string::npos) << shown.out;
}

TEST_F(rate_direction, a_slower_variant_reads_lower_worse_and_fails) {
  scratch dir("rate-slow");
  const auto r = run(dir, {"run", "--toggle", "SLOW", "--rounds", "6", "--seed", "3", "-j", "2", "--fail-on-regression"});
  ASSERT_EQ(r.code, 1) << r.err << r.out;
  EXPECT_NE(r.out.find("LOWER (worse) · better higher (inferred)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("LOWER (worse) · better higher (manifest)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("HIGHER (better)"), std::string::npos) << r.out;
}

// `abtest pr` (reusing pr_gate_test's set-up): an origin whose branches raise and lower the
// throughput of main, and a clone that gates them.
class rate_pr : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    use_parent_launcher();
    fixed_git_identity();
    ::unsetenv("GITHUB_HEAD_REF");
    ::unsetenv("GITHUB_STEP_SUMMARY");
    const fs::path work = fs::path(ABTEST_E2E_WORK_DIR);
    origin_ = work / "rate_origin";
    clone_ = work / "rate_clone";
    if (!fs::exists(origin_ / ".git") || run_program("git", {"-C", origin_.string(), "rev-parse", "--verify", "-q", "slower"}).code != 0) {
      fs::remove_all(origin_);
      fs::remove_all(clone_);
      rate_copy(origin_);
      git(origin_, {"init", "-q", "-b", "main"});
      std::ofstream(origin_ / ".gitignore") << ".abtest/\n";
      git(origin_, {"add", "-A"});
      git(origin_, {"commit", "-q", "-m", "the gbench-rate fixture"});
      for (const auto& [branch, rounds] : {std::pair{"faster", "32"}, std::pair{"slower", "128"}}) {
        git(origin_, {"checkout", "-q", "-b", branch, "main"});
        std::string source = slurp(origin_ / "src" / "rate_bench.cpp");
        const std::string from = "#else\nconstexpr int rounds = 64;";
        const auto at = source.find(from);
        ASSERT_NE(at, std::string::npos) << "the fixture's rate_bench.cpp changed: update this test";
        source.replace(at, from.size(), std::string("#else\nconstexpr int rounds = ") + rounds + ";");
        std::ofstream(origin_ / "src" / "rate_bench.cpp", std::ios::trunc) << source;
        git(origin_, {"commit", "-q", "-am", std::string("rounds per item: ") + rounds});
      }
      git(origin_, {"checkout", "-q", "main"});
    }
    if (!fs::exists(clone_ / ".git")) {
      const auto r = run_program("git", {"clone", "-q", origin_.string(), clone_.string()});
      ASSERT_EQ(r.code, 0) << r.err;
    }
  }

  static cli_result gate(const std::string& branch, const scratch& dir) {
    git(clone_, {"fetch", "-q", "origin"});
    git(clone_, {"checkout", "-q", "-f", "-B", branch, "origin/" + branch});
    return run_abtest({"--json", "--db", (dir.path() / "r.db").string(), "pr", "--base", "origin/main", "--comment",
                       (dir.path() / "pr.md").string(), "--bench", "rate", "-j", "2", "--seed", "5", "--rounds", "6"},
                      clone_);
  }

  static const nlohmann::json* changed(const nlohmann::json& j, const std::string& metric) {
    for (const auto& c : j["changed"])
      if (c["metric"] == metric) return &c;
    return nullptr;
  }

  static inline fs::path origin_, clone_;
};

TEST_F(rate_pr, a_rising_throughput_passes_and_opens_no_alert) {
  scratch dir("rate-pr-up");
  const auto r = gate("faster", dir);
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const auto j = json_of(r);
  const auto* c = changed(j, items);
  ASSERT_NE(c, nullptr) << j.dump(2);
  EXPECT_EQ((*c)["verdict"], "faster");
  EXPECT_EQ((*c)["better"], "higher");
  EXPECT_EQ(j["regressions"], 0) << j.dump(2);
  EXPECT_TRUE(j["alerts"]["recorded"].empty()) << j.dump(2);
  const std::string comment = slurp(dir.path() / "pr.md");
  EXPECT_NE(comment.find("**abtest pr: pass**"), std::string::npos) << comment;
  EXPECT_NE(comment.find("HIGHER (better) · better higher (inferred)"), std::string::npos) << comment;
}

TEST_F(rate_pr, a_falling_throughput_fails_and_opens_an_alert) {
  scratch dir("rate-pr-down");
  const auto r = gate("slower", dir);
  ASSERT_EQ(r.code, 1) << r.err << r.out;
  const auto j = json_of(r);
  const auto* c = changed(j, items);
  ASSERT_NE(c, nullptr) << j.dump(2);
  EXPECT_EQ((*c)["verdict"], "slower");
  EXPECT_LT((*c)["ratio"].get<double>(), 0.7);
  ASSERT_EQ(j["alerts"]["recorded"].size(), 1u) << j.dump(2);
  const auto& metrics = j["alerts"]["recorded"][0]["metrics"];
  EXPECT_NE(std::find(metrics.begin(), metrics.end(), items), metrics.end()) << metrics.dump();
  EXPECT_NE(slurp(dir.path() / "pr.md").find("LOWER (worse)"), std::string::npos);
}

}  // namespace
}  // namespace abtest::e2e
