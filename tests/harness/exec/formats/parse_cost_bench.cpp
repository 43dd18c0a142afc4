// The parsing cost per sample: each output format on ~1 MiB of its own kind of output (goal: under
// 1 ms per MiB, so the harness's overhead stays where it is). A benchmark, not a test:
//   build/ci/tests/harness/exec/abtest_parse_cost_bench --benchmark_min_time=0.3
// CPU ms per MiB on the shared 2-core host at load ≈ 10, nlohmann → simdjson run back to back:
// gbench 31.7 → 11.3, json 13.3 → 1.9, json_extractor_jsonl 30.6 → 8.3, hyperfine 17.7 → 2.0,
// pytest-benchmark 17.5 → 1.9; the parse alone of the gbench input: nlohmann 13.2, simdjson 0.53.
// Then at load ≈ 3, before → after the metric set's name pool and RE2 for `lines`: gbench 14.6 →
// 8.4, lines 0.95 → 0.59, lines_zstd_patterns 36.5 → 16.3, criterion 4.3 → 3.2, libtest 7.0 → 6.6,
// divan 6.6 → 6.5; store/gbench (the store's insert of gbench's 14,664 metrics) 46.6. What stays
// above 1 ms is per metric: sorting the names and the sample's map entries (gbench's input: 15,000).
#include <benchmark/benchmark.h>

#include <fmt/format.h>
#include <simdjson.h>

#include <string>

#include "db/results_store.hpp"
#include "harness/exec/format.hpp"
#include "tests/db/db_test_support.hpp"

namespace {
using abtest::exec::format_input;
using nlohmann::json;

constexpr std::size_t mib = 1 << 20;

// `row(i)` repeated until the text reaches 1 MiB, between `head` and `tail`.
template <class Row>
std::string grow(const std::string& head, Row row, const std::string& tail, const std::string& separator = "") {
  std::string text = head;
  for (int i = 0; text.size() < mib; ++i) text += (i > 0 ? separator : "") + row(i);
  return text + tail;
}

struct fixture {
  const char* format;
  json options;
  std::string text;
};

std::vector<fixture> fixtures() {
  std::vector<fixture> out;
  out.push_back({"gbench", json::object(), grow(R"({"context": {"host_name": "h"}, "benchmarks": [)", [](int i) {
    return fmt::format(R"({{"name": "BM_x/{0}", "run_name": "BM_x/{0}", "run_type": "iteration", "repetitions": 1, "threads": 1,
      "iterations": 1000, "real_time": 1.5e3, "cpu_time": 1.4e3, "time_unit": "ns", "items_per_second": 6.5e8}})", i);
  }, "]}", ",")});
  out.push_back({"json", json::object(), grow(R"({"metrics": {"total_s": 1.5}, "context": {"log": [)", [](int i) {
    return fmt::format(R"("line {} of a log the program kept in its context")", i);
  }, "]}}", ",")});
  out.push_back({"json", {{"name_field", "case"}, {"value_field", "ns"}, {"unit", "ns"}, {"where", {{"event", "case"}}}}, grow("", [](int i) {
    return fmt::format(R"({{"event": "case", "case": "sum_{}", "ns": 1234.5}})", i % 200) + "\n";
  }, "")});
  out.push_back({"lines", {{"pattern", R"(TIMING: (\w+) ([0-9.,]+) (ms))"}}, grow("", [](int i) {
    return i % 50 == 0 ? fmt::format("TIMING: stage_{} 1,234.5 ms\n", i % 400)
                       : fmt::format("[info] step {} of the prover: nothing to report here\n", i);
  }, "")});
  out.push_back({"lines", {{"patterns", {{"compress", R"(#.*\(x[0-9.]+\),\s*([0-9.,]+) ([A-Za-z]*/s),)"}}}}, grow("", [](int i) {
    return fmt::format("\r |-Synthetic 50%     :  10000000 ->   3154228 (x3.170),   42.6 MB/s,  194.7 MB/s\r{:2}#\n", i % 20);
  }, "")});
  out.push_back({"criterion", json::object(), grow("", [](int i) {
    return fmt::format("Benchmarking group/bench_{0}: Analyzing\ngroup/bench_{0}\n                        time:   [743.29 ns 811.31 ns "
                       "903.05 ns]\n                        change: [-1.0% +0.5% +2.0%] (p = 0.13 > 0.05)\n", i);
  }, "")});
  out.push_back({"libtest", json::object(), grow("running 1000 tests\n", [](int i) {
    return fmt::format("test bench_{} ... bench:      76,568.64 ns/iter (+/- 55,382.00)\n", i);
  }, "")});
  out.push_back({"divan", json::object(), grow("Timer precision: 36 ns\nsort                 fastest       │ slowest       │ median        │ mean          │ samples │ iters\n", [](int i) {
    return fmt::format("├─ g{:<17}4.865 ms      │ 5.049 ms      │ 4.894 ms      │ 4.896 ms      │ 100     │ 100\n", i);
  }, "")});
  const auto times = [] {
    std::string t;
    for (int k = 0; k < 40; ++k) t += (k ? ", " : "") + std::string("0.0123456789");
    return t;
  }();
  out.push_back({"hyperfine", json::object(), grow(R"({"results": [)", [&](int i) {
    return fmt::format(R"({{"command": "cmd {}", "mean": 0.01, "stddev": 0.001, "median": 0.01, "user": 0.001, "system": 0.001,
      "min": 0.009, "max": 0.02, "times": [{}], "exit_codes": [0]}})", i, times);
  }, "]}", ",")});
  out.push_back({"pytest-benchmark", json::object(), grow(R"({"machine_info": {}, "benchmarks": [)", [&](int i) {
    return fmt::format(R"({{"group": null, "name": "test_{0}", "fullname": "t.py::test_{0}", "stats": {{"min": 1e-5, "max": 2e-5,
      "mean": 1.2e-5, "stddev": 1e-6, "rounds": 40, "median": 1.1e-5, "data": [{1}]}}}})", i, times);
  }, "]}", ",")});
  out.push_back({"catch2", json::object(), grow(R"(<?xml version="1.0"?><Catch name="x"><Group name="x"><TestCase name="t">)", [](int i) {
    return fmt::format(R"(<BenchmarkResults name="bench {}" samples="100" resamples="100000" iterations="1">
        <!--All values in nano seconds-->
        <mean value="1234.5" lowerBound="1200" upperBound="1300" ci="0.95"/>
        <standardDeviation value="5.1" lowerBound="3.0" upperBound="7.7" ci="0.95"/>
        <outliers variance="0.09" lowMild="0" lowSevere="0" highMild="1" highSevere="0"/>
      </BenchmarkResults>
)", i);
  }, "</TestCase></Group></Catch>")});
  return out;
}

