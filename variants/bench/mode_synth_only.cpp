// porep-bench synth-only: synthesis of every partition, N times in one process (cuzk-bench synth-only).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sys/resource.h>

#include "bench/mode.hpp"
#include "bench/synth_job.hpp"

namespace zk::bench {
namespace {

double median(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end());
  const size_t n = xs.size();
  return n % 2 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
}

}  // namespace

int mode_synth_only(int argc, char** argv) {
  CLI::App app{"time circuit synthesis of every partition of a preset (no proving)", "porep-bench synth-only"};
  std::string preset = "small";
  int iterations = 3;
  uint64_t seed = 1;
  std::optional<std::string> input;
  bool json = false;
  bool count_only = false;
  app.add_option("--preset", preset, "tiny, small, medium, large")->capture_default_str();
  app.add_option("--iterations", iterations, "timed syntheses; the first is reported apart as cold")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--seed", seed, "input generation seed")->capture_default_str();
  app.add_option("--input", input, "circuit inputs written by `porep-bench gen-vanilla` instead of generating");
  app.add_flag("--json", json, "one design §4 json object on stdout");
  app.add_flag("--count-only", count_only, "only the counting pass: sizes and LC shape (any preset, porep32g too)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  try {
    const synth_job job = prepare_synth_job(preset, seed, input, count_only);
    if (count_only) {
      fmt::print("preset {}: {} partitions x {} constraints ({} aux, {} inputs)\nlc shape: {}\n", preset,
                 job.partitions(), job.hint.num_constraints, job.hint.num_aux, job.hint.num_inputs,
                 describe_shape(job.shape));
      return 0;
    }
    std::vector<double> seconds;
    std::string digest;
    for (int i = 0; i < iterations; ++i) {
      const synth_result r = run_synthesis(job, i == 0);
      if (i == 0) digest = r.digest;
      seconds.push_back(r.seconds);
      if (!json) std::fprintf(stderr, "synth-only: iteration %d/%d %.3f s\n", i + 1, iterations, r.seconds);
    }
    const double synthesis_s = median(seconds);
    const double per_s = static_cast<double>(job.total_constraints()) / synthesis_s;
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    if (json) {
      const nlohmann::json out = {
          {"metrics", {{"synthesis_s", synthesis_s}, {"first_synthesis_s", seconds.front()},
                       {"constraints_per_s", per_s}}},
          {"checks", {{"digest", digest}}},
          {"backend", "cpu"},
          {"context", {{"preset", preset}, {"seed", job.vanilla.seed}, {"iterations", iterations},
                       {"partitions", job.partitions()}, {"constraints_per_partition", job.hint.num_constraints},
                       {"aux_per_partition", job.hint.num_aux}, {"a1_inline_cap", a1_inline_cap()},
                       {"a2_presize", a2_presize()}, {"threads", 1}, {"iteration_s", seconds},
                       {"lc_shape", describe_shape(job.shape)}, {"maxrss_mib", ru.ru_maxrss / 1024.0}}}};
      std::cout << out.dump() << '\n';
    } else {
      fmt::print("preset {}: {} partitions x {} constraints, A1={} A2={}\n", preset, job.partitions(),
                 job.hint.num_constraints, a1_inline_cap(), a2_presize() ? "on" : "off");
      fmt::print("lc shape: {}\n", describe_shape(job.shape));
      fmt::print("synthesis: {:.3f} s median of {} ({:.2f} M constraints/s, 1 thread), digest {}\n", synthesis_s,
                 iterations, per_s / 1e6, digest);
    }
    return 0;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s — regenerate the input with porep-bench gen-vanilla\n", e.what());
    return 4;
  }
}

}  // namespace zk::bench
