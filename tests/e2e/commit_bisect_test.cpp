// abtest bisect --commits and abtest check on a generated git repository: the planted fixture
// committed 16 times, one commit making the work 2× slower.
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

}  // namespace
}  // namespace abtest::e2e