void parse_one(benchmark::State& state, const fixture& f) {
  const format_input in{f.text, "", {}};
  for (auto _ : state) {
    auto p = abtest::exec::parse_output(f.format, "b", f.options, in);
    if (p.status != abtest::sample_status::ok) {
      state.SkipWithError(p.error.c_str());
      break;
    }
    benchmark::DoNotOptimize(p);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * f.text.size()));
  state.counters["output_mib"] = static_cast<double>(f.text.size()) / mib;
}

// The floor under the JSON formats, the parse of the same text and nothing else: nlohmann::json's
// DOM (what the formats used before) and simdjson's (what they use, padded copy included).
void json_parse_only(benchmark::State& state, const fixture& f) {
  for (auto _ : state) benchmark::DoNotOptimize(json::parse(f.text));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * f.text.size()));
}

void simdjson_parse_only(benchmark::State& state, const fixture& f) {
  simdjson::dom::parser parser;
  for (auto _ : state) {
    const simdjson::padded_string padded(f.text);
    simdjson::dom::element root;
    if (parser.parse(padded).get(root) != simdjson::SUCCESS) {
      state.SkipWithError("simdjson refused the input");
      break;
    }
    benchmark::DoNotOptimize(root);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * f.text.size()));
}

// What the harness does next with the sample: the store's insert (one transaction, a row per
// metric) of the gbench input's 15,000 metrics, into a results file under the temp folder. Set
// beside parse/gbench, it says what share of the harness's cost per sample the parsing is.
void store_sample(benchmark::State& state, const fixture& f) {
  namespace t = abtest::db::testing;
  t::temp_dir dir;
  abtest::db::results_store store{dir / "results.db"};
  const auto machine = store.upsert_machine(t::make_machine("fp"));
  store.create_experiment(t::make_experiment("r-1", machine));
  auto parsed = abtest::exec::parse_output(f.format, "b", f.options, format_input{f.text, "", {}});
  int round = 0;
  for (auto _ : state) benchmark::DoNotOptimize(store.insert_sample(t::make_sample("r-1", machine, 0, round++, parsed.metrics)));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * f.text.size()));
  state.counters["metrics"] = static_cast<double>(parsed.metrics.size());
}

const int registered = [] {
  static const std::vector<fixture> all = fixtures();
  for (const auto& f : all) {
    std::string name = f.format;
    if (f.options.contains("value_field")) name += "_extractor_jsonl";
    if (f.options.contains("patterns")) name += "_zstd_patterns";
    benchmark::RegisterBenchmark(("parse/" + name).c_str(), [&f](benchmark::State& s) { parse_one(s, f); })
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::RegisterBenchmark("store/gbench", [](benchmark::State& s) { store_sample(s, all.front()); })
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("json_parse_only/gbench", [](benchmark::State& s) { json_parse_only(s, all.front()); })
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("simdjson_parse_only/gbench", [](benchmark::State& s) { simdjson_parse_only(s, all.front()); })
      ->Unit(benchmark::kMillisecond);
  return 0;
}();

}  // namespace

BENCHMARK_MAIN();
