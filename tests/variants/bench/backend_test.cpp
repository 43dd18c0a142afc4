// porep-bench --backend cuda on a host without a usable GPU: exit 4 with the reason, before any
// setup (no parameter cache is written). Skipped where a device is available.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu/api.hpp"

namespace {

struct run_result {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

run_result run(const std::string& command) {
  run_result r;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf;
  while (const size_t got = std::fread(buf.data(), 1, buf.size(), pipe)) r.output.append(buf.data(), got);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

class backend_test : public ::testing::TestWithParam<const char*> {};

TEST_P(backend_test, cuda_without_a_device_exits_4_before_setup) {
  std::string why;
  if (zk::gpu::device_available(&why)) GTEST_SKIP() << "a GPU is available here: --backend cuda would prove";
  const auto cache = std::filesystem::temp_directory_path() /
                     ("abtest_backend_test_" + std::to_string(::getpid()) + "_" + GetParam());
  std::filesystem::remove_all(cache);
  const run_result r = run(std::string(ABTEST_POREP_BENCH) + " " + GetParam() +
                           " --preset tiny --backend cuda --json --param-cache " + cache.string());
  EXPECT_EQ(r.exit_code, 4) << r.output;
  EXPECT_NE(r.output.find("error: --backend cuda: " + why + " — use --backend cpu"), std::string::npos) << r.output;
  const auto first = r.output.find("--backend cpu");
  EXPECT_EQ(r.output.find("--backend cpu", first + 1), std::string::npos) << "the advice is given twice:\n" << r.output;
  EXPECT_EQ(r.output.find("\"metrics\""), std::string::npos) << "a report was printed:\n" << r.output;
  EXPECT_FALSE(std::filesystem::exists(cache)) << "the parameters were set up before the backend was checked";
  std::filesystem::remove_all(cache);
}

INSTANTIATE_TEST_SUITE_P(modes, backend_test, ::testing::Values("single", "batch"));

}  // namespace
