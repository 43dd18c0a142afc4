// `abtest init` end to end on a generated CMake project with a foreign project's habits (libdeflate's
// top level): long option names under a common prefix, a help string over several lines, a program
// named like a benchmark that is not Google Benchmark. The ids are readable, unique and said in the
// output, titles are one line, and a draft that does not load yet is written and exits 2.
#include <gtest/gtest.h>

#include <regex>
#include <map>
#include <set>

#include "tests/e2e/bisect_test_support.hpp"

namespace abtest::e2e {
namespace {

fs::path foreign_project(const fs::path& dir) {
  fs::create_directories(dir);
  std::ofstream(dir / "CMakeLists.txt") << R"(cmake_minimum_required(VERSION 3.20)
project(libz LANGUAGES C)
option(LIBZ_BUILD_TESTS "Build the tests" OFF)
option(LIBZ_COMPRESSION_SUPPORT "Support compression" ON)
option(LIBZ_DECOMPRESSION_SUPPORT "Support decompression" ON)
option(LIBZ_FREESTANDING
       "Build a freestanding library, i.e. a library that doesn't link to any
       libc functions like malloc(), free(), and memcpy().  Library users will
       need to provide a custom memory allocator." OFF)
option(LIBZ_VERY_LONG_NAME_FOR_FAST_PATH "the fast path" OFF)
option(LIBZ_VERY_LONG_NAME_FOR_SLOW_PATH "the slow path" OFF)
option(LIBZ_ADLER32_CHECKSUM "check with Adler-32" OFF)
option(LIBZ_ADLER32_CHECKSUM_SUPPORT "Adler-32 in the library" OFF)
add_executable(zbench bench.c)
)";
  std::ofstream(dir / "bench.c") << "int main(void) { return 0; }\n";
  return dir;
}

TEST(init, ids_are_readable_unique_and_said_and_titles_are_one_line) {
  scratch dir("init-foreign");
  const fs::path proj = foreign_project(dir.path() / "libz");
  const auto r = run_abtest({"init"}, proj);
  ASSERT_TRUE(fs::exists(proj / "abtest.json")) << r.err;
  const auto m = nlohmann::json::parse(slurp(proj / "abtest.json"));
  std::map<std::string, std::string> option_of;  // id → option
  static const std::regex id_re("[A-Z][A-Z0-9_]{0,15}");
  for (const auto& t : m["toggles"]) {
    const std::string id = t["id"];
    EXPECT_TRUE(std::regex_match(id, id_re)) << id;
    EXPECT_TRUE(option_of.emplace(id, t["option"]).second) << "two toggles share the id " << id;
    if (t.contains("title")) {
      const std::string title = t["title"];
      EXPECT_EQ(title.find("\\n"), std::string::npos) << title;  // CMake's spelling of a newline
      EXPECT_EQ(title.find_first_of("\n\t"), std::string::npos) << title;
      EXPECT_EQ(title.find("  "), std::string::npos) << title;
    }
  }
  EXPECT_EQ(option_of.size(), 7u) << m.dump(2);  // LIBZ_BUILD_TESTS is a build setting
  EXPECT_EQ(option_of["COMPRESSION"], "LIBZ_COMPRESSION_SUPPORT");
  EXPECT_EQ(option_of["DECOMPRESSION"], "LIBZ_DECOMPRESSION_SUPPORT");
  EXPECT_EQ(option_of["VERY_FAST_PATH"], "LIBZ_VERY_LONG_NAME_FOR_FAST_PATH");
  EXPECT_EQ(option_of["VERY_SLOW_PATH"], "LIBZ_VERY_LONG_NAME_FOR_SLOW_PATH");
  EXPECT_EQ(option_of["ADLER32_CHECKSUM"], "LIBZ_ADLER32_CHECKSUM");
  for (const auto& t : m["toggles"])
    if (t["option"] == "LIBZ_FREESTANDING") {
      EXPECT_EQ(t["title"], "Build a freestanding library, i.e. a library that doesn't link to any libc functions like malloc(), "
                            "free(), and memcpy(). Library users will need to provide a custom memory allocator.");
    }
  // The output says which option each id stands for.
  for (const auto& [id, option] : option_of)
    EXPECT_TRUE(std::regex_search(r.out, std::regex("\n  " + id + " +option " + option + "( \\(levels [^)]*\\))?\n"))) << id << "\n" << r.out;
  EXPECT_NE(r.out.find("zbench"), std::string::npos) << "a program named like a benchmark is pointed out\n" << r.out;
}

TEST(init, a_draft_that_does_not_load_yet_is_written_and_exits_2) {
  scratch dir("init-draft");
  const fs::path proj = foreign_project(dir.path() / "libz");  // no Google Benchmark program: no benchmark
  const auto r = run_abtest({"init"}, proj);
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_TRUE(fs::exists(proj / "abtest.json")) << "the draft is the start the user fills in";
  EXPECT_NE(r.out.find("still to do:"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("error: the draft is not usable yet: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("benchmarks: missing, empty or not an array — list at least one benchmark"), std::string::npos) << r.err;
  // The same with --json: the answer on stdout, the exit code and the error as in the terminal.
  const auto j = run_abtest({"--json", "--manifest", (dir.path() / "other.json").string(), "init", "--source", proj.string()});
  EXPECT_EQ(j.code, 2) << j.err;
  const auto answer = json_of(j);
  EXPECT_EQ(answer["valid"], false);
  EXPECT_EQ(answer["toggles"]["COMPRESSION"], "option LIBZ_COMPRESSION_SUPPORT (levels ON, OFF)") << answer.dump(2);
  EXPECT_NE(j.err.find("error: the draft is not usable yet"), std::string::npos) << j.err;
  // A second init does not overwrite the draft.
  const std::string before = slurp(proj / "abtest.json");
  EXPECT_EQ(run_abtest({"init"}, proj).code, 2);
  EXPECT_EQ(slurp(proj / "abtest.json"), before);
}

// A project with zlib-ng's habits: Google Benchmark programs only with WITH_BENCHMARKS=ON (OFF by
// default), build-setting options beside the optimizations, long option names. One program
// registers many benchmarks in three families, one links Google Benchmark but registers none.
fs::path benchmark_switch_project(const fs::path& dir, const std::string& bench_find = "find_package(benchmark REQUIRED)") {
  fs::create_directories(dir / "bench");
  std::ofstream(dir / "CMakeLists.txt") << R"cm(cmake_minimum_required(VERSION 3.20)
project(zng LANGUAGES CXX)
option(WITH_BENCHMARKS "Build the benchmarks" OFF)
option(WITH_GTEST "Build gtest_zlib" OFF)
option(WITH_FUZZERS "Build test/fuzz" OFF)
option(WITH_MAINTAINER_WARNINGS "Build with project maintainer warnings" OFF)
option(WITH_CODE_COVERAGE "Enable code coverage reporting" OFF)
option(ZNG_ENABLE_TESTS "Build test binaries" ON)
option(WITH_RUNTIME_CPU_DETECTION "Build with runtime detection of CPU architecture" ON)
option(WITH_NATIVE_INSTRUCTIONS "Instruct the compiler to use the full instruction set on this host" OFF)
set(WITH_SANITIZER "" CACHE STRING "Build with sanitizer (Memory, Address, Undefined)")
set_property(CACHE WITH_SANITIZER PROPERTY STRINGS "" "Memory" "Address" "Undefined")
if(WITH_BENCHMARKS)
  add_subdirectory(bench)
endif()
)cm";
  std::ofstream(dir / "bench/CMakeLists.txt") << bench_find << R"cm(
add_executable(zng_bench zng_bench.cpp)
target_link_libraries(zng_bench benchmark::benchmark)
add_executable(zng_tool zng_tool.cpp)
target_link_libraries(zng_tool benchmark::benchmark)
)cm";
  std::ofstream(dir / "bench/zng_bench.cpp") << R"cm(#include <benchmark/benchmark.h>
static void work(benchmark::State& s) { for (auto _ : s) benchmark::DoNotOptimize(s.range(0) * 3); }
BENCHMARK(work)->Name("adler32")->Arg(1)->Arg(2)->Arg(3)->Arg(4)->Arg(5);
BENCHMARK(work)->Name("crc32")->Arg(1)->Arg(2)->Arg(3)->Arg(4)->Arg(5);
BENCHMARK(work)->Name("inflate")->Arg(1)->Arg(2);
BENCHMARK_MAIN();
)cm";
  std::ofstream(dir / "bench/zng_tool.cpp") << R"cm(#include <benchmark/benchmark.h>
int main(int argc, char** argv) { benchmark::Initialize(&argc, argv); benchmark::RunSpecifiedBenchmarks(); }
)cm";
  return dir;
}

TEST(init, a_benchmark_switch_is_turned_on_and_the_programs_are_asked_what_they_register) {
  scratch dir("init-switch");
  const fs::path proj = benchmark_switch_project(dir.path() / "zng");
  const auto r = run_abtest({"--json", "init"}, proj);
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const auto answer = json_of(r);
  const auto m = nlohmann::json::parse(slurp(proj / "abtest.json"));
  EXPECT_EQ(m["build"]["cmake_args"], nlohmann::json::array({"-DWITH_BENCHMARKS=ON"})) << m.dump(2);
  // Only the optimizations are toggles, with ids of whole words.
  std::map<std::string, std::string> option_of;
  for (const auto& t : m["toggles"]) option_of[t["id"]] = t["option"];
  EXPECT_EQ(option_of, (std::map<std::string, std::string>{{"RUNTIME_DETECT", "WITH_RUNTIME_CPU_DETECTION"},
                                                           {"NATIVE_INSTR", "WITH_NATIVE_INSTRUCTIONS"}}))
      << m.dump(2);
  // The build settings and the benchmark switch are listed as left out, each with why.
  const std::string left_out = answer["left_out"].dump();
  for (const char* name : {"WITH_GTEST", "WITH_FUZZERS", "WITH_MAINTAINER_WARNINGS", "WITH_CODE_COVERAGE", "ZNG_ENABLE_TESTS",
                           "WITH_SANITIZER"})
    EXPECT_NE(left_out.find(std::string(name) + " (a build setting"), std::string::npos) << name << " " << left_out;
  EXPECT_NE(left_out.find("WITH_BENCHMARKS (a benchmark switch: ON in build.cmake_args)"), std::string::npos) << left_out;
  // The program that registers nothing is left out; the other is one benchmark, filtered to its
  // first family (it registers 12 in 3), and the families are named for the user to choose.
  EXPECT_NE(left_out.find("zng_tool (links Google Benchmark but registers no benchmark"), std::string::npos) << left_out;
  ASSERT_EQ(m["benchmarks"].size(), 1u) << m.dump(2);
  EXPECT_EQ(m["benchmarks"][0]["command"],
            nlohmann::json::array({"{bin}/zng_bench", "--benchmark_format=json", "--benchmark_filter=^adler32(/|$)"}));
  EXPECT_EQ(m["build"]["targets"], nlohmann::json::array({"zng_bench"}));
  EXPECT_NE(answer["to_do"].dump().find("zng_bench registers 12 benchmarks in 3 families: adler32 (5), crc32 (5), inflate (2)"),
            std::string::npos) << answer["to_do"].dump(2);
  // What it wrote builds and measures: the variant build has the switch ON.
  const auto b = run_abtest({"build", "--bench", "zng_bench"}, proj);
  EXPECT_EQ(b.code, 0) << b.out << b.err;
}

TEST(init, a_configure_that_misses_a_package_names_it) {
  scratch dir("init-missing");
  const fs::path proj = benchmark_switch_project(dir.path() / "zng", "find_package(abtest_no_such_package REQUIRED)");
  const auto r = run_abtest({"init"}, proj);
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("configuring again with -DWITH_BENCHMARKS=ON"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("it needs the package abtest_no_such_package — install the development package that provides it "
                       "(apt-cache search abtest_no_such_package)"),
            std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(proj / "abtest.json")) << "nothing is written when the probe could not read the project";
}

}  // namespace
}  // namespace abtest::e2e
