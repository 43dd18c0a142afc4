// cmake_options: which options are benchmark switches, build settings or toggles, and what a failed
// configure's output says to install.
#include "harness/builder/cmake_options.hpp"

#include <gtest/gtest.h>

namespace abtest {
namespace {

TEST(cmake_options, zlib_ng_options_by_role) {
  for (const char* name : {"WITH_BENCHMARKS", "WITH_BENCHMARK_APPS", "BUILD_BENCHMARKS", "FOO_BENCH", "with_benchmarks"})
    EXPECT_EQ(option_role_of(name), option_role::benchmarks) << name;
  for (const char* name : {"WITH_GTEST", "WITH_FUZZERS", "WITH_SANITIZER", "WITH_MAINTAINER_WARNINGS", "WITH_CODE_COVERAGE",
                           "ZLIB_ENABLE_TESTS", "ZLIBNG_ENABLE_TESTS", "INSTALL_UTILS", "BUILD_SHARED_LIBS", "BENCHMARK_ENABLE_TESTING",
                           "FOO_BUILD_DOCS", "FOO_EXAMPLES", "USE_SYSTEM_ZLIB", "ABTEST_HARNESS_PCH", "FOO_UNITY_BUILD"})
    EXPECT_EQ(option_role_of(name), option_role::build_setting) << name;
  for (const char* name : {"WITH_RUNTIME_CPU_DETECTION", "WITH_NATIVE_INSTRUCTIONS", "WITH_AVX2", "WITH_OPTIM", "ZLIB_COMPAT",
                           "WITH_INFLATE_STRICT", "LATEST", "CONTEST_MODE"})  // LATEST, CONTEST: TEST only as a word
    EXPECT_EQ(option_role_of(name), option_role::toggle) << name;
}

TEST(cmake_options, find_package_in_config_mode_names_the_debian_package) {
  const std::string out = R"(CMake Error at test/CMakeLists.txt:122 (find_package):
  By not providing "FindGTest.cmake" in CMAKE_MODULE_PATH this project has
  asked CMake to find a package configuration file provided by "GTest", but
  CMake did not find one.

  Could not find a package configuration file provided by "GTest" with any of
  the following names:
)";
  const auto hint = missing_package_hint(out);
  ASSERT_TRUE(hint);
  EXPECT_NE(hint->find("the package GTest"), std::string::npos) << *hint;
  EXPECT_NE(hint->find("sudo apt-get install libgtest-dev"), std::string::npos) << *hint;
}

TEST(cmake_options, a_find_module_and_pkg_config_are_read_too) {
  auto hint = missing_package_hint("CMake Error at /usr/share/cmake-3.25/Modules/FindPackageHandleStandardArgs.cmake:230 (message):\n"
                                   "  Could NOT find PNG (missing: PNG_LIBRARY PNG_PNG_INCLUDE_DIR)\n");
  ASSERT_TRUE(hint);
  EXPECT_NE(hint->find("install libpng-dev"), std::string::npos) << *hint;
  hint = missing_package_hint("-- Checking for module 'libfrobnicate'\n--   No package 'libfrobnicate' found\n");
  ASSERT_TRUE(hint);
  EXPECT_NE(hint->find("pkg-config package libfrobnicate"), std::string::npos) << *hint;
  EXPECT_NE(hint->find("apt-cache search libfrobnicate"), std::string::npos) << *hint;  // not a package it knows
}

TEST(cmake_options, an_offline_fetch_names_the_repository_package) {
  const std::string out = "Cloning into 'benchmark-src'...\n"
                          "fatal: unable to access 'https://github.com/google/benchmark.git/': Could not resolve host: github.com\n"
                          "CMake Error at benchmark-subbuild/benchmark-populate-prefix/tmp/benchmark-populate-gitclone.cmake:31 (message):\n"
                          "  Failed to clone repository: 'https://github.com/google/benchmark.git'\n";
  const auto hint = missing_package_hint(out);
  ASSERT_TRUE(hint);
  EXPECT_NE(hint->find("install libbenchmark-dev"), std::string::npos) << *hint;
  EXPECT_NE(hint->find("download"), std::string::npos) << *hint;
}

TEST(cmake_options, an_unrelated_failure_names_nothing) {
  EXPECT_FALSE(missing_package_hint("CMake Error at CMakeLists.txt:3 (message):\n  unsupported compiler\n"));
}

}  // namespace
}  // namespace abtest
