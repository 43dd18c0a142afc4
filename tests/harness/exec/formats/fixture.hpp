// The real tools' outputs checked in under tests/fixtures/formats/<tool>/, for the format tests.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace abtest::exec::test {

inline std::filesystem::path fixture_path(const std::string& relative) {
  return std::filesystem::path(ABTEST_FORMAT_FIXTURES) / relative;
}

// The bytes of a fixture file; empty (and the test fails on its first expectation) when absent.
inline std::string fixture(const std::string& relative) {
  std::ifstream in(fixture_path(relative), std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return std::move(out).str();
}

}  // namespace abtest::exec::test
