// abtest bisect --commits and abtest check on generated git repositories: the planted fixture
// committed 16 times, one commit making the work 2× slower; and 5 times, one flipping an option's default.
#include <gtest/gtest.h>

#include "tests/e2e/bisect_test_support.hpp"

namespace abtest::e2e {
namespace {

constexpr int commits = 16;
constexpr int slow_commit = 11;

// The repository, generated once with fixed identities and dates so its commits have the same
// shas on every run (and their build folders under .abtest stay valid between runs).
class commit_bisect : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    use_parent_launcher();
    fixed_git_identity();
    repo_ = fs::path(ABTEST_E2E_WORK_DIR) / "commits_repo";
    if (fs::exists(repo_ / ".git") && run_program("git", {"-C", repo_.string(), "rev-list", "--count", "HEAD"}).out == "16\n") {
      git(repo_, {"checkout", "-q", "-f", "main"});
    } else {
      fs::remove_all(repo_);
      planted_copy(repo_);
      git(repo_, {"init", "-q", "-b", "main"});
      std::ofstream(repo_ / ".gitignore") << ".abtest/\n";
      for (int i = 0; i < commits; ++i) {
        if (i == slow_commit) {
          set_work_percent(repo_, 200);
        } else {
          std::ofstream(repo_ / "NOTES.txt", std::ios::app) << "note " << i << "\n";
        }
        git(repo_, {"add", "-A"});
        git(repo_, {"commit", "-q", "-m", i == slow_commit ? "twice the work" : "note " + std::to_string(i)});
      }
    }
    shas_.clear();
    std::string list = run_program("git", {"-C", repo_.string(), "rev-list", "--reverse", "HEAD"}).out;
    for (size_t pos = 0; pos < list.size();) {
      const size_t nl = list.find('\n', pos);
      shas_.push_back(list.substr(pos, nl - pos));
      pos = nl + 1;
    }
  }
  static void TearDownTestSuite() { git(repo_, {"checkout", "-q", "-f", "main"}); }

  static fs::path manifest() { return repo_ / "abtest.json"; }

  static inline fs::path repo_;
  static inline std::vector<std::string> shas_;
};

TEST_F(commit_bisect, finds_the_slow_commit) {
  ASSERT_EQ(shas_.size(), static_cast<size_t>(commits));
  scratch dir("commit-bisect");
  const auto r = run_abtest({"--json", "--manifest", manifest().string(), "--db", (dir.path() / "r.db").string(), "bisect",
                             "--commits", shas_.front() + ".." + shas_.back(), "--metric", "planted.work_count", "--rounds", "3"});
  ASSERT_EQ(r.code, 1) << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(j["verdict"], "slower");
  EXPECT_NEAR(j["ratio"].get<double>(), 2.0, 1e-9);
  EXPECT_EQ(j["first_bad"], shas_[slow_commit]) << j.dump(2);
  EXPECT_EQ(j["subject"], "twice the work");
  EXPECT_LE(j["tested"].size(), 5u) << "midpoint search over 14 untested commits";
}

TEST_F(commit_bisect, check_exit_codes_for_git_bisect_run) {
  scratch dir("check");
  const std::vector<std::string> common{"--manifest", manifest().string(), "--db", (dir.path() / "r.db").string(), "check",
                                        "--against", shas_.front(), "--metric", "planted.work_count", "--rounds", "3"};
  git(repo_, {"checkout", "-q", "-f", "main"});
  EXPECT_EQ(run_abtest(common).code, 1) << "the slow head is bad";
  git(repo_, {"checkout", "-q", "-f", shas_[5]});
  EXPECT_EQ(run_abtest(common).code, 0) << "a commit before the slow one is good";
  std::ofstream(repo_ / "src" / "work.cpp", std::ios::app) << "\n#error \"does not build\"\n";
  EXPECT_EQ(run_abtest(common).code, 125) << "an unbuildable checkout is skipped";
  git(repo_, {"checkout", "-q", "-f", "main"});
}

// Five commits, the third switching an optimization's option on for everyone (PLANTED_SLOW's
// default OFF → ON, +30% work): every commit is built with its own defaults, so the flip is found
// and named (design §5).
TEST(commit_bisect_flip, names_the_commit_and_the_toggle_that_flipped_a_default) {
  use_parent_launcher();
  fixed_git_identity();
  const fs::path repo = fs::path(ABTEST_E2E_WORK_DIR) / "flip_commits_repo";
  if (!fs::exists(repo / ".git") || run_program("git", {"-C", repo.string(), "rev-list", "--count", "HEAD"}).out != "5\n") {
    fs::remove_all(repo);
    planted_copy(repo);
    git(repo, {"init", "-q", "-b", "main"});
    std::ofstream(repo / ".gitignore") << ".abtest/\n";
    for (int i = 0; i < 5; ++i) {
      if (i == 2) set_option_default(repo, "PLANTED_SLOW", "ON");
      else std::ofstream(repo / "NOTES.txt", std::ios::app) << "note " << i << "\n";
      git(repo, {"add", "-A"});
      git(repo, {"commit", "-q", "-m", i == 2 ? "PLANTED_SLOW on by default" : "note " + std::to_string(i)});
    }
  }
  git(repo, {"checkout", "-q", "-f", "main"});
  const std::string list = run_program("git", {"-C", repo.string(), "rev-list", "--reverse", "HEAD"}).out;
  std::vector<std::string> shas;
  for (size_t pos = 0; pos < list.size();) {
    const size_t nl = list.find('\n', pos);
    shas.push_back(list.substr(pos, nl - pos));
    pos = nl + 1;
  }
  ASSERT_EQ(shas.size(), 5u);
  scratch dir("commit-bisect-flip");
  const auto r = run_abtest({"--json", "--manifest", (repo / "abtest.json").string(), "--db", (dir.path() / "r.db").string(), "bisect",
                             "--commits", shas.front() + ".." + shas.back(), "--metric", "planted.work_count", "--rounds", "3", "-j", "2"});
  ASSERT_EQ(r.code, 1) << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(j["variant"], "defaults");
  EXPECT_NEAR(j["ratio"].get<double>(), 1.3, 1e-9) << "+30% work, exact";
  EXPECT_EQ(j["first_bad"], shas[2]) << j.dump(2);
  EXPECT_EQ(j["subject"], "PLANTED_SLOW on by default");
  ASSERT_EQ(j["defaults_changed"].size(), 1u) << j.dump(2);
  EXPECT_EQ(j["defaults_changed"][0]["text"], "SLOW: OFF → ON");
  EXPECT_EQ(j["defaults_changed_in_range"], j["defaults_changed"]);

  // `check` builds the same way: the checkout (main) against the commit before the flip.
  const auto c = run_abtest({"--json", "--manifest", (repo / "abtest.json").string(), "--db", (dir.path() / "r.db").string(), "check",
                             "--against", shas[1], "--metric", "planted.work_count", "--rounds", "3", "-j", "2"});
  ASSERT_EQ(c.code, 1) << c.err;
  const auto k = json_of(c);
  EXPECT_EQ(k["variant"], "defaults");
  ASSERT_EQ(k["defaults_changed"].size(), 1u) << k.dump(2);
  EXPECT_EQ(k["defaults_changed"][0]["text"], "SLOW: OFF → ON");
}

}  // namespace
}  // namespace abtest::e2e
