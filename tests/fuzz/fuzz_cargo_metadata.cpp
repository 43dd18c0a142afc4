// libFuzzer target: the [features] table read from `cargo metadata` output (design §5), and the
// closure and flags computed from whatever table it yields. Never throws, always terminates.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include "harness/builder/cargo_features.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto table = abtest::parse_cargo_features(text, "/crate/Cargo.toml");
  if (!table) return 0;
  std::set<std::string> unwanted;
  for (const auto& [name, _] : *table)
    if (name != "default") unwanted.insert(name);
  const auto f = abtest::feature_flags(*table, {}, unwanted);
  // With every feature unwanted, the flags enable none of them, whatever `default` lists.
  for (const auto& x : f.enabled)
    if (unwanted.count(x)) __builtin_trap();
  return 0;
}
