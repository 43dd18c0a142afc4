// What a Google Benchmark program registers, from its `--benchmark_list_tests` output: the names,
// their families, and a filter for one family when a program registers many.
//
//   const auto l = parse_benchmark_list(run("bench --benchmark_list_tests"));
//   if (l.names.size() > many_benchmarks) command.push_back("--benchmark_filter=" + family_filter(l.families[0].name));
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace abtest {

// Above this many registered benchmarks, init's draft measures one family (a round runs them all).
inline constexpr std::size_t many_benchmarks = 10;

struct benchmark_family {
  std::string name;       // the name up to its first '/': "adler32" of "adler32/avx2/4096"
  std::size_t count = 0;  // registered benchmarks in it
};

struct benchmark_list {
  std::vector<std::string> names;          // one per line that reads as a name (no whitespace, starts
                                           // with a letter or '_'), in order: a banner is not one
  std::vector<benchmark_family> families;  // in order of first appearance
};

benchmark_list parse_benchmark_list(const std::string& list_output);

// A --benchmark_filter regex that selects exactly the family: "^adler32(/|$)", special
// characters escaped.
std::string family_filter(const std::string& family);

}  // namespace abtest
