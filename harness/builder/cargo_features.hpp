// A Cargo package's [features] table as `cargo metadata` reports it, and what a build's feature
// flags enable from it — so that a build's `--features` keep the crate's own `default` list in
// force, leave out only what a handed toggle level turns off, and say what each toggle resolved to
// (design §5).
//
//   const auto table = parse_cargo_features(metadata_json, crate / "Cargo.toml");  // nullopt: unreadable
//   const cargo_feature_flags f = feature_flags(*table, {"planted_null"}, {"planted_slow"});
//   f.no_default_features   // true: `default` enables planted_slow, which a handed level turns off
//   f.features              // {"planted_null", …default's other features}
//   f.enabled               // everything the build enables (closure of the above)
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace abtest {

using cargo_feature_table = std::map<std::string, std::vector<std::string>>;  // feature → what it enables

// The [features] of the package whose manifest_path is `cargo_toml`, from the JSON of
// `cargo metadata --no-deps --format-version 1`; nullopt when the text is not that JSON or has no
// such package. Never throws.
std::optional<cargo_feature_table> parse_cargo_features(const std::string& metadata_json, const std::filesystem::path& cargo_toml);

// The package features that `features` enable, themselves included (Cargo's rules: an entry names
// another feature of the package, `dep:NAME` or `NAME/FEATURE` enables nothing of this package's
// table; an optional dependency enabled implicitly is not a feature here).
std::set<std::string> feature_closure(const cargo_feature_table& table, const std::set<std::string>& features);

struct cargo_feature_flags {
  bool no_default_features = false;
  std::set<std::string> features;  // for --features
  std::set<std::string> enabled;   // what the build enables: the closure, `default` included when in force
};

// The flags that enable `wanted` with the package's `default` list in force, except `unwanted`
// (the features of handed toggle levels not chosen): where `default` enables one of them, the build
// takes --no-default-features and names instead the features of `default`'s closure that do not
// enable an unwanted one.
cargo_feature_flags feature_flags(const cargo_feature_table& table, const std::set<std::string>& wanted,
                                  const std::set<std::string>& unwanted);

}  // namespace abtest
