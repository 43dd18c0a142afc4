// Shared flags, parameter loading and design §4 reporting of porep-bench single / batch.
#include "bench/proof_run.hpp"

#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/resource.h>

#include "ec/parallel_for.hpp"
#include "ec/serialize.hpp"
#include "groth16/digest.hpp"
#include "gpu/api.hpp"
#include "groth16/snarkjs_export.hpp"
#include "groth16/verifier.hpp"

namespace zk::bench {

void proof_flags::add_to(CLI::App& app) {
  app.add_option("--preset", preset, "tiny, small, medium, large")->capture_default_str();
  app.add_option("--seed", seed, "input generation seed")->capture_default_str();
  app.add_option("--input", input, "circuit inputs written by `porep-bench gen-vanilla` instead of generating");
  app.add_flag("--json", json, "one design §4 json object on stdout");
  app.add_option("--export", export_dir, "write partition 0's verification_key.json, proof.json, public.json (snarkjs)");
  app.add_option("--backend", backend, "cpu; cuda (exit 4 without a device); auto = cuda when a device is there")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}))
      ->capture_default_str();
  app.add_option("--host-register", host_register,
                 "B1 at run time: default (this build's toggle), on, off (cuda backend only)")
      ->check(CLI::IsMember({"default", "on", "off"}))
      ->capture_default_str();
  app.add_option("--msm-window", msm_window,
                 "D4 at run time: default (this build's toggle), shared (D4 off), per_msm (D4 on)")
      ->check(CLI::IsMember({"default", "shared", "per_msm"}))
      ->capture_default_str();
  app.add_option("--threads", threads, "prover threads, 0 = all cores")->capture_default_str();
  app.add_option("--param-cache", param_cache, "parameter cache folder (default $ABTEST_PARAM_CACHE, else .abtest/params)");
  app.add_option("--param-seed", param_seed, "seed of the deterministic setup")->capture_default_str();
}

int resolve_backend(const proof_flags& flags, groth16::backend* out) {
  *out = groth16::backend::cpu;
  if (flags.backend == "cpu") return 0;
  std::string why;
  const bool available = gpu::device_available(&why);
  if (flags.backend == "cuda" && !available) {
    std::fprintf(stderr, "error: --backend cuda: %s — use --backend cpu\n", why.c_str());
    return 4;
  }
  if (available) *out = groth16::backend::cuda;
  return 0;
}

groth16::prover_options prover_options_for(const proof_flags& flags, groth16::backend backend) {
  groth16::prover_options opt{.nthreads = flags.threads, .backend = backend};
  if (flags.host_register != "default") opt.host_register = flags.host_register == "on";
  if (flags.msm_window != "default")
    opt.window = flags.msm_window == "per_msm" ? msm_window_policy::per_msm : msm_window_policy::shared;
  return opt;
}

std::string proofs_digest(const std::vector<groth16::proof>& proofs) {
  groth16::digest d;
  const auto add = [&](std::span<const uint8_t> bytes) {
    for (uint8_t b : bytes) d.add(uint64_t{b});
  };
  for (const auto& p : proofs) {
    add(g1_to_compressed(p.a));
    add(g2_to_compressed(p.b));
    add(g1_to_compressed(p.c));
  }
  return d.hex();
}

proof_job prepare_proof_job(const proof_flags& flags) {
  proof_job job;
  job.synth = prepare_synth_job(flags.preset, flags.seed, flags.input);
  std::string cache = flags.param_cache;
  if (cache.empty()) {
    const char* env = std::getenv("ABTEST_PARAM_CACHE");
    cache = env && *env ? env : ".abtest/params";
  }
  const auto t0 = std::chrono::steady_clock::now();
  job.params = load_or_setup_parameters(job.synth, flags.param_seed, cache, flags.threads, &job.params_from_cache);
  job.params_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return job;
}

