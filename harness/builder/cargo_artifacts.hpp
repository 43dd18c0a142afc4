// The programs a `cargo build --message-format=json…` made, read from Cargo's own messages: where
// each bin and bench executable is (a bench's file name carries a hash that only Cargo knows).
//
//   for (const auto& a : cargo_executables(output))   // output: the build's stdout, JSON lines among text
//     if (a.kind == "bench" && a.name == "synth") copy(a.executable, bin / "synth");
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace abtest {

struct cargo_executable {
  std::string kind;                      // "bin" or "bench"
  std::string name;                      // the target's name, as in [[bin]] / [[bench]] or the file stem
  std::filesystem::path executable;      // as Cargo reports it (absolute)
  std::filesystem::path manifest_path;   // the package's Cargo.toml (which workspace member)
};

// Every `compiler-artifact` message with an executable whose target is a bin or a bench, in the
// order they come. Lines that are not such JSON messages (Cargo's and rustc's text, other
// messages, a broken line) are skipped; this never throws on its input.
std::vector<cargo_executable> cargo_executables(std::string_view messages);

}  // namespace abtest
