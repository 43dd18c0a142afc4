// Cargo's texts as abtest reads them: the executables in a real build's JSON messages
// (tests/fixtures/cargo-workspace/messages, made by its make.sh), a bench's `harness` key in
// Cargo.toml, and the output format each bench harness gets.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "harness/builder/cargo_text.hpp"
#include "harness/builder/cargo_probe.hpp"

namespace abtest {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(cargo_executables, a_real_builds_bench_programs_and_only_them) {
  const std::string text = slurp(ABTEST_CARGO_MESSAGES);
  ASSERT_FALSE(text.empty()) << ABTEST_CARGO_MESSAGES;
  const auto made = cargo_executables(text);
  // ~100 messages (criterion's dependencies, build scripts, libs): two executables, both benches,
  // named as in [[bench]], with the hash only Cargo knows.
  ASSERT_EQ(made.size(), 2u);
  EXPECT_EQ(made[0].kind, "bench");
  EXPECT_EQ(made[0].name, "synth");
  EXPECT_EQ(made[0].executable.parent_path(), "/TARGET/release/deps");
  EXPECT_EQ(made[0].executable.filename().string().rfind("synth-", 0), 0u);
  EXPECT_EQ(made[0].manifest_path, "/FIXTURE/bench/Cargo.toml");
  EXPECT_EQ(made[1].name, "chain");
  EXPECT_EQ(made[1].manifest_path, "/FIXTURE/criterion/Cargo.toml");
}

TEST(cargo_executables, text_broken_lines_and_other_messages_are_skipped) {
  const std::string bin =
      R"({"reason":"compiler-artifact","manifest_path":"/c/Cargo.toml","target":{"kind":["bin"],"name":"synth"},"executable":"/t/release/synth"})";
  const std::string text = "   Compiling x v0.1.0\n{\"reason\":\"compiler-artifact\",\n" + bin +
                           "\n{\"reason\":\"compiler-artifact\",\"target\":{\"kind\":[\"lib\"],\"name\":\"x\"},\"executable\":null}\n"
                           "{\"reason\":\"compiler-artifact\",\"target\":{\"kind\":[\"example\"],\"name\":\"e\"},\"executable\":\"/e\"}\n"
                           "{\"reason\":\"build-finished\",\"success\":true}\n{\"reason\":\"compiler-artifact\",\"target\":7}";
  const auto made = cargo_executables(text);
  ASSERT_EQ(made.size(), 1u);
  EXPECT_EQ(made[0].kind, "bin");
  EXPECT_EQ(made[0].executable, "/t/release/synth");
  EXPECT_TRUE(cargo_executables("").empty());
  EXPECT_TRUE(cargo_executables("{\n}\n{{{").empty());
}

TEST(bench_harness, the_harness_key_of_the_named_bench_table) {
  const std::string toml = R"(
[package]
name = "p"
harness = false   # not a bench table

[[bench]]
name = "crit"
harness = false

[[bench]]
harness = false # before the name
name = "divan_b"

[[bench]]
name = "plain"

[dev-dependencies]
criterion = "0.3"
)";
  EXPECT_TRUE(bench_harness_off(toml, "crit"));
  EXPECT_TRUE(bench_harness_off(toml, "divan_b"));
  EXPECT_FALSE(bench_harness_off(toml, "plain"));
  EXPECT_FALSE(bench_harness_off(toml, "benches_dir_only"));  // found by Cargo in benches/: the default harness
  EXPECT_FALSE(bench_harness_off(toml, "p"));
  EXPECT_FALSE(bench_harness_off("[[bench]]\nname = \"x\"\nharness = true\n", "x"));
  EXPECT_TRUE(bench_harness_off("[[bench]]\r\nname = \"x\"\r\nharness=false\r\n", "x"));
  EXPECT_FALSE(bench_harness_off("", "x"));
}

TEST(bench_harness, format_from_the_harness_and_the_dependencies) {
  EXPECT_EQ(bench_harness_of(true, {.criterion = true}), bench_harness::criterion);
  EXPECT_EQ(bench_harness_of(true, {.divan = true}), bench_harness::divan);
  // bencher (crc32fast's benches, e.g.) prints libtest's lines from a harness = false bench.
  EXPECT_EQ(bench_harness_of(true, {.bencher = true}), bench_harness::bencher);
  EXPECT_EQ(bench_harness_of(true, {.criterion = true, .bencher = true}), bench_harness::criterion);
  EXPECT_EQ(bench_harness_of(true, {}), bench_harness::own);
  // The default harness is libtest's, whatever the crate depends on: Criterion needs harness = false.
  EXPECT_EQ(bench_harness_of(false, {.criterion = true}), bench_harness::libtest);
  EXPECT_EQ(bench_harness_of(false, {}), bench_harness::libtest);
}

}  // namespace
}  // namespace abtest
