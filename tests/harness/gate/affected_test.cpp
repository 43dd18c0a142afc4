// Tests of the affected set: a benchmark is timed exactly when a program, a named input or the
// environment differs, from real files hashed on disk.
#include "harness/gate/affected.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>

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

TEST_F(affected_test, identical_programs_and_inputs_are_not_timed) {
  const auto d = decide("b", side("base", "ELF same", "rows"), side("head", "ELF same", "rows"));
  EXPECT_EQ(d.decision, timing::identical);
  EXPECT_EQ(d.reason, "identical programs and inputs");
}

TEST_F(affected_test, a_changed_program_is_timed_and_named) {
  const auto d = decide("b", side("base", "ELF one", "rows"), side("head", "ELF two", "rows"));
  EXPECT_EQ(d.decision, timing::timed);
  EXPECT_EQ(d.reason, "programs differ: prog");
}

TEST_F(affected_test, a_changed_input_file_named_by_the_command_is_timed) {
  const auto base = side("base", "ELF same", "rows 1");
  const auto head = side("head", "ELF same", "rows 2");
  EXPECT_EQ(base.inputs.size(), 1u) << "data/in.txt is read through the command line";
  const auto d = decide("b", base, head);
  EXPECT_EQ(d.decision, timing::timed);
  EXPECT_EQ(d.reason, "inputs differ: data/in.txt");
}

TEST_F(affected_test, an_input_present_on_one_side_only_differs) {
  const auto d = decide("b", side("base", "ELF same", ""), side("head", "ELF same", "new"));
  EXPECT_EQ(d.decision, timing::timed);
  EXPECT_EQ(d.reason, "inputs differ: data/in.txt");
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
  EXPECT_THROW(fingerprint_of(m_, arm, bench_, {{"n", "3"}}, dir_), std::runtime_error);
}

TEST(timed_benchmarks, keeps_the_order_and_only_the_timed) {
  const std::vector<benchmark_decision> d{{"a", timing::identical, ""}, {"b", timing::timed, ""}, {"c", timing::timed, ""}};
  EXPECT_EQ(timed_benchmarks(d), (std::vector<std::string>{"b", "c"}));
}

}  // namespace
}  // namespace abtest::gate
