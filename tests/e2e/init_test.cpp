// `abtest init` end to end on a generated CMake project with a foreign project's habits (libdeflate's
// top level): long option names under a common prefix, a help string over several lines, a program
// named like a benchmark that is not Google Benchmark. The ids are readable, unique and said in the
// output, titles are one line, and a draft that does not load yet is written and exits 2.
#include <gtest/gtest.h>

#include <regex>
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

}  // namespace
}  // namespace abtest::e2e
