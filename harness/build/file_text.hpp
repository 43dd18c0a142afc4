// The whole of a small text file (configure stamps, CMake's replies, diffs); empty when unreadable.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace abtest {

inline std::string read_text_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace abtest
