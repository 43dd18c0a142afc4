// libFuzzer target: the readers of Valgrind's output files that `--counts` parses — cachegrind's
// (and callgrind's) format and DHAT's JSON. The first byte picks the reader ('d': DHAT, else
// cachegrind); the rest is the file. Neither may crash or throw; a cachegrind profile that parsed
// has a total for every event it names, and one that failed says why.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "harness/counts/cachegrind_file.hpp"
#include "harness/counts/dhat_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] == 'd') {
    (void)abtest::counts::parse_dhat(text);
    return 0;
  }
  const abtest::counts::cachegrind_profile p = abtest::counts::parse_cachegrind(text);
  if (p.error.empty())
    for (const auto& e : p.events)
      if (!p.totals.contains(e)) __builtin_trap();
  return 0;
}
