// libFuzzer target: abtest's readers of Cargo's texts — the JSON messages of a build
// (cargo_executables) and a bench's `harness` key in a Cargo.toml (bench_harness_off). The first
// byte picks the reader; the rest is the text. Neither may crash, throw or report a bench it was
// not asked about.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "harness/builder/cargo_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] % 2 == 0) {
    for (const auto& a : abtest::cargo_executables(text))
      if (a.kind != "bin" && a.kind != "bench") __builtin_trap();
  } else {
    (void)abtest::bench_harness_off(text, "synth");
    (void)abtest::bench_harness_off(text, "");
  }
  return 0;
}
