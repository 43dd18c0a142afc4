// field-bench: Google Benchmark of the Fr / Fp operations (ns per operation, dependent chains) and
// of the Fr NTT (one transform of 2^lg elements, on 1 thread and on all cores).
//
//   field-bench --benchmark_filter=fr_mul
//   field-bench --benchmark_filter='ntt/20/'      # NTT 2^20: ntt/20/1 (one thread), ntt/20/0 (all)
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "ntt/ntt.hpp"

namespace {

// Each step depends on the previous result, so the time is latency per operation, not throughput.
// x and y are drawn from `seed`, x first; an operation that takes no second operand ignores y.
template <class F, class Step>
void chain(benchmark::State& state, std::uint64_t seed, Step step) {
  std::mt19937_64 rng(seed);
  F x = F::random(rng);
  const F y = F::random(rng);
  for (auto _ : state) {
    x = step(x, y);
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void mul(benchmark::State& state) { chain<F>(state, 1, [](const F& x, const F& y) { return x * y; }); }
template <class F>
void sqr(benchmark::State& state) { chain<F>(state, 2, [](const F& x, const F&) { return x.sqr(); }); }
template <class F>
void add(benchmark::State& state) { chain<F>(state, 3, [](const F& x, const F& y) { return x + y; }); }
template <class F>
void inverse(benchmark::State& state) {
  chain<F>(state, 4, [](const F& x, const F&) { return x.inverse() + F::one(); });
}

// Forward NTT of 2^lg random elements; the input is restored outside the timed region. Arguments:
// lg, threads (0 = all cores).
void ntt(benchmark::State& state) {
  const auto n = std::size_t{1} << state.range(0);
  const auto threads = static_cast<unsigned>(state.range(1));
  std::mt19937_64 rng(5);
  std::vector<zk::fr> input(n), a(n);
  for (auto& x : input) x = zk::fr::random(rng);
  for (auto _ : state) {
    state.PauseTiming();
    a = input;
    state.ResumeTiming();
    zk::ntt(a, threads);
    benchmark::DoNotOptimize(a.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

BENCHMARK(mul<zk::fr>)->Name("fr_mul");
BENCHMARK(sqr<zk::fr>)->Name("fr_sqr");
BENCHMARK(add<zk::fr>)->Name("fr_add");
BENCHMARK(inverse<zk::fr>)->Name("fr_inverse");
BENCHMARK(mul<zk::fp>)->Name("fp_mul");
BENCHMARK(add<zk::fp>)->Name("fp_add");
BENCHMARK(ntt)->ArgsProduct({{16, 18, 20}, {1, 0}})->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
