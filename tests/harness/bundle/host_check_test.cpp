// The runner's host check on a folder made here: a changed or missing file is a problem that says
// what to do; programs that load pass; the host's own libraries are never bundled.
#include "harness/bundle/host_check.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "harness/bundle/shared_libraries.hpp"
#include "harness/core/sha256.hpp"

namespace abtest::bundle {
namespace {
namespace fs = std::filesystem;

struct folder {
  fs::path dir = fs::temp_directory_path() / ("abtest-host-check-" + std::to_string(::getpid()));
  folder() { fs::create_directories(dir / "bin" / "base"); }
  ~folder() { fs::remove_all(dir); }
};

bundle_plan plan_with(const std::string& file, const std::string& digest) {
  bundle_plan p;
  p.experiment_id = "run-x";
  p.files[file] = digest;
  return p;
}

TEST(host_check, a_program_that_loads_and_matches_passes) {
  folder f;
  fs::copy_file("/bin/true", f.dir / "bin/base/true");
  const auto c = check_host(plan_with("bin/base/true", sha256_file(f.dir / "bin/base/true")), f.dir);
  EXPECT_TRUE(c.ok()) << (c.problems.empty() ? "" : c.problems[0]);
  ASSERT_FALSE(c.passed.empty());
  EXPECT_NE(c.passed[0].find("1 of 1 files"), std::string::npos) << c.passed[0];
}

TEST(host_check, a_changed_or_missing_program_is_refused) {
  folder f;
  fs::copy_file("/bin/true", f.dir / "bin/base/true");
  const std::string digest = sha256_file(f.dir / "bin/base/true");
  std::ofstream(f.dir / "bin/base/true", std::ios::app) << "x";
  auto c = check_host(plan_with("bin/base/true", digest), f.dir);
  ASSERT_EQ(c.problems.size(), 1u);
  EXPECT_NE(c.problems[0].find("changed since the bundle was made"), std::string::npos) << c.problems[0];
  EXPECT_NE(c.problems[0].find(" — "), std::string::npos) << c.problems[0];
  c = check_host(plan_with("bin/base/gone", digest), f.dir);
  ASSERT_EQ(c.problems.size(), 1u);
  EXPECT_NE(c.problems[0].find("missing"), std::string::npos) << c.problems[0];
}

TEST(host_check, loading_is_traced_not_run_and_a_file_that_cannot_run_is_named) {
  folder f;
  // /bin/false would exit 1 if it ran: traced by the loader it exits 0 before main.
  fs::copy_file("/bin/false", f.dir / "bin/base/false");
  EXPECT_EQ(load_problem(f.dir / "bin/base/false", f.dir / "lib"), "");
  fs::copy_file("/bin/true", f.dir / "bin/base/true");
  EXPECT_EQ(load_problem(f.dir / "bin/base/true", f.dir / "lib"), "");
  std::ofstream(f.dir / "bin/base/script") << "#!/bin/sh\n";
  EXPECT_NE(load_problem(f.dir / "bin/base/script", f.dir / "lib").find("not executable"), std::string::npos);
}

TEST(shared_libraries, the_host_provides_the_c_library_and_the_driver) {
  EXPECT_TRUE(provided_by_host("libc.so.6"));
  EXPECT_TRUE(provided_by_host("libm.so.6"));
  EXPECT_TRUE(provided_by_host("linux-vdso.so.1"));
  EXPECT_TRUE(provided_by_host("/lib64/ld-linux-x86-64.so.2"));
  EXPECT_TRUE(provided_by_host("libcuda.so.1"));
  EXPECT_FALSE(provided_by_host("libstdc++.so.6"));
  EXPECT_FALSE(provided_by_host("libfmt.so.9"));
  // /bin/true needs nothing beyond the C library.
  EXPECT_TRUE(bundled_libraries("/bin/true").empty());
}

}  // namespace
}  // namespace abtest::bundle
