// Tests of the affected set: a benchmark is timed exactly when a program, a named input or the
// environment differs, from real files hashed on disk.
#include "harness/gate/affected.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>

#include "harness/core/errors.hpp"

namespace abtest::gate {
namespace {

namespace fs = std::filesystem;

class affected_test : public ::testing::Test {
 protected:
  affected_test() {
    std::string p = (fs::temp_directory_path() / "abtest-gate-XXXXXX").string();
    if (!mkdtemp(p.data())) std::abort();
    dir_ = p;
    bench_.name = "b";
    bench_.command = {"{bin}/prog", "--input", "data/in.txt", "--n", "{n}"};
    m_.build.targets = {"prog"};
    m_.benchmarks = {bench_};
  }
  ~affected_test() override { fs::remove_all(dir_); }

  // A side: its program's bytes and its input file's (none when empty).
  benchmark_fingerprint side(const std::string& name, const std::string& program, const std::string& input) {
    const fs::path root = dir_ / name;
    fs::create_directories(root / "bin");
    fs::create_directories(root / "tree" / "data");
    std::ofstream(root / "bin" / "prog") << program;
    if (!input.empty()) std::ofstream(root / "tree" / "data" / "in.txt") << input;
    arm_plan arm;
    arm.bin = root / "bin";
    return fingerprint_of(m_, arm, bench_, {{"n", "3"}}, root / "tree");
  }

  fs::path dir_;
  manifest m_;
  benchmark_spec bench_;
};

// Each case: the base's program and input file (none when empty), the head's, and the decision.
struct sides_case {
  const char* what;
  const char *base_program, *base_input, *head_program, *head_input;
  timing decision;
  const char* reason;
};

TEST_F(affected_test, a_benchmark_is_timed_exactly_when_a_program_or_a_named_input_differs) {
  const sides_case cases[] = {
      {"the same bytes", "ELF same", "rows", "ELF same", "rows", timing::identical, "identical programs and inputs"},
      {"a changed program", "ELF one", "rows", "ELF two", "rows", timing::timed, "programs differ: prog"},
      {"a changed input named by the command", "ELF same", "rows 1", "ELF same", "rows 2", timing::timed, "inputs differ: data/in.txt"},
      {"an input on one side only", "ELF same", "", "ELF same", "new", timing::timed, "inputs differ: data/in.txt"},
      {"both", "ELF one", "rows 1", "ELF two", "rows 2", timing::timed, "programs differ: prog; inputs differ: data/in.txt"},
  };
  for (const auto& c : cases) {
    const auto base = side(std::string("base-") + c.what, c.base_program, c.base_input);
    const auto head = side(std::string("head-") + c.what, c.head_program, c.head_input);
    const auto d = decide("b", base, head);
    EXPECT_EQ(d.decision, c.decision) << c.what;
    EXPECT_EQ(d.reason, c.reason) << c.what;
  }
  EXPECT_EQ(side("inputs", "ELF", "rows").inputs.size(), 1u) << "data/in.txt is read through the command line; --n 3 is no file";
}

TEST_F(affected_test, the_environment_of_env_toggles_counts) {
  benchmark_fingerprint a, b;
  a.programs = b.programs = {{"prog", "aa"}};
  a.env = {{"W", "16"}};
  b.env = {{"W", "(unset)"}};
  EXPECT_EQ(decide("b", a, b).reason, "environment differs: W");
  EXPECT_EQ(decide("b", a, a).decision, timing::identical);
}

TEST_F(affected_test, a_missing_program_is_an_error_not_a_match) {
  arm_plan arm;
  arm.bin = dir_ / "nowhere";
  try {
    fingerprint_of(m_, arm, bench_, {{"n", "3"}}, dir_);
    FAIL() << "a missing program was fingerprinted";
  } catch (const user_error& e) {
    EXPECT_EQ(e.code(), exit_code::build_failed);
    EXPECT_NE(std::string(e.what()).find("build.targets"), std::string::npos) << e.what();
  }
}

TEST(timed_benchmarks, keeps_the_order_and_only_the_timed) {
  const std::vector<benchmark_decision> d{{"a", timing::identical, ""}, {"b", timing::timed, ""}, {"c", timing::timed, ""}};
  EXPECT_EQ(timed_benchmarks(d), (std::vector<std::string>{"b", "c"}));
}

}  // namespace
}  // namespace abtest::gate
