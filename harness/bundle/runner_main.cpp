// DIR/run: a bundle's runner (runner.hpp). Needs only the C library: libstdc++ and SQLite are linked
// in, fmt's compiled part too (fmt_definitions.cpp).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>

#include "harness/bundle/runner.hpp"

int main(int argc, char** argv) {
  using namespace abtest::bundle;
  runner_options o;
  std::error_code ec;
  o.dir = std::filesystem::canonical("/proc/self/exe", ec).parent_path();
  CLI::App app{"Runs this bundle's experiment: checks the host, measures the plan's rounds into OUT/results.db "
               "(README.txt beside it says more)"};
  std::string out;
  double budget_s = -1;
  app.add_option("--out", out, "folder of results.db (default: out/ in the bundle folder); the same OUT resumes");
  app.add_option("--budget-s", budget_s, "stop after the last whole round that fits in this many seconds (partial: run again to resume)")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--check", o.check_only, "check the host only: programs load, digests match, devices found");
  app.add_flag("-q,--quiet", o.quiet, "no progress lines, no verdict table");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : static_cast<int>(runner_exit::usage);
  }
  if (!out.empty()) o.out = std::filesystem::absolute(out);
  if (budget_s >= 0) o.budget_s = budget_s;
  try {
    return run_bundle(o);
  } catch (const runner_error& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {} — the bundle cannot be run as it is; make it again with `abtest … --bundle`\n", e.what());
    return static_cast<int>(runner_exit::usage);
  }
}
