// libFuzzer target: the benchmark-output parsers (design §4). The first byte picks gbench, json or
// lines; the rest is the child's output. Whatever a benchmark prints, the parser returns a status.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "harness/exec/parsers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  // The fixture's and the design's patterns: a pattern comes from the manifest, not the child.
  static constexpr std::string_view patterns[] = {R"(PLANTED_(?:TIMING|COUNT): (\w+) ([0-9.]+) ?(ms)?)",
                                                  R"(CUZK_TIMING: (\w+) ([0-9.]+) (ms))"};
  abtest::exec::parsed_output p;
  switch (data[0] % 4) {
    case 0: p = abtest::exec::parse_gbench("fuzz", text); break;
    case 1: p = abtest::exec::parse_json("fuzz", text); break;
    case 2: p = abtest::exec::parse_lines("fuzz", patterns[0], text); break;
    default: p = abtest::exec::parse_lines("fuzz", patterns[1], text); break;
  }
  // Stored metrics are finite numbers (SQLite REAL; the statistics take their logarithm).
  for (const auto& [name, value] : p.metrics)
    if (!std::isfinite(value)) __builtin_trap();
  return 0;
}
