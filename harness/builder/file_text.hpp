// The whole of a small text file (configure stamps, CMake's replies, diffs), empty when unreadable;
// the first line and the last lines of a tool's output, for error messages and log tails.
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

inline std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// The last n lines of `text`, trailing blank space left out.
inline std::string last_lines(const std::string& text, std::size_t n) {
  std::size_t at = text.size();
  while (at > 0 && (text[at - 1] == '\n' || text[at - 1] == ' ')) --at;
  for (std::size_t lines = 0; at > 0 && lines < n; --at)
    if (text[at - 1] == '\n') ++lines;
  return text.substr(at == 0 ? 0 : at + 1);
}

}  // namespace abtest
