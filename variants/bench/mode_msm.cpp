// porep-bench msm: one multi-scalar multiplication of 2^N points over G1 or G2 (metric msm_s).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
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

template <class A, class Encode>
std::pair<std::vector<double>, std::string> run(const A& g, size_t n, const std::vector<scalar_t>& scalars,
                                                const msm_options& opt, int iterations, Encode encode) {
  const std::vector<A> points = consecutive_multiples(g, n);
  std::vector<double> secs;
  std::string result;
  for (int i = 0; i < iterations; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = msm(points, scalars, opt);
    secs.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    groth16::digest d;
    for (uint8_t b : encode(r.to_affine())) d.add(uint64_t{b});
    result = d.hex();
  }
  return {secs, result};
}

}  // namespace

int mode_msm(int argc, char** argv) {
  CLI::App app{"time one Pippenger MSM of 2^N random scalars over G1 or G2", "porep-bench msm"};
  std::string group = "g1";
  unsigned lg_n = 16, threads = 0, wbits = 0;
  int iterations = 3;
  uint64_t seed = 1;
  bool json = false;
  app.add_option("--group", group, "g1 or g2")->check(CLI::IsMember({"g1", "g2"}))->capture_default_str();
  app.add_option("--lg-n", lg_n, "log2 of the number of points")->check(CLI::Range(0, 26))->capture_default_str();
  app.add_option("--threads", threads, "threads, 0 = all cores")->capture_default_str();
  app.add_option("--wbits", wbits, "window bits, 0 = msm_window_bits(n)")->check(CLI::Range(0, 20))->capture_default_str();
  app.add_option("--iterations", iterations, "timed runs; msm_s is their median")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--seed", seed, "scalar seed")->capture_default_str();
  app.add_flag("--json", json, "one DESIGN §4 json object on stdout");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  const size_t n = size_t{1} << lg_n;
  std::mt19937_64 rng(seed);
  std::vector<scalar_t> scalars(n);
  for (auto& k : scalars) fr::random(rng).to_canonical(k.data());
  const msm_options opt{wbits == 0 ? msm_window_bits(n) : wbits, threads};
  auto [secs, result] = group == "g1" ? run(g1_generator(), n, scalars, opt, iterations, g1_to_compressed)
                                      : run(g2_generator(), n, scalars, opt, iterations, g2_to_compressed);
  std::vector<double> sorted = secs;
  std::sort(sorted.begin(), sorted.end());
  const double msm_s = sorted.size() % 2 ? sorted[sorted.size() / 2]
                                         : (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]) / 2;
  if (json) {
    const nlohmann::json j = {{"metrics", {{"msm_s", msm_s}}},
                              {"checks", {{"digest", result}}},
                              {"backend", "cpu"},
                              {"context", {{"group", group}, {"lg_n", lg_n}, {"threads", resolve_threads(threads)},
                                           {"wbits", opt.wbits}, {"iterations", iterations}, {"iteration_s", secs}}}};
    std::cout << j.dump() << '\n';
  } else {
    fmt::print("msm {} 2^{}: {:.3f} s median of {} ({} threads, wbits {}), result digest {}\n", group, lg_n, msm_s,
               iterations, resolve_threads(threads), opt.wbits, result);
  }
  return 0;
}

}  // namespace zk::bench
