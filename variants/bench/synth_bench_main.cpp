// synth-bench: Google Benchmark timing of circuit synthesis only (the manifest's `synth` benchmark).
//
//   synth-bench --benchmark_format=json --preset=small [--seed=N] [--iterations=N]
//
// --iterations=N fixes the number of timed syntheses (default: Google Benchmark's own choice, by
// --benchmark_min_time). The manifest fixes it so that every arm does the same work per process:
// otherwise a faster build runs more iterations and its process wall_s reads SLOWER.
// Inputs are generated and counted before benchmarking (as cuzk's synth-only loads C1 output
// first). One benchmark, `synthesis`: every partition of the preset synthesized with this build's
// A1 / A2 levels; the assignments are freed with the timer paused. The context carries
// abtest_digest (design §4), abtest_backend and the LC shape beside the real PoRep figures.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <charconv>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/synth_job.hpp"

namespace {

struct options {
  std::string preset = "small";
  uint64_t seed = 1;
  int iterations = 0;  // 0 = Google Benchmark decides
};

// A whole decimal number, or invalid_argument naming the flag.
uint64_t number(const std::string& flag, const std::string& text) {
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    throw std::invalid_argument(flag + " takes a whole number, got '" + text + "'");
  return v;
}

// Takes --preset=NAME and --seed=N out of argv (Google Benchmark rejects flags it does not know).
options take_own_flags(int& argc, char** argv) {
  options o;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--preset=", 0) == 0) {
      o.preset = arg.substr(9);
    } else if (arg == "--preset" && i + 1 < argc) {
      o.preset = argv[++i];
    } else if (arg.rfind("--seed=", 0) == 0) {
      o.seed = number("--seed", arg.substr(7));
    } else if (arg.rfind("--iterations=", 0) == 0) {
      const uint64_t n = number("--iterations", arg.substr(13));
      if (n < 1 || n > 1'000'000) throw std::invalid_argument("--iterations must be 1…1000000, got " + arg.substr(13));
      o.iterations = static_cast<int>(n);
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const options opt = take_own_flags(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

    static const zk::bench::synth_job job = zk::bench::prepare_synth_job(opt.preset, opt.seed);
    const zk::bench::synth_result first = zk::bench::run_synthesis(job, true);  // untimed: the digest
    const zk::r1cs::lc_shape& s = job.shape;
    benchmark::AddCustomContext("abtest_digest", first.digest);
    benchmark::AddCustomContext("abtest_backend", "cpu");
    benchmark::AddCustomContext("preset", opt.preset);
    benchmark::AddCustomContext("seed", std::to_string(opt.seed));
    benchmark::AddCustomContext("a1_inline_cap", std::to_string(zk::bench::a1_inline_cap()));
    benchmark::AddCustomContext("a2_presize", zk::bench::a2_presize() ? "1" : "0");
    benchmark::AddCustomContext("partitions", std::to_string(job.partitions()));
    benchmark::AddCustomContext("constraints_per_partition", std::to_string(job.hint.num_constraints));
    benchmark::AddCustomContext("aux_per_partition", std::to_string(job.hint.num_aux));
    benchmark::AddCustomContext("lc_shape", zk::bench::describe_shape(s));
    benchmark::AddCustomContext("lc_terms_per_row", fmt::format("{:.3f}/{:.3f}/{:.3f}", s.mean_terms(0), s.mean_terms(1), s.mean_terms(2)));
    benchmark::AddCustomContext("lc_short_share", fmt::format("{:.3f}/{:.3f}/{:.3f}", s.short_share(0), s.short_share(1), s.short_share(2)));
    benchmark::AddCustomContext("aux_density_a_b", fmt::format("{:.4f}/{:.4f}", s.a_aux_density(), s.b_aux_density()));

    // Wall time of the synthesis alone: the timer pauses before the assignments are freed.
    auto* bench = benchmark::RegisterBenchmark("synthesis", [](benchmark::State& state) {
      double timed_s = 0, cpu_s = 0;
      for (auto _ : state) {
        const auto r = zk::bench::run_synthesis(job, false, [&state] { state.PauseTiming(); });
        timed_s += r.seconds;
        cpu_s += r.cpu_seconds;
        state.ResumeTiming();
      }
      // Metric synth.synthesis_cpu_s: CPU seconds per synthesis, for verdicts on a loaded host.
      state.counters["cpu_s"] = cpu_s / static_cast<double>(state.iterations());
      const double constraints = static_cast<double>(job.total_constraints());
      state.counters["constraints"] = constraints;
      // Single-threaded synthesis: this is also the per-thread throughput.
      state.counters["constraints_per_s"] = constraints * static_cast<double>(state.iterations()) / timed_s;
    });
    bench->Unit(benchmark::kMillisecond);
    if (opt.iterations > 0) bench->Iterations(opt.iterations);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s — check the preset and the input file\n", e.what());
    return 4;
  }
}
