// libFuzzer target: abtest::parse_manifest on arbitrary bytes. Bad input must end as a
// user_error (exit 2 with a message), never as a crash, a sanitizer report or another exception.
#include <cstddef>
#include <cstdint>
#include <string>

#include "harness/core/errors.hpp"
#include "harness/core/manifest.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const abtest::manifest m = abtest::parse_manifest(std::string(reinterpret_cast<const char*>(data), size), "/fuzz/abtest.json");
    // What the harness derives from an accepted manifest must stay inside its contract too.
    for (const auto& t : m.toggles)
      if (t.levels.size() < 2) __builtin_trap();
  } catch (const abtest::user_error&) {
  }
  return 0;
}
