// `abtest build` end to end on a private copy of the planted fixture with a private, cold compiler
// cache: after base, a one-toggle variant compiles only the objects that read the toggle's header,
// the build record says what each build cost, binaries differ exactly where the toggles do,
// `--matrix` builds a design one toggle step at a time and `--bench` builds only what it runs.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <set>
#include <string>

#include "tests/hardening/abtest_cli.hpp"
#include "tests/hardening/planted_copy.hpp"

namespace abtest::test {
namespace {

namespace fs = std::filesystem;

// A fresh copy of the fixture (no .abtest/ state) and a cold ccache of its own.
struct fresh_fixture {
  temp_dir tmp{"e2e-build-cache"};
  fs::path dir = tmp / "planted";
  fs::path db = tmp / "results.db";
  fresh_fixture() {
    copy_planted_sources(dir);
    ::setenv("CCACHE_DIR", (tmp / "ccache").c_str(), 1);
  }
  ~fresh_fixture() { ::unsetenv("CCACHE_DIR"); }
  nlohmann::json build(std::vector<std::string> args, int expect_exit = 0) const {
    std::vector<std::string> all{"--manifest", (dir / "abtest.json").string(), "--db", db.string(), "--json", "build", "-j", "2"};
    all.insert(all.end(), args.begin(), args.end());
    const auto r = run_cli(all);
    EXPECT_EQ(r.exit_code, expect_exit) << r.err;
    return json_of(r);
  }
};

bool have_ccache() { return std::system("command -v ccache >/dev/null 2>&1") == 0; }

TEST(build_cache, a_one_toggle_variant_compiles_only_the_objects_that_read_its_header) {
  if (!have_ccache()) GTEST_SKIP() << "ccache is not installed (scripts/setup.sh installs it)";
  fresh_fixture f;
  const auto base = f.build({});
  ASSERT_EQ(base.size(), 1u);
  EXPECT_EQ(base[0]["cache_misses"], 3) << base.dump(2);  // a cold cache: every object compiled
  EXPECT_EQ(base[0]["objects_compiled"], 3);
  EXPECT_EQ(base[0]["links"], 3);  // planted_work (archive), planted-bench, planted-gbench

  // SLOW is read through the generated planted_config.hpp, which only work.cpp includes.
  const auto slow = f.build({"--toggle", "SLOW"});
  ASSERT_EQ(slow.size(), 1u);
  EXPECT_EQ(slow[0]["objects_compiled"], 1) << slow.dump(2);
  EXPECT_EQ(slow[0]["cache_hits"], 2);
  ASSERT_EQ(slow[0]["details"]["compiled"].size(), 1u);
  EXPECT_TRUE(slow[0]["details"]["compiled"][0].get<std::string>().ends_with("src/work.cpp")) << slow.dump(2);

  // The same costs are in the results database.
  EXPECT_EQ(query_int(f.db, "SELECT objects_compiled FROM build WHERE variant = 'SLOW'"), 1);
  EXPECT_EQ(query_int(f.db, "SELECT cache_hits FROM build WHERE variant = 'SLOW'"), 2);
  EXPECT_EQ(query_int(f.db, "SELECT cache_misses FROM build WHERE variant = 'base'"), 3);
}

TEST(build_cache, binaries_differ_exactly_where_the_toggles_do) {
  if (!have_ccache()) GTEST_SKIP() << "ccache is not installed";
  fresh_fixture f;
  const auto out = f.build({"--variant", "base", "--variant", "NULL", "--variant", "SLOW"});
  ASSERT_EQ(out.size(), 3u) << out.dump(2);
  std::map<std::string, nlohmann::json> by;
  for (const auto& b : out) by[b["variant"]] = b;
  // NULL is read by no source: the same programs as base, said so.
  EXPECT_EQ(by["NULL"]["binaries"], by["base"]["binaries"]);
  EXPECT_EQ(by["NULL"].value("identical_to", ""), "base");
  // SLOW changes the work, which both programs link.
  for (const char* prog : {"planted-bench", "planted-gbench"})
    EXPECT_NE(by["SLOW"]["binaries"][prog], by["base"]["binaries"][prog]) << prog;
  EXPECT_FALSE(by["SLOW"].contains("identical_to"));
}

TEST(build_cache, the_matrix_is_built_one_toggle_step_at_a_time) {
  if (!have_ccache()) GTEST_SKIP() << "ccache is not installed";
  fresh_fixture f;
  const auto out = f.build({"--matrix", "--design", "full", "--toggle", "SLOW", "--toggle", "SIZE", "--bench", "planted"});
  // SLOW (2 levels) × SIZE (1, 2, 4) = 6 variants, base first, each one step from the one before.
  ASSERT_EQ(out.size(), 6u) << out.dump(2);
  EXPECT_EQ(out[0]["variant"], "base");
  std::set<std::string> keys;
  for (size_t i = 0; i < out.size(); ++i) {
    keys.insert(out[i]["variant"]);
    EXPECT_TRUE(out[i]["ok"].get<bool>());
    if (i > 0) {
      EXPECT_LE(out[i]["objects_compiled"].get<int>(), 1) << out[i].dump(2);  // only work.cpp, or a cache hit
    }
  }
  EXPECT_EQ(keys.size(), 6u);
  EXPECT_TRUE(keys.count("SIZE=4+SLOW"));
}

TEST(build_cache, only_the_programs_the_benchmarks_run_are_built) {
  if (!have_ccache()) GTEST_SKIP() << "ccache is not installed";
  fresh_fixture f;
  const auto out = f.build({"--bench", "planted"});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0]["binaries"].contains("planted-bench"));
  EXPECT_FALSE(out[0]["binaries"].contains("planted-gbench")) << out.dump(2);
  EXPECT_FALSE(fs::exists(f.dir / ".abtest/build/base/planted-gbench"));
  EXPECT_EQ(out[0]["links"], 2);  // the work archive and planted-bench
}

