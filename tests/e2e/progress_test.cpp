// Progress people can read, end to end: `abtest run` on a fresh copy of the planted fixture with
// stderr going to a file (not a terminal) shows plain lines — each build's steps as ninja counts
// them ([n/N]) with an ETA, one line per round (round r/R · arm · benchmark · ETA) — and no
// carriage return; `-q` shows none of it.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/hardening/abtest_cli.hpp"
#include "tests/hardening/planted_copy.hpp"

namespace abtest::test {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::vector<std::string> matching(const std::vector<std::string>& lines, const std::regex& re) {
  std::vector<std::string> out;
  for (const auto& l : lines)
    if (std::regex_match(l, re)) out.push_back(l);
  return out;
}

const std::string eta = R"(ETA (≤ )?(\d+s|\d+m\d\ds|\d+h\d\dm))";

TEST(progress, plain_lines_for_build_steps_and_rounds_when_stderr_is_not_a_terminal) {
  temp_dir tmp("e2e-progress");
  const fs::path dir = tmp / "planted";
  copy_planted_sources(dir);  // no build folders yet: every variant is built afresh
  const std::vector<std::string> common{"--manifest", (dir / "abtest.json").string(), "--db", (tmp / "results.db").string()};
  auto run = [&](std::vector<std::string> args) {
    std::vector<std::string> all = common;
    all.insert(all.end(), args.begin(), args.end());
    return run_cli(all);
  };

  const auto first = run({"run", "--bench", "planted", "--toggle", "SLOW", "--rounds", "3", "--seed", "11", "-j", "2"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(first.err.find('\r'), std::string::npos) << "a carriage return in a log:\n" << first.err;
  const auto err = lines_of(first.err);
  for (const char* key : {"base", "SLOW"}) {
    const std::string k = key;
    EXPECT_EQ(matching(err, std::regex("building " + k + " in .*")).size(), 1u) << first.err;
    // A fresh build folder: ninja counts its steps; the first and the last are shown, with an ETA
    // from the pace so far (nothing recorded yet to take it from).
    const auto steps = matching(err, std::regex("building " + k + R"( \[(\d+)/(\d+)\] · )" + eta + " · .+"));
    ASSERT_GE(steps.size(), 2u) << first.err;
    EXPECT_NE(steps.front().find(" [1/"), std::string::npos) << steps.front();
    std::smatch m;
    ASSERT_TRUE(std::regex_search(steps.back(), m, std::regex(R"(\[(\d+)/(\d+)\])")));
    EXPECT_EQ(m[1], m[2]) << "the last step is shown: " << steps.back();
  }
  EXPECT_EQ(matching(err, std::regex(R"(  built \d+\.\d s.*)")).size(), 2u) << first.err;
  // One line per round, the warm-up round included; never one per invocation.
  EXPECT_EQ(matching(err, std::regex("warm-up 1/1 · (base|SLOW) · planted · " + eta)).size(), 1u) << first.err;
  const auto rounds = matching(err, std::regex("round ([1-3])/3 · (base|SLOW) · planted · " + eta));
  ASSERT_EQ(rounds.size(), 3u) << first.err;
  for (int r = 1; r <= 3; ++r) EXPECT_EQ(rounds[r - 1].rfind("round " + std::to_string(r) + "/3 · ", 0), 0u) << rounds[r - 1];
  EXPECT_TRUE(matching(err, std::regex(R"(round \d/3 · .* · ETA \?)")).empty()) << "every round has an ETA";

  // Built before: the ETA comes from the last build of the variant, or of base for a new one.
  const auto second = run({"run", "--bench", "planted", "--toggle", "SLOW", "--variant", "SIZE=2", "--rounds", "2", "--seed", "11",
                           "-j", "2"});
  ASSERT_EQ(second.exit_code, 0) << second.err;
  const auto again = lines_of(second.err);
  EXPECT_EQ(matching(again, std::regex(R"(building SLOW in .* \(last build \d+\.\d s\))")).size(), 1u) << second.err;
  EXPECT_EQ(matching(again, std::regex(R"(building SIZE=2 in .* \(base's last build \d+\.\d s\))")).size(), 1u) << second.err;
  EXPECT_FALSE(matching(again, std::regex(R"(building SIZE=2 \[\d+/\d+\] · ETA .+)")).empty()) << second.err;
  EXPECT_EQ(matching(again, std::regex("round [12]/2 · .* · planted · " + eta)).size(), 2u) << second.err;

  // -q: no progress at all (and no tables).
  const auto quiet = run({"-q", "run", "--bench", "planted", "--toggle", "SIZE=4", "--rounds", "2", "--seed", "11", "-j", "2"});
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  for (const char* said : {"building", "built", "round", "warm-up", "ETA", "["}) EXPECT_EQ(quiet.err.find(said), std::string::npos) << said << " in:\n" << quiet.err;
  EXPECT_TRUE(quiet.out.empty()) << quiet.out;
}

}  // namespace
}  // namespace abtest::test
