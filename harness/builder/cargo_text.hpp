// Cargo's texts as abtest reads them: the programs a `cargo build --message-format=json…` made,
// from Cargo's own messages (a bench's file name carries a hash that only Cargo knows), and a
// bench's harness from its package's Cargo.toml.
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

// How a bench target measures, from its package's dependencies (normal or dev) and its `harness`
// key: Criterion, divan or bencher with `harness = false` → that library (bencher, the stable-Rust
// port of libtest's #[bench], prints libtest's lines); `harness = false` otherwise → the program's
// own output; the default harness → libtest's `#[bench]`.
enum class bench_harness { criterion, divan, bencher, libtest, own };
struct bench_libraries {
  bool criterion = false, divan = false, bencher = false;  // in the package's (dev-)dependencies
};
bench_harness bench_harness_of(bool harness_off, const bench_libraries& libraries);

// Whether the `[[bench]]` table named `bench` in a Cargo.toml's text says `harness = false`. A bench
// it does not declare (benches/NAME.rs found by Cargo) has the default harness.
bool bench_harness_off(std::string_view cargo_toml, std::string_view bench);

}  // namespace abtest
