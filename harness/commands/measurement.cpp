// The shared measurement flags (see measurement.hpp).
#include "harness/commands/measurement.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <random>

#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"
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

void copy_evidence(const evidence_flags& f, oracle_settings& s) {
  s.layouts = f.layouts;
  s.duet = f.duet;
  s.counts = f.counts;
  s.pin = f.pin;
}

}  // namespace abtest::cli
