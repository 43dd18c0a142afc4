// gpu-bench: times the GPU MSM (2^16…2^24, B1 on/off, windows) and NTT (2^16…2^26), each timing with a result check.
//
//   gpu-bench                                   # table on stdout
//   gpu-bench --jsonl rows.jsonl --budget-s 90  # also one JSON row per case as it completes
//   gpu-bench --json --msm 16,20 --ntt 16,20 --reps 3
//   gpu-bench --wbits-sweep 20                  # MSM 2^20 at every window, to fit gpu/msm/window.cpp's model
//   gpu-bench --msm 16,20,24 --phases-only --phases-tsv phases.tsv   # the MSM's phases alone
//
// Besides the cases: the device field's self-test and its multiply / square throughput and latency
// (kind "field"; --no-field leaves them out), and per MSM of the per-MSM window with B1 off one
// "msm_phase" row per phase (count, recode, sort, level0 …, gather, segments, windows; msm_report
// names them) and one "total". --phases-tsv appends those as `kernels kind lg_n phase kernel_s`
// lines, the build's kernel set first (tuned, or first_run for ABTEST_GPU_MSM_KERNELS=first_run),
// so that two builds' files join into a before/after table (the device pack's run.sh does).
//
// Every case runs even when another fails; a failure is a row with "error". Checks: the MSMs of one
// size give one result across windows, B1 on/off and reps; the coset NTT gives one output with B1
// on and off, and its inverse gives the input back. Exit 0 when every case ran and every check
// agreed, 1 otherwise, 2 for bad flags, 4 without a device.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gpu/api.hpp"
#include "gpu/random_inputs.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

void check(const zk::gpu::status& st) {
  if (!st.ok()) throw std::runtime_error(std::string(zk::gpu::to_string(st.code)) + ": " + st.message);
}

// One timed call: its wall time, the device's stages and what actually ran.
struct sample {
  double total_s = 0;
  zk::gpu::timings time;
  std::vector<zk::gpu::msm_phase> phases;
  bool host_register = false;
  std::string host_register_error;
};

nlohmann::json timing_fields(const sample& s) {
  return {{"total_s", s.total_s},
          {"host_register_s", s.time.host_register_s},
          {"transfer_s", s.time.transfer_s},
          {"kernel_s", s.time.kernel_s},
          {"host_register", s.host_register},
          {"host_register_error", s.host_register_error}};
}

// Rows go to stdout (a table, or one document with --json) and, as each completes, to --jsonl.
class table {
 public:
  table(bool json, const std::string& jsonl) : json_(json) {
    if (!jsonl.empty()) {
      jsonl_.emplace(jsonl, std::ios::app);
      if (!*jsonl_) throw std::runtime_error("cannot open " + jsonl + " for appending");
    }
  }
  void emit(nlohmann::json r) {
    if (r.contains("error") || (r.contains("check") && r["check"] != "agree")) failed_ = true;
    if (jsonl_) *jsonl_ << r.dump() << std::endl;
    if (!json_) print(r);
    rows_.push_back(std::move(r));
  }
  const nlohmann::json& rows() const { return rows_; }
  bool failed() const { return failed_; }

 private:
  static void print(const nlohmann::json& r) {
    std::string what = r.value("kind", "") + " 2^" + std::to_string(r.value("lg_n", 0u));
    if (r.contains("wbits")) what += " w" + std::to_string(r["wbits"].get<unsigned>());
    if (r.contains("b1")) what += r["b1"].get<bool>() ? " B1 on" : " B1 off";
    if (r.contains("phase")) what += " " + r["phase"].get<std::string>();
    if (r.contains("field")) what = "field " + r["field"].get<std::string>() + " " + r.value("op", "");
    if (r.contains("skipped")) {
      std::printf("%-30s skipped: %s\n", what.c_str(), r["skipped"].get<std::string>().c_str());
    } else if (r.contains("error")) {
      std::printf("%-30s ERROR: %s\n", what.c_str(), r["error"].get<std::string>().c_str());
    } else if (r.value("kind", "") == "msm_phase") {
      std::printf("%-30s kernel %10.6f s  (%s)\n", what.c_str(), r["kernel_s"].get<double>(),
                  r["kernels"].get<std::string>().c_str());
    } else if (r.contains("ops_per_s")) {
      std::printf("%-30s %8.3f G/s over the device  latency %8.1f ns\n", what.c_str(), r["ops_per_s"].get<double>() / 1e9,
                  r["latency_ns"].get<double>());
    } else if (r.contains("inputs")) {
      std::printf("%-30s %zu inputs, %zu mismatches  %s\n", what.c_str(), r["inputs"].get<size_t>(),
                  r["mismatches"].get<size_t>(), r.value("check", "").c_str());
    } else {
      std::printf("%-30s total %8.4f s  register %7.4f s  transfer %7.4f s  kernel %8.4f s  %s%s\n", what.c_str(),
                  r["total_s"].get<double>(), r["host_register_s"].get<double>(), r["transfer_s"].get<double>(),
                  r["kernel_s"].get<double>(), r.value("check", "").c_str(),
                  r["host_register_error"].get<std::string>().empty() ? "" : "  (B1 fell back to pageable)");
    }
    std::fflush(stdout);
  }
  bool json_;
  std::optional<std::ofstream> jsonl_;
  nlohmann::json rows_ = nlohmann::json::array();
  bool failed_ = false;
};

