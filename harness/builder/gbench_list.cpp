// Parsing `--benchmark_list_tests` output into names and families.
#include "harness/builder/gbench_list.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <string_view>

namespace abtest {

benchmark_list parse_benchmark_list(const std::string& list_output) {
  benchmark_list l;
  std::istringstream in(list_output);
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    // A benchmark's name has no whitespace and starts like an identifier; a program may print a
    // banner of its own on stdout too (tarantool/small's small.perftest: a box of '*' and prose).
    if (line.empty() || !(std::isalpha(static_cast<unsigned char>(line[0])) || line[0] == '_') ||
        line.find_first_of(" \t") != std::string::npos)
      continue;
    l.names.push_back(line);
    const std::string family = line.substr(0, line.find('/'));
    auto it = std::find_if(l.families.begin(), l.families.end(), [&](const benchmark_family& f) { return f.name == family; });
    if (it == l.families.end()) l.families.push_back({family, 1});
    else ++it->count;
  }
  return l;
}

std::string family_filter(const std::string& family) {
  std::string out = "^";
  for (char c : family) {
    if (std::string_view(".[]{}()\\*+?^$|").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out + "(/|$)";
}

}  // namespace abtest
