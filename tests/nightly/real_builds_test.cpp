// The nightly matrix on real builds of the planted fixture in a generated git repository: the
// frozen canary is built at its tag in its own worktree, and `history --confirm` rebuilds the
// commit of the night before a change (its build folder has moved on since) to run the A/B.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "db/results_store.hpp"
#include "tests/nightly/nightly_support.hpp"

namespace abtest::nightly_test {
namespace {

class real_builds : public scratch_test {
 protected:
  void SetUp() override {
    scratch_test::SetUp();
    for (const auto& [k, v] : {std::pair{"GIT_AUTHOR_NAME", "abtest"}, {"GIT_AUTHOR_EMAIL", "abtest@example.org"},
                               {"GIT_COMMITTER_NAME", "abtest"}, {"GIT_COMMITTER_EMAIL", "abtest@example.org"}})
      ::setenv(k, v, 1);
    // Paths relative to the scratch folder in ccache's keys (when ccache is there): a rerun reuses objects.
    ::setenv("CCACHE_BASEDIR", dir_.c_str(), 1);
    ::setenv("CCACHE_NOHASHDIR", "true", 1);
    repo_ = dir_ / "repo";
    fs::copy(fs::path(ABTEST_SOURCE_DIR) / "tests" / "fixtures" / "planted", repo_, fs::copy_options::recursive);
    std::ofstream(repo_ / ".gitignore") << ".abtest/\n";
    git("init -q -b main && git add -A && git commit -q -m base && git tag canary");
    std::ofstream(repo_ / "NOTES.txt") << "a note\n";
    git("add -A && git commit -q -m note");
    const std::string work = read(repo_ / "src" / "work.cpp"), from = "std::uint64_t percent = 100;";
    ASSERT_NE(work.find(from), std::string::npos) << "the fixture's work.cpp changed: update this test";
    std::ofstream(repo_ / "src" / "work.cpp", std::ios::trunc) << std::string(work).replace(work.find(from), from.size(),
                                                                                            "std::uint64_t percent = 200;");
    git("add -A && git commit -q -m 'twice the work'");
  }

  std::string git(const std::string& args) {
    const auto r = shell("cd " + quote(repo_.string()) + " && git " + args);
    EXPECT_EQ(r.code, 0) << "git " << args << ": " << r.out;
    return r.out.substr(0, r.out.find('\n'));
  }

  ran abtest(const std::string& args) {
    return shell("cd " + quote(repo_.string()) + " && " + ABTEST_BINARY + " --db " + quote((dir_ / "r.db").string()) + " " + args);
  }

  fs::path repo_;
};

TEST_F(real_builds, canary_at_its_tag_and_confirm_rebuilds_the_night_before) {
  const std::string canary = git("rev-parse canary"), before = git("rev-parse main~1"), after = git("rev-parse main");
  // Four nights on the commit before the change, four after it; the build folders follow HEAD.
  for (int night = 1; night <= 8; ++night) {
    if (night == 1) git("checkout -q main~1");
    if (night == 5) git("checkout -q main");
    const auto r = abtest("-q matrix --nightly --toggle SLOW --rounds 2 --metric planted.work_count --canary canary");
    ASSERT_EQ(r.code, 0) << "night " << night << ": " << r.out;
  }
  {
    db::results_store store(dir_ / "r.db", db::open_mode::read_only);
    const auto nights = store.list_experiments(db::experiment_kind::nightly);
    ASSERT_EQ(nights.size(), 8u);
    for (const auto& e : nights) {
      ASSERT_EQ(e.arms.back().variant, "canary") << e.id;
      ASSERT_TRUE(e.arms.back().build_id) << e.id;
      EXPECT_EQ(store.find_build(*e.arms.back().build_id)->commit_sha.value_or(""), canary) << "the canary is frozen at its tag";
    }
  }
  const auto h = abtest("--json history --kind nightly --metric planted.work_count --confirm --fail-on-regression");
  EXPECT_EQ(h.code, 1) << h.out;
  const auto j = nlohmann::json::parse(h.out.substr(h.out.find('{')));
  ASSERT_EQ(j["series"].size(), 2u) << "base and SLOW; the canary is the yardstick";
  db::results_store store(dir_ / "r.db", db::open_mode::read_only);
  for (const auto& s : j["series"]) {
    EXPECT_EQ(s["normalized_by"], "canary");
    ASSERT_EQ(s["changepoints"].size(), 1u) << s.dump(2);
    const auto& c = s["changepoints"][0]["confirm"];
    EXPECT_EQ(c["verdict"], "slower") << c;
    EXPECT_NEAR(c["ratio"].get<double>(), 2.0, 1e-9) << "the work count doubles exactly";
    // The night before the change ran `before`, whose build folder now holds `after`: rebuilt from
    // its commit in a worktree; the night of the change still has its folder.
    const auto ab = store.find_experiment(c["experiment"].get<std::string>());
    ASSERT_TRUE(ab);
    ASSERT_EQ(ab->arms.size(), 2u);
    EXPECT_EQ(store.find_build(*ab->arms[0].build_id)->commit_sha.value_or(""), before);
    EXPECT_NE(store.find_build(*ab->arms[0].build_id)->build_dir.find(".abtest/commits/" + before), std::string::npos);
    EXPECT_EQ(store.find_build(*ab->arms[1].build_id)->commit_sha.value_or(""), after);
  }
}

}  // namespace
}  // namespace abtest::nightly_test