int finish_proof_run(const char* mode, const proof_flags& flags, const proof_job& job, proof_outcome& out,
                     const groth16::prover_options& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  bool verified = !out.proofs.empty();
  for (size_t i = 0; i < out.proofs.size(); ++i)
    verified = groth16::verify(job.params.vk, out.proofs[i], out.public_inputs[i]) && verified;
  out.verify_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (flags.export_dir && !out.proofs.empty())
    groth16::export_snarkjs(*flags.export_dir, job.params.vk, out.proofs[0], out.public_inputs[0]);

  const auto& t = out.prove;
  const auto& p = job.params;
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  nlohmann::json gpu_config = nullptr;  // the resolved GPU configuration, when the device ran
  if (opt.backend == groth16::backend::cuda) {
    gpu_config = {{"device", zk::gpu::device_status().message},
           {"wbits", {{"h", t.wbits_h}, {"l", t.wbits_l}, {"a", t.wbits_a}, {"b_g1", t.wbits_b}}},
           {"host_register", t.host_register}, {"host_register_requested", opt.host_register},
           {"host_register_error", t.host_register_error}};
  }
  if (flags.json) {
    const nlohmann::json j = {
        {"metrics",
         {{"total_s", out.total_s}, {"synthesis_s", out.synthesis_s}, {"ntt_s", t.ntt_s}, {"msm_a_s", t.msm_a_s},
          {"msm_b_g1_s", t.msm_b_g1_s}, {"msm_b_g2_s", t.msm_b_g2_s}, {"msm_l_s", t.msm_l_s},
          {"msm_h_s", t.msm_h_s}, {"host_register_s", t.host_register_s}, {"transfer_s", t.transfer_s},
          {"transfer_hidden_s", t.transfer_hidden_s}, {"transfer_exposed_s", t.transfer_exposed_s}, {"gpu_s", t.gpu_s},
          {"verify_s", out.verify_s}}},
        {"checks", {{"verified", verified}, {"digest", out.digest}, {"proofs_digest", proofs_digest(out.proofs)}}},
        {"backend", groth16::to_string(opt.backend)},
        {"context",
         {{"mode", mode}, {"preset", flags.preset}, {"seed", job.synth.vanilla.seed}, {"partitions", out.proofs.size()},
          {"constraints_per_partition", p.num_constraints}, {"aux_per_partition", p.num_aux},
          {"domain_size", p.domain_size}, {"msm_sizes", {{"h", p.h.size()}, {"l", p.l.size()}, {"a", p.a.size()},
                                                         {"b", p.b_g1.size()}}},
          {"wbits", {{"h", t.wbits_h}, {"l", t.wbits_l}, {"a", t.wbits_a}, {"b", t.wbits_b}}},
          {"msm_window_policy", to_string(opt.window)}, {"bg2_mode", groth16::to_string(opt.bg2)},
          {"threads", resolve_threads(opt.nthreads)}, {"backend_requested", flags.backend},
          {"a1_inline_cap", a1_inline_cap()}, {"a2_presize", a2_presize()},
          {"params_from_cache", job.params_from_cache}, {"params_s", job.params_s},
          {"circuit_digest", p.circuit_digest}, {"maxrss_mib", ru.ru_maxrss / 1024.0}, {"gpu", gpu_config}}}};
    std::cout << j.dump() << '\n';
  } else {
    fmt::print("porep-bench {} --preset {} ({}): {} partitions x {} constraints (domain 2^{}), {} threads, "
               "windows {} (h {} l {} a {} b {}), B_G2 {}\n",
               mode, flags.preset, groth16::to_string(opt.backend), out.proofs.size(), p.num_constraints, std::countr_zero(p.domain_size),
               resolve_threads(opt.nthreads), to_string(opt.window), t.wbits_h, t.wbits_l, t.wbits_a, t.wbits_b,
               groth16::to_string(opt.bg2));
    fmt::print("  parameters {:.2f} s ({})\n", job.params_s, job.params_from_cache ? "cache" : "setup, now cached");
    fmt::print("  total {:.3f} s = synthesis {:.3f} + ntt {:.3f} + msm h {:.3f} l {:.3f} a {:.3f} b_g1 {:.3f} b_g2 {:.3f}\n",
               out.total_s, out.synthesis_s, t.ntt_s, t.msm_h_s, t.msm_l_s, t.msm_a_s, t.msm_b_g1_s, t.msm_b_g2_s);
    if (opt.backend == groth16::backend::cuda)
      fmt::print("  device {}: host_register {:.3f} s (B1 {}), transfer {:.3f} s ({:.3f} hidden under kernels, {:.3f} "
                 "exposed), kernels {:.3f} s\n",
                 zk::gpu::device_status().message, t.host_register_s, t.host_register ? "on" : "off", t.transfer_s,
                 t.transfer_hidden_s, t.transfer_exposed_s, t.gpu_s);
    if (!t.host_register_error.empty())
      fmt::print("  B1 was asked for but ran off (pageable copies): {}\n", t.host_register_error);
    fmt::print("  verify {:.3f} s: {}; digest {}; proofs {}\n", out.verify_s, verified ? "all proofs valid" : "INVALID",
               out.digest, proofs_digest(out.proofs));
  }
  if (!verified) {
    std::fprintf(stderr, "error: a proof did not verify — this variant is INVALID; run the groth16 tests\n");
    return 4;
  }
  return 0;
}

int run_proof_mode(int argc, char** argv, const char* mode, const char* description, const prove_fn& prove) {
  CLI::App app{description, std::string("porep-bench ") + mode};
  proof_flags flags;
  flags.add_to(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  groth16::backend backend;
  if (const int rc = resolve_backend(flags, &backend); rc != 0) return rc;
  try {
    const proof_job job = prepare_proof_job(flags);
    const groth16::prover_options opt = prover_options_for(flags, backend);
    std::mt19937_64 rng(flags.seed);
    proof_outcome out;
    prove(flags, job, opt, rng, out);
    return finish_proof_run(mode, flags, job, out, opt);
  } catch (const groth16::gpu_error& e) {
    std::fprintf(stderr, "error: %s — use --backend cpu\n", e.what());
    return 4;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s — check the parameter cache folder and the input file\n", e.what());
    return 4;
  }
}

}  // namespace zk::bench
