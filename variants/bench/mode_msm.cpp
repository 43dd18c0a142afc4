// porep-bench msm: one multi-scalar multiplication of 2^N points over G1 or G2 (metric msm_s).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <random>
#include <vector>

#include "bench/mode.hpp"
#include "ec/batch_affine.hpp"
#include "ec/parallel_for.hpp"
#include "ec/serialize.hpp"
#include "groth16/digest.hpp"
#include "msm/msm.hpp"

namespace zk::bench {
namespace {

// Points G, 2G, 3G, … (one addition each, then one batch inversion): the MSM's cost does not
// depend on which points it gets, and this is far cheaper to set up than random multiples.
template <class A>
std::vector<A> consecutive_multiples(const A& g, size_t n) {
  using J = jacobian_t<typename A::field, typename A::curve>;
  std::vector<J> js(n);
  J acc = J::from_affine(g);
  for (size_t i = 0; i < n; ++i) {
    js[i] = acc;
    acc += g;
  }
  std::vector<A> out(n);
  batch_to_affine<J>(js, out);
  return out;
}

// CPU seconds of the whole process (all threads): on a loaded host it leaves out the time the
// scheduler gave to others, so one-thread figures stay comparable where wall time is not.
double process_cpu_s() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

struct timings {
  std::vector<double> wall_s, cpu_s;
  std::string result;
};

template <class A, class Encode>
timings run(const A& g, size_t n, const std::vector<scalar_t>& scalars,
                                                const msm_options& opt, int iterations, Encode encode) {
  const std::vector<A> points = consecutive_multiples(g, n);
  timings out;
  for (int i = 0; i < iterations; ++i) {
    const double c0 = process_cpu_s();
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = msm(points, scalars, opt);
    out.wall_s.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    out.cpu_s.push_back(process_cpu_s() - c0);
    groth16::digest d;
    for (uint8_t b : encode(r.to_affine())) d.add(uint64_t{b});
    out.result = d.hex();
  }
  return out;
}

}  // namespace

int mode_msm(int argc, char** argv) {
  CLI::App app{"time one Pippenger MSM of 2^N random scalars over G1 or G2", "porep-bench msm"};
  std::string group = "g1";
  unsigned lg_n = 16, threads = 0, wbits = 0;
  int iterations = 3;
  uint64_t seed = 1;
  bool json = false, portable = false;
  app.add_option("--group", group, "g1 or g2")->check(CLI::IsMember({"g1", "g2"}))->capture_default_str();
  app.add_option("--lg-n", lg_n, "log2 of the number of points")->check(CLI::Range(0, 26))->capture_default_str();
  app.add_option("--threads", threads, "threads, 0 = all cores")->capture_default_str();
  app.add_option("--wbits", wbits, "window bits, 0 = msm_window_bits(n)")->check(CLI::Range(0, 20))->capture_default_str();
  app.add_option("--iterations", iterations, "timed runs; msm_s (wall) and msm_cpu_s (process CPU) are their medians")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--seed", seed, "scalar seed")->capture_default_str();
  app.add_flag("--json", json, "one design §4 json object on stdout");
  app.add_flag("--portable", portable, "field products on the portable code even where MULX/ADX exist (to compare)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
#if defined(ZK_MULX_ASM)
  if (portable) zk::x86::use_mulx_adx = false;
#endif
  const size_t n = size_t{1} << lg_n;
  std::mt19937_64 rng(seed);
  std::vector<scalar_t> scalars(n);
  for (auto& k : scalars) fr::random(rng).to_canonical(k.data());
  const msm_options opt{wbits == 0 ? msm_window_bits(n) : wbits, threads};
  const timings t = group == "g1" ? run(g1_generator(), n, scalars, opt, iterations, g1_to_compressed)
                                   : run(g2_generator(), n, scalars, opt, iterations, g2_to_compressed);
  const double msm_s = median(t.wall_s), msm_cpu_s = median(t.cpu_s);
  if (json) {
    const nlohmann::json j = {{"metrics", {{"msm_s", msm_s}, {"msm_cpu_s", msm_cpu_s}}},
                              {"checks", {{"digest", t.result}}},
                              {"backend", "cpu"},
                              {"context", {{"group", group}, {"lg_n", lg_n}, {"threads", resolve_threads(threads)},
                                           {"wbits", opt.wbits}, {"iterations", iterations}, {"iteration_s", t.wall_s},
                                           {"mulx_adx", zk::mulx_adx_in_use()}}}};
    std::cout << j.dump() << '\n';
  } else {
    fmt::print("msm {} 2^{}: {:.3f} s wall, {:.3f} s CPU, medians of {} ({} threads, wbits {}, {} field product), result digest {}\n",
               group, lg_n, msm_s, msm_cpu_s, iterations, resolve_threads(threads), opt.wbits,
               zk::mulx_adx_in_use() ? "MULX/ADX" : "portable", t.result);
  }
  return 0;
}

}  // namespace zk::bench