// Runs a case unless the budget is spent; a throw becomes an "error" row.
class runner {
 public:
  runner(table& t, double budget_s) : t_(t), budget_s_(budget_s), start_(clock_type::now()) {}
  template <class Fn>
  void run(nlohmann::json row, Fn&& fn) {
    if (budget_s_ > 0 && seconds_since(start_) > budget_s_) {
      row["skipped"] = "time budget of " + std::to_string(budget_s_) + " s spent";
      t_.emit(std::move(row));
      return;
    }
    try {
      fn(row);
    } catch (const std::exception& e) {
      row["error"] = e.what();
    }
    t_.emit(std::move(row));
  }

 private:
  table& t_;
  double budget_s_;
  clock_type::time_point start_;
};

// The median-time sample of `reps` calls of fn(sample&), each timing its own call into total_s (so
// that preparing its input stays out) and returning its result; every rep's result must equal the
// first, else this throws.
template <class Result, class Fn>
std::pair<sample, Result> median_run(unsigned reps, Fn&& fn) {
  std::vector<sample> samples;
  std::optional<Result> first;
  for (unsigned r = 0; r < reps; ++r) {
    sample s;
    Result out = fn(s);
    if (!first) first = std::move(out);
    else if (!(out == *first)) throw std::runtime_error("the reps gave different results");
    samples.push_back(s);
  }
  std::sort(samples.begin(), samples.end(), [](const sample& a, const sample& b) { return a.total_s < b.total_s; });
  return {samples[samples.size() / 2], std::move(*first)};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"gpu-bench: GPU MSM and NTT timings, each with a result check"};
  std::vector<unsigned> msm_lgs{16, 18, 20, 22, 24}, ntt_lgs{16, 18, 20, 22, 24, 26};
  unsigned reps = 3, sweep_lg = 0;
  bool json = false, phases_only = false, no_field = false;
  std::string jsonl, phases_tsv;
  double budget_s = 0;
  uint64_t seed = std::random_device{}();
  app.add_option("--msm", msm_lgs, "log2 sizes of the MSMs (empty: none)")->delimiter(',');
  app.add_option("--ntt", ntt_lgs, "log2 sizes of the NTTs (empty: none)")->delimiter(',');
  app.add_option("--reps", reps, "runs per case; the median is reported")->check(CLI::Range(1u, 100u));
  app.add_option("--wbits-sweep", sweep_lg, "also run an MSM of 2^N points at every window 8…18");
  app.add_option("--seed", seed, "input seed (default: random, printed)");
  app.add_flag("--json", json, "one JSON document on stdout at the end instead of the table");
  app.add_option("--jsonl", jsonl, "append one JSON row per case to this file as each completes");
  app.add_flag("--phases-only", phases_only, "per MSM size only the case whose phases are reported (no B1 on, other windows, witness), and no NTT");
  app.add_option("--phases-tsv", phases_tsv, "append the MSMs' phase times to this file (kernels kind lg_n phase kernel_s)");
  app.add_flag("--no-field", no_field, "leave out the field self-test and microbenchmark");
  app.add_option("--budget-s", budget_s, "start no case after this many seconds (0 = no limit); the rest are 'skipped' rows");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }

  const zk::gpu::status dev = zk::gpu::device_status();
  if (!dev.ok()) {
    std::cerr << "error: " << zk::gpu::to_string(dev.code) << ": " << dev.message << "\n";
    return 4;
  }
  try {
    table t(json, jsonl);
    runner cases(t, budget_s);
    if (!json) std::printf("device: %s   seed: %llu   reps: %u\n", dev.message.c_str(), static_cast<unsigned long long>(seed), reps);
    std::optional<std::ofstream> tsv;
    if (!phases_tsv.empty()) {
      tsv.emplace(phases_tsv, std::ios::app);
      if (!*tsv) throw std::runtime_error("cannot open " + phases_tsv + " for appending");
    }

    if (!no_field) {
      cases.run({{"kind", "field"}, {"field", "mont32"}, {"op", "self-test"}}, [&](nlohmann::json& r) {
        zk::gpu::field_check_report fc;
        check(zk::gpu::field_self_test(1 << 16, seed, &fc));
        r["inputs"] = fc.inputs;
        r["mismatches"] = fc.mismatches;
        r["check"] = fc.mismatches == 0 ? "agree" : "DIFFERS: " + fc.first;
      });
      std::vector<zk::gpu::field_bench_row> field_rows;
      const zk::gpu::status fb = zk::gpu::field_bench(&field_rows);
      if (!fb.ok()) t.emit({{"kind", "field"}, {"error", std::string(zk::gpu::to_string(fb.code)) + ": " + fb.message}});
      for (const auto& f : field_rows)
        t.emit({{"kind", "field"}, {"field", f.field}, {"op", f.op}, {"ops_per_s", f.ops_per_s}, {"latency_ns", f.latency_ns}});
    }

    const unsigned max_msm = std::max(msm_lgs.empty() ? 0u : *std::max_element(msm_lgs.begin(), msm_lgs.end()), sweep_lg);
    std::vector<zk::g1_affine> points;
    std::vector<zk::scalar_t> scalars, witness;
    if (max_msm > 0) {
      const size_t n = size_t{1} << max_msm;
      points = zk::gpu::random_points(n, seed);
      scalars = zk::gpu::random_scalars(n, seed + 1);
      witness = scalars;  // the A / B_G1 / L shape: 45% zero, 50% one, 5% full-size
      std::mt19937_64 rng(seed + 3);
      for (auto& k : witness) {
        const uint64_t u = rng() % 100;
        if (u < 45) k = {0, 0, 0, 0};
        else if (u < 95) k = {1, 0, 0, 0};
      }
    }
    // One MSM configuration: times it, records what ran, and checks its result against the size's first.
    // The phases of the last case run (the median sample's), with its total.
    std::vector<zk::gpu::msm_phase> phases;
    std::string kernels;
    auto msm_case = [&](const char* kind, unsigned lg, const std::vector<zk::scalar_t>& k, zk::gpu::msm_config cfg,
                        std::optional<zk::g1_jacobian>& reference) {
      phases.clear();
      const size_t n = size_t{1} << lg;
      nlohmann::json row = {{"kind", kind}, {"lg_n", lg}, {"b1", cfg.host_register}};
      if (cfg.wbits != 0) row["wbits"] = cfg.wbits;
      cases.run(std::move(row), [&](nlohmann::json& r) {
        zk::gpu::msm_report rep;
        const auto [s, out] = median_run<zk::g1_jacobian>(reps, [&](sample& smp) {
          zk::g1_jacobian acc;
          const auto t0 = clock_type::now();
          check(zk::gpu::msm_g1(std::span(points).first(n), std::span(k).first(n), cfg, &acc, &rep));
          smp.total_s = seconds_since(t0);
          smp.time = rep.time;
          smp.phases = rep.phases;
          smp.host_register = rep.host_register;
          smp.host_register_error = rep.host_register_error;
          return acc;
        });
        r.update(timing_fields(s));
        r["kernels"] = kernels = rep.kernels;
        phases = s.phases;
        phases.push_back({"total", s.time.kernel_s});
        r["wbits"] = rep.wbits;
        r["nwins"] = rep.nwins;
        r["entries"] = rep.nentries;
        r["levels"] = rep.levels;
        if (!reference) reference = out;
        r["check"] = out == *reference ? "agree" : "DIFFERS from the size's first result";
      });
    };
    for (unsigned lg : msm_lgs) {
      const unsigned auto_c = zk::gpu::msm_window_bits(size_t{1} << lg);
      std::optional<zk::g1_jacobian> reference, witness_reference;
      msm_case("msm", lg, scalars, {.wbits = 0, .window = zk::msm_window_policy::per_msm, .host_register = false}, reference);
      for (const zk::gpu::msm_phase& ph : phases) {
        t.emit({{"kind", "msm_phase"}, {"lg_n", lg}, {"phase", ph.name}, {"kernel_s", ph.kernel_s}, {"kernels", kernels}});
        if (tsv) *tsv << kernels << "\tmsm\t" << lg << "\t" << ph.name << "\t" << ph.kernel_s << std::endl;
      }
      if (phases_only) continue;
      msm_case("msm", lg, scalars, {.wbits = 0, .window = zk::msm_window_policy::per_msm, .host_register = true}, reference);
      for (unsigned c : std::set<unsigned>{std::max(1u, auto_c - 1), std::min(20u, auto_c + 1)})
        msm_case("msm", lg, scalars, {.wbits = c, .host_register = false}, reference);
      msm_case("msm_witness", lg, witness, {.wbits = 0, .window = zk::msm_window_policy::per_msm, .host_register = false},
               witness_reference);
      msm_case("msm_witness", lg, witness, {.wbits = std::max(1u, auto_c - 2), .host_register = false}, witness_reference);
    }
    if (sweep_lg > 0) {
      std::optional<zk::g1_jacobian> reference;
      for (unsigned c = 8; c <= 18; ++c) msm_case("msm_sweep", sweep_lg, scalars, {.wbits = c, .host_register = false}, reference);
    }

    if (phases_only) ntt_lgs.clear();
    for (unsigned lg : ntt_lgs) {
      const size_t n = size_t{1} << lg;
      std::vector<zk::fr> input, work, forward_out;
      cases.run({{"kind", "ntt_inputs"}, {"lg_n", lg}}, [&](nlohmann::json& r) {
        const auto t0 = clock_type::now();
        input = zk::gpu::random_frs(n, seed + 2 + lg);
        sample s;
        s.total_s = seconds_since(t0);
        r.update(timing_fields(s));
        r["check"] = "agree";
      });
      if (input.size() != n) continue;
      // Forward coset NTT with B1 off, then on: each rep on a fresh copy of the input (copied
      // outside the timed call); both levels must give the same output.
      for (bool reg : {false, true}) {
        cases.run({{"kind", "ntt_coset_forward"}, {"lg_n", lg}, {"b1", reg}}, [&](nlohmann::json& r) {
          const auto [s, out] = median_run<std::vector<zk::fr>>(reps, [&](sample& smp) {
            work = input;
            zk::gpu::ntt_report rep;
            const auto t0 = clock_type::now();
            check(zk::gpu::ntt(work.data(), lg, zk::gpu::ntt_direction::forward, zk::gpu::ntt_domain::coset,
                               {.host_register = reg}, &rep));
            smp.total_s = seconds_since(t0);
            smp.time = rep.time;
            smp.host_register = rep.host_register;
            smp.host_register_error = rep.host_register_error;
            return work;
          });
          r.update(timing_fields(s));
          if (forward_out.empty()) forward_out = out;
          r["check"] = out == forward_out ? "agree" : "DIFFERS between B1 off and on";
        });
      }
      if (forward_out.empty()) continue;
      cases.run({{"kind", "ntt_coset_inverse"}, {"lg_n", lg}, {"b1", false}}, [&](nlohmann::json& r) {
        const auto [s, out] = median_run<std::vector<zk::fr>>(reps, [&](sample& smp) {
          work = forward_out;
          zk::gpu::ntt_report rep;
          const auto t0 = clock_type::now();
          check(zk::gpu::ntt(work.data(), lg, zk::gpu::ntt_direction::inverse, zk::gpu::ntt_domain::coset,
                             {.host_register = false}, &rep));
          smp.total_s = seconds_since(t0);
          smp.time = rep.time;
          return work;
        });
        r.update(timing_fields(s));
        r["check"] = out == input ? "agree" : "DIFFERS: the inverse did not give the input back";
      });
    }

    if (json) {
      nlohmann::json doc = {{"device", dev.message}, {"seed", seed}, {"reps", reps}, {"rows", t.rows()},
                            {"msm_default_wbits", nlohmann::json::object()}};
      for (unsigned lg : msm_lgs) doc["msm_default_wbits"][std::to_string(lg)] = zk::gpu::msm_window_bits(size_t{1} << lg);
      std::cout << doc.dump(2) << "\n";
    }
    if (t.failed()) std::fprintf(stderr, "error: a case failed or a check disagreed — see the rows marked ERROR / DIFFERS\n");
    return t.failed() ? 1 : 0;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << " — check the device with nvidia-smi, or use smaller sizes (--msm, --ntt)\n";
    return 4;
  }
}
