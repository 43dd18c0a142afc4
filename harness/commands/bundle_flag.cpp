// --bundle DIR: the builder options of bundle builds and the bundle written in place of a measurement.
#include "harness/commands/bundle_flag.hpp"

#include <fmt/format.h>

#include <chrono>

#include "db/ids.hpp"
#include "harness/bundle/bundle_writer.hpp"
#include "harness/core/errors.hpp"
#include "harness/report/bundle_output.hpp"

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
  report::bundle_written w{folder.string(), request.experiment_id, {}, plan.benchmarks, plan.rounds, plan.warmups, plan.seed,
                           s.programs, s.libraries, static_cast<std::int64_t>(s.bytes), notes};
  for (const auto& arm : plan.arms) w.arms.push_back(arm.key);
  print_result(g, w);
  return 0;
}

}  // namespace abtest::cli