TEST(build_cache, a_change_of_cmake_args_configures_from_a_fresh_cache) {
  fresh_fixture f;
  const fs::path manifest = f.dir / "abtest.json";
  auto j = nlohmann::json::parse(std::ifstream(manifest));
  j["build"]["cmake_args"] = {"-DPLANTED_EXTRA_NOTE=kept-by-mistake"};
  std::ofstream(manifest) << j.dump(2);
  f.build({"--bench", "planted"});
  const fs::path cache = f.dir / ".abtest/build/base/CMakeCache.txt";
  EXPECT_NE(read_text(cache).find("PLANTED_EXTRA_NOTE"), std::string::npos);
  j["build"].erase("cmake_args");
  std::ofstream(manifest) << j.dump(2);
  f.build({"--bench", "planted"});
  EXPECT_EQ(read_text(cache).find("PLANTED_EXTRA_NOTE"), std::string::npos) << "a removed -D lived on in the cache";
}

TEST(build_cache, a_host_without_cuda_builds_with_the_manifests_without_cuda_args_and_says_so) {
  if (fs::exists("/dev/nvidia0")) GTEST_SKIP() << "this host has a CUDA device";
  fresh_fixture f;
  const fs::path manifest = f.dir / "abtest.json";
  auto j = nlohmann::json::parse(std::ifstream(manifest));
  j["build"]["without_cuda_args"] = {"-DPLANTED_NO_KERNELS=ON"};
  std::ofstream(manifest) << j.dump(2);
  const auto out = f.build({"--bench", "planted"});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NE(out[0]["details"].value("notes", nlohmann::json::array()).dump().find("no CUDA device"), std::string::npos) << out.dump(2);
  EXPECT_NE(read_text(f.dir / ".abtest/build/base/CMakeCache.txt").find("PLANTED_NO_KERNELS:UNINITIALIZED=ON"), std::string::npos);
}

}  // namespace
}  // namespace abtest::test
