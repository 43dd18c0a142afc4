// Layout relinking (design §6) on the planted fixture: K links from one build's objects, each a
// different binary that computes the same thing, the same seed giving the same bytes.
#include "harness/builder/layouts.hpp"

#include <cstdlib>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "harness/core/sha256.hpp"
#include "harness/exec/process.hpp"

namespace abtest {
namespace {
namespace fs = std::filesystem;

const fs::path work_dir = ABTEST_LAYOUTS_WORK_DIR;

bool lld_installed() { return std::system("ld.lld --version >/dev/null 2>&1") == 0; }

exec::process_result run(std::vector<std::string> argv, const fs::path& cwd = {}) {
  exec::process_options o;
  o.argv = std::move(argv);
  o.working_dir = cwd;
  o.hardware_counters = false;
  return exec::run_process(o);
}

// The fixture built once (Release, Ninja) into work_dir/build.
const fs::path& planted_build() {
  static const fs::path dir = [] {
    const fs::path d = work_dir / "build";
    const auto c = run({ABTEST_CMAKE_COMMAND, "-S", ABTEST_PLANTED_SOURCE_DIR, "-B", d.string(), "-G", "Ninja",
                        "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_CXX_COMPILER=" ABTEST_CXX_COMPILER});
    EXPECT_EQ(c.exit_code, 0) << c.out.tail << c.err.tail;
    const auto b = run({ABTEST_CMAKE_COMMAND, "--build", d.string(), "--target", "planted-bench"});
    EXPECT_EQ(b.exit_code, 0) << b.out.tail << b.err.tail;
    return d;
  }();
  return dir;
}

std::string output_of(const fs::path& program) {
  const auto r = run({program.string(), "--reps", "2", "--units", "2000"});
  EXPECT_EQ(r.exit_code, 0) << program << r.err.tail;
  // The timings differ from run to run; the digest and the work do not.
  const std::string& out = r.out.head;
  const auto at = out.find("\"checks\"");
  return at == std::string::npos ? out : out.substr(at);
}

TEST(layouts, seeds_are_stable_distinct_and_never_special) {
  EXPECT_EQ(layout_seed(1, "base", 0), layout_seed(1, "base", 0));
  std::set<std::uint64_t> seen;
  for (const char* key : {"base", "SLOW", "A1=4+B1"})
    for (int k = 0; k < 8; ++k) {
      const std::uint64_t s = layout_seed(7, key, k);
      EXPECT_NE(s, 0u);
      EXPECT_NE(s, ~std::uint64_t{0});
      seen.insert(s);
    }
  EXPECT_EQ(seen.size(), 24u);
  EXPECT_NE(layout_seed(7, "base", 0), layout_seed(8, "base", 0));
}

TEST(layouts, each_seed_links_another_binary_that_computes_the_same) {
  if (!lld_installed()) GTEST_SKIP() << "ld.lld is not installed (scripts/setup.sh --with-tests installs lld)";
  const fs::path build = planted_build();
  ASSERT_TRUE(fs::exists(build / "planted-bench"));
  const std::string line = link_command(build, "planted-bench");
  EXPECT_NE(line.find("-o planted-bench"), std::string::npos) << line;

  const std::vector<std::uint64_t> seeds = {layout_seed(1, "base", 0), layout_seed(1, "base", 1),
                                            layout_seed(1, "base", 2)};
  const auto links = relink_layouts({build, "planted-bench", work_dir / "out"}, seeds);
  ASSERT_EQ(links.size(), 3u);
  const std::string expected = output_of(build / "planted-bench");
  std::set<std::string> digests = {sha256_file(build / "planted-bench")};
  for (const auto& l : links) {
    EXPECT_EQ(l.seed, seeds[static_cast<std::size_t>(l.index)]);
    EXPECT_EQ(l.program, fs::absolute(work_dir / "out" / std::to_string(l.index) / "planted-bench"));
    digests.insert(sha256_file(l.program));
    EXPECT_EQ(output_of(l.program), expected) << "layout " << l.index;
  }
  EXPECT_EQ(digests.size(), 4u) << "every layout (and the build's own link) is another binary";

  // The same seed, the same bytes: a rerun measures the same layouts.
  const auto again = relink_layouts({build, "planted-bench", work_dir / "again"}, {seeds[1]});
  EXPECT_EQ(sha256_file(again.at(0).program), sha256_file(links.at(1).program));
}

TEST(layouts, what_cannot_be_relinked_is_said) {
  if (!lld_installed()) GTEST_SKIP() << "ld.lld is not installed";
  const fs::path build = planted_build();
  try {
    relink_layouts({build, "planted_work", work_dir / "lib"}, {1});
    ADD_FAILURE() << "a static library has no link step";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("executable"), std::string::npos) << e.what();
  }
  try {
    relink_layouts({work_dir, "planted-bench", work_dir / "x"}, {1});
    ADD_FAILURE() << "a folder without build.ninja";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("Ninja"), std::string::npos) << e.what();
  }
  const std::string path = std::getenv("PATH");
  setenv("PATH", "/nonexistent", 1);
  try {
    relink_layouts({build, "planted-bench", work_dir / "y"}, {1});
    ADD_FAILURE() << "no lld on the PATH";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("apt-get install lld"), std::string::npos) << e.what();
  }
  setenv("PATH", path.c_str(), 1);
}

}  // namespace
}  // namespace abtest
