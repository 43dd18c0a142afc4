// The shared measurement flags (see measurement.hpp).
#include "harness/commands/measurement.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <random>

#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"
#include "harness/exec/cpu_list.hpp"
#include "harness/exec/duet.hpp"
#include "harness/experiment/counts.hpp"
#include "harness/experiment/oracle.hpp"

namespace abtest::cli {

void add_measurement_options(CLI::App* cmd, measurement_flags& f, const measurement_options& o) {
  if (!o.rounds_help.empty()) cmd->add_option("--rounds,-n", f.rounds, o.rounds_help);
  if (!o.margin_help.empty()) cmd->add_option("--margin", f.margin_pct, o.margin_help);
  cmd->add_option("--param", f.params, "override a manifest parameter, K=V (repeatable), e.g. preset=tiny");
  if (!o.simulate_help.empty()) cmd->add_option("--simulate", f.simulate, o.simulate_help);
  if (!o.seed_help.empty()) cmd->add_option("--seed", f.seed, o.seed_help);
  if (!o.jobs_help.empty()) cmd->add_option("--jobs,-j", f.jobs, o.jobs_help);
}

measurement resolve_measurement(const measurement_flags& f, const manifest& m, rounds_rule rule) {
  if (rule == rounds_rule::effects && f.rounds < 2)
    throw usage_error("--rounds must be at least 2: effects need a residual across rounds");
  if (rule == rounds_rule::paired && f.rounds < 2) throw usage_error("--rounds must be at least 2 for a paired comparison");
  if (rule == rounds_rule::adaptive_when_zero && (f.rounds < 0 || f.rounds == 1))
    throw usage_error("--rounds must be at least 2 for a paired comparison (or leave it out: adaptive rounds)");
  if (!(f.margin_pct >= 0 && f.margin_pct < 100)) throw usage_error("--margin is a percentage in [0, 100), e.g. 1");
  measurement out;
  out.rounds = f.rounds;
  out.margin = f.margin_pct / 100.0;
  out.params = parse_params(m, f.params);
  out.seed = f.seed ? *f.seed : std::random_device{}();
  out.jobs = f.jobs;
  if (!f.simulate.empty()) out.simulate = std::filesystem::absolute(f.simulate).string();
  return out;
}

void add_evidence_options(CLI::App* cmd, evidence_flags& f, const std::string& duet_help, const std::string& counts_help) {
  cmd->add_option("--layouts", f.layouts,
                  "link each variant K times with seeded code layouts; the verdicts carry the layout variance");
  cmd->add_flag("--duet", f.duet, duet_help);
  cmd->add_flag("--counts", f.counts, counts_help);
  cmd->add_option("--pin", f.pin, "CPU list the benchmarks run on, e.g. 1 or 0,2-3 (with --duet: its two cores)");
}

void check_evidence(const evidence_flags& f, const evidence_context& c) {
  if (f.layouts == 1 || f.layouts < 0)
    throw usage_error(fmt::format("--layouts {}: give at least 2 layouts per variant (5 is a good start), or leave it out", f.layouts));
  if (f.layouts > 0 && c.adaptive)
    throw usage_error(fmt::format("--layouts needs fixed rounds: the always-valid sequence is one-level — {}", c.adaptive_fix));
  if (f.duet && c.adaptive) throw usage_error(fmt::format("--duet takes a fixed number of rounds — {}", c.adaptive_fix));
  if (f.duet && !c.simulated && c.warmups < 1)
    throw usage_error("--duet checks in the warm-ups, run alone, that each benchmark uses one core — give --warmups 1 or more");
  if (f.counts && c.simulated) throw usage_error("--counts runs the benchmarks under Valgrind: leave out --simulate");
  if (!f.pin.empty() && exec::parse_cpu_list(f.pin).cpus.empty())
    throw usage_error(fmt::format("--pin {}: {} — e.g. --pin 1 or --pin 0,2-3", f.pin, exec::parse_cpu_list(f.pin).error));
  if (f.duet && !c.simulated) {
    try {
      (void)exec::choose_duet_cores(f.pin);  // fewer than two CPUs: say so before building anything
    } catch (const std::invalid_argument& e) {
      throw usage_error_from(e);
    }
  }
  if (f.counts) require_valgrind();
}

void copy_evidence(const evidence_flags& f, oracle_settings& s) {
  s.layouts = f.layouts;
  s.duet = f.duet;
  s.counts = f.counts;
  s.pin = f.pin;
}

}  // namespace abtest::cli
