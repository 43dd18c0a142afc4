// field-bench: Google Benchmark of the Fr / Fp operations (ns per operation, dependent chains).
//
//   field-bench --benchmark_filter=fr_mul
#include <benchmark/benchmark.h>

#include <random>

#include "ff/fp.hpp"
#include "ff/fr.hpp"

namespace {

// Each step depends on the previous result, so the time is latency per operation, not throughput.
template <class F>
void mul(benchmark::State& state) {
  std::mt19937_64 rng(1);
  F x = F::random(rng);
  const F y = F::random(rng);
  for (auto _ : state) {
    x = x * y;
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void sqr(benchmark::State& state) {
  std::mt19937_64 rng(2);
  F x = F::random(rng);
  for (auto _ : state) {
    x = x.sqr();
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void add(benchmark::State& state) {
  std::mt19937_64 rng(3);
  F x = F::random(rng);
  const F y = F::random(rng);
  for (auto _ : state) {
    x = x + y;
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void inverse(benchmark::State& state) {
  std::mt19937_64 rng(4);
  F x = F::random(rng);
  for (auto _ : state) {
    x = x.inverse() + F::one();
    benchmark::DoNotOptimize(x);
  }
}

BENCHMARK(mul<zk::fr>)->Name("fr_mul");
BENCHMARK(sqr<zk::fr>)->Name("fr_sqr");
BENCHMARK(add<zk::fr>)->Name("fr_add");
BENCHMARK(inverse<zk::fr>)->Name("fr_inverse");
BENCHMARK(mul<zk::fp>)->Name("fp_mul");
BENCHMARK(add<zk::fp>)->Name("fp_add");

}  // namespace

BENCHMARK_MAIN();
