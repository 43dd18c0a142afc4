// gpu-bench: times the GPU MSM (2^16…2^24, B1 on/off, D4 windows) and NTT (2^16…2^26) on random inputs.
//
//   gpu-bench                         # table on stdout
//   gpu-bench --json --msm 16,20 --ntt 16,20 --reps 3
//   gpu-bench --wbits-sweep 20        # MSM 2^20 at every window, to fit gpu/msm/window.cpp's model
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "gpu/api.hpp"
#include "gpu/random_inputs.hpp"

namespace {

struct sample {
  double total_s = 0;
  zk::gpu::timings time;
};

// The run with the median total time of `reps` runs.
template <class Fn>
sample median_of(unsigned reps, Fn&& run) {
  std::vector<sample> s;
  for (unsigned r = 0; r < reps; ++r) s.push_back(run());
  std::sort(s.begin(), s.end(), [](const sample& a, const sample& b) { return a.total_s < b.total_s; });
  return s[s.size() / 2];
}

void check(const zk::gpu::status& st) {
  if (!st.ok()) throw std::runtime_error(std::string(zk::gpu::to_string(st.code)) + ": " + st.message);
}

nlohmann::json row(const std::string& kind, unsigned lg, const sample& s) {
  return {{"kind", kind},
          {"lg_n", lg},
          {"total_s", s.total_s},
          {"host_register_s", s.time.host_register_s},
          {"transfer_s", s.time.transfer_s},
          {"kernel_s", s.time.kernel_s}};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"gpu-bench: GPU MSM and NTT timings"};
  std::vector<unsigned> msm_lgs{16, 18, 20, 22, 24}, ntt_lgs{16, 18, 20, 22, 24, 26};
  unsigned reps = 3, sweep_lg = 0;
  bool json = false;
  uint64_t seed = std::random_device{}();
  app.add_option("--msm", msm_lgs, "log2 sizes of the MSMs (empty: none)")->delimiter(',');
  app.add_option("--ntt", ntt_lgs, "log2 sizes of the NTTs (empty: none)")->delimiter(',');
  app.add_option("--reps", reps, "runs per case; the median is reported")->check(CLI::Range(1u, 100u));
  app.add_option("--wbits-sweep", sweep_lg, "also run an MSM of 2^N points at every window 8…18");
  app.add_option("--seed", seed, "input seed (default: random, printed)");
  app.add_flag("--json", json, "one JSON object on stdout");
  CLI11_PARSE(app, argc, argv);

  try {
    const zk::gpu::status dev = zk::gpu::device_status();
    if (!dev.ok()) {
      std::cerr << "error: " << zk::gpu::to_string(dev.code) << ": " << dev.message << "\n";
      return 4;
    }
    nlohmann::json rows = nlohmann::json::array();
    auto emit = [&](nlohmann::json r) {
      if (!json) {
        std::printf("%-22s 2^%-3u total %9.4f s  register %8.4f s  transfer %8.4f s  kernel %8.4f s\n",
                    r["kind"].get<std::string>().c_str(), r["lg_n"].get<unsigned>(), r["total_s"].get<double>(),
                    r["host_register_s"].get<double>(), r["transfer_s"].get<double>(), r["kernel_s"].get<double>());
        std::fflush(stdout);
      }
      rows.push_back(std::move(r));
    };
    if (!json) std::printf("device: %s   seed: %llu\n", dev.message.c_str(), static_cast<unsigned long long>(seed));

    const unsigned max_msm = std::max(msm_lgs.empty() ? 0u : *std::max_element(msm_lgs.begin(), msm_lgs.end()), sweep_lg);
    std::vector<zk::g1_affine> points;
    std::vector<zk::scalar_t> scalars;
    if (max_msm > 0) {
      points = zk::gpu::random_points(size_t{1} << max_msm, seed);
      scalars = zk::gpu::random_scalars(size_t{1} << max_msm, seed + 1);
    }
    auto run_msm = [&](unsigned lg, zk::gpu::msm_config cfg, unsigned* wbits) {
      const size_t n = size_t{1} << lg;
      return median_of(reps, [&] {
        zk::g1_jacobian out;
        zk::gpu::msm_report rep;
        const auto t0 = std::chrono::steady_clock::now();
        check(zk::gpu::msm_g1(std::span(points).first(n), std::span(scalars).first(n), cfg, &out, &rep));
        if (wbits) *wbits = rep.wbits;
        return sample{std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), rep.time};
      });
    };
    for (unsigned lg : msm_lgs) {
      for (bool reg : {false, true}) {
        unsigned wbits = 0;
        const sample s = run_msm(lg, {.wbits = 0, .window = zk::msm_window_policy::per_msm, .host_register = reg}, &wbits);
        nlohmann::json r = row(reg ? "msm_b1_on" : "msm_b1_off", lg, s);
        r["wbits"] = wbits;
        emit(std::move(r));
      }
    }
    if (sweep_lg > 0) {
      for (unsigned c = 8; c <= 18; ++c) {
        unsigned wbits = 0;
        const sample s = run_msm(sweep_lg, {.wbits = c, .host_register = false}, &wbits);
        nlohmann::json r = row("msm_wbits_" + std::to_string(c), sweep_lg, s);
        r["wbits"] = wbits;
        emit(std::move(r));
      }
    }
    for (unsigned lg : ntt_lgs) {
      std::vector<zk::fr> data = zk::gpu::random_frs(size_t{1} << lg, seed + 2);
      for (bool reg : {false, true}) {
        const sample s = median_of(reps, [&] {
          zk::gpu::ntt_report rep;
          const auto t0 = std::chrono::steady_clock::now();
          check(zk::gpu::ntt(data.data(), lg, zk::gpu::ntt_direction::forward, zk::gpu::ntt_domain::coset,
                             {.host_register = reg}, &rep));
          return sample{std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), rep.time};
        });
        emit(row(reg ? "ntt_coset_b1_on" : "ntt_coset_b1_off", lg, s));
      }
    }
    if (json) {
      nlohmann::json doc = {{"device", dev.message}, {"seed", seed}, {"reps", reps}, {"rows", rows},
                            {"msm_default_wbits", nlohmann::json::object()}};
      for (unsigned lg : msm_lgs) doc["msm_default_wbits"][std::to_string(lg)] = zk::gpu::msm_window_bits(size_t{1} << lg);
      std::cout << doc.dump(2) << "\n";
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << " — check the device with nvidia-smi, or use smaller sizes (--msm, --ntt)\n";
    return 4;
  }
}
