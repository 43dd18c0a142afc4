// What the nightly tests share: a scratch folder kept on failure, running a shell command with its
// output, reading results files through the store.
#pragma once

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace abtest::nightly_test {

namespace fs = std::filesystem;

inline std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct ran {
  int code = -1;
  std::string out;  // stdout and stderr together
};

// Runs `cmd` through /bin/sh (test-controlled strings only) and returns its exit code and output.
inline ran shell(const std::string& cmd) {
  ran r;
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), p)) > 0;) r.out.append(buf.data(), n);
  const int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// A temporary folder removed when the test passed, kept (and named) when it failed.
class scratch_test : public ::testing::Test {
 protected:
  void SetUp() override {
    char templ[] = "/tmp/abtest-nightly-XXXXXX";
    ASSERT_NE(::mkdtemp(templ), nullptr);
    dir_ = templ;
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
    else std::printf("kept %s\n", dir_.c_str());
  }
  fs::path dir_;
};

}  // namespace abtest::nightly_test
