// --bundle DIR: the builder options of bundle builds and the bundle written in place of a measurement.
#include "harness/commands/bundle_flag.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <iostream>
#include <ranges>

#include "db/ids.hpp"
#include "harness/bundle/bundle_writer.hpp"
#include "harness/core/errors.hpp"

namespace abtest::cli {
namespace fs = std::filesystem;

void check_bundle_flags(const std::string& dir, const evidence_flags& ev, const std::string& simulate, bool resume) {
  if (dir.empty()) return;
  if (!simulate.empty()) throw usage_error("--bundle builds real programs: leave out --simulate");
  if (resume) throw usage_error("--bundle makes a new experiment: a bundle resumes on its host (run it again with the same --out)");
  if (ev.counts) throw usage_error("--counts runs Valgrind here; a bundle measures elsewhere — leave out --counts");
  if (ev.layouts > 0) throw usage_error("--layouts relinks in the build folders; a bundle does not carry them — leave out --layouts");
}

builder_options bundle_builder_options(const manifest& m, builder_options options) {
  options.build_root = m.state_dir() / "bundle-build";
  options.extra_cmake_args.insert(options.extra_cmake_args.end(), m.build.bundle_args.begin(), m.build.bundle_args.end());
  options.without_cuda = false;
  return options;
}

int write_bundle_for(const manifest& m, const run_plan& plan, const std::string& dir, const global_options& g,
                     const std::vector<std::string>& notes, const nlohmann::json& experiment_config) {
  std::error_code ec;
  const fs::path runner = fs::canonical("/proc/self/exe", ec).parent_path() / "abtest-runner";
  if (ec || !fs::exists(runner))
    throw usage_error(fmt::format("the bundle runner {} is not built — build the target abtest-runner (./abtest builds it)",
                                  runner.string()));
  bundle::bundle_request request;
  request.experiment_id = db::new_experiment_id(db::parse<db::experiment_kind>(plan.kind), std::chrono::system_clock::now());
  request.command_line = g.command_line;
  request.plan = plan;
  request.runner = runner;
  request.experiment_config = experiment_config;
  const fs::path folder = fs::absolute(dir);
  bundle::bundle_summary s;
  try {
    s = bundle::write_bundle(folder, m, request);
  } catch (const std::runtime_error& e) {
    throw usage_error_from(e);
  }
  const auto keys = plan.arms | std::views::transform([](const arm_plan& a) { return a.key; });
  if (g.json) {
    std::cout << nlohmann::json({{"bundle", folder.string()}, {"experiment", request.experiment_id},
                                 {"arms", std::vector<std::string>(keys.begin(), keys.end())}, {"benchmarks", plan.benchmarks},
                                 {"rounds", plan.rounds}, {"warmups", plan.warmups}, {"seed", plan.seed},
                                 {"programs", s.programs}, {"libraries", s.libraries}, {"bytes", s.bytes}, {"notes", notes}})
                     .dump(2)
              << "\n";
    return 0;
  }
  if (g.quiet) return 0;
  for (const auto& n : notes) fmt::print("{}\n", n);
  fmt::print("bundle {}: experiment {}, {} arms ({}) × {} benchmark(s), {} warm-up + {} rounds, seed {}\n", folder.string(),
             request.experiment_id, plan.arms.size(), fmt::join(keys, ", "), plan.benchmarks.size(), plan.warmups, plan.rounds,
             plan.seed);
  fmt::print("  {} program(s), {} shared librar{} beside them, {:.1f} MiB in all\n", s.programs, s.libraries,
             s.libraries == 1 ? "y" : "ies", static_cast<double>(s.bytes) / (1 << 20));
  fmt::print("  on the host that measures: {}/run --check, then {}/run --out OUT\n", folder.string(), folder.string());
  fmt::print("  back here: abtest import OUT (README.txt in the folder says more)\n");
  return 0;
}

}  // namespace abtest::cli
