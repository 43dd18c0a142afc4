// An experiment request checked once and planned once (request.hpp).
#include "harness/experiment/request.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "harness/core/errors.hpp"
#include "harness/exec/cpu_list.hpp"
#include "harness/exec/duet.hpp"
#include "harness/experiment/counts.hpp"
#include "harness/experiment/simulation.hpp"

namespace abtest {

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

request_source load_request_source(const std::string& simulate, const std::string& manifest_flag) {
  request_source out{load_simulate_flag(simulate), {}};
  out.m = out.scenario ? manifest_from_scenario(*out.scenario, simulate) : load_manifest(locate_manifest(manifest_flag));
  return out;
}

namespace {

// The variants of `spec`: the baseline, then the --toggle candidate, then one per --variant.
void resolve_variants(const request_spec& spec, experiment_request& q) {
  q.baseline = parse_variant_spec(spec.baseline, q.m);
  if (!spec.toggles.empty()) q.candidates.push_back(variant_from_flags(spec.toggles, q.m));
  for (const auto& s : spec.variants) q.candidates.push_back(parse_variant_spec(s, q.m));
  for (const auto& c : q.candidates)
    if (c == q.baseline) throw usage_error(fmt::format("candidate {} is the baseline itself — pick another --baseline or toggle", c.key(q.m)));
}

void resolve_benchmarks(const request_spec& spec, experiment_request& q) {
  for (const auto& b : spec.benchmarks) {
    if (!q.m.find_benchmark(b)) throw usage_error(fmt::format("--bench {}: no such benchmark in {}", b, q.m.path.string()));
    q.benchmarks.push_back(b);
  }
  if (q.benchmarks.empty())
    for (const auto& b : q.m.benchmarks) q.benchmarks.push_back(b.name);
}

}  // namespace

experiment_request make_request(request_source source, const measurement& mm, const request_spec& spec) {
  experiment_request q{std::move(source.scenario), std::move(source.m), {}, {}, {}, mm, spec.evidence, spec.adaptive,
                       spec.max_rounds, 1, spec.monitor_metrics, spec.bundle};
  if (spec.toggles.empty() && spec.variants.empty())
    throw usage_error("nothing to compare — give --toggle ID[=LEVEL] (repeatable) or --variant SPEC");
  if (spec.adaptive && spec.max_rounds < 10)
    throw usage_error("--max-rounds must be at least 10 with --adaptive (the sequence starts at 10)");
  const benchmark_spec* first = spec.benchmarks.empty() ? &q.m.benchmarks.front() : q.m.find_benchmark(spec.benchmarks.front());
  q.warmups = spec.warmups >= 0 ? spec.warmups : first ? first->warmups : 1;
  check_evidence(q.evidence, {q.simulated(), spec.adaptive, q.warmups, "give --rounds, not --adaptive"});
  if (q.evidence.duet && (spec.toggles.empty() ? 0 : 1) + spec.variants.size() != 1)
    throw usage_error("--duet runs a baseline and one candidate side by side — give one candidate (--toggle … or one --variant)");
  resolve_variants(spec, q);
  resolve_benchmarks(spec, q);
  return q;
}

run_plan plan_of(const experiment_request& q) {
  run_plan plan;
  plan.params = q.measure.params;
  plan.benchmarks = q.benchmarks;
  plan.adaptive = q.adaptive;
  plan.rounds = q.requested_rounds();
  plan.warmups = q.warmups;
  plan.seed = q.measure.seed;
  plan.margin = q.measure.margin;
  plan.metric_rules = q.m.metric_rules;
  plan.pin = q.evidence.pin;
  plan.monitor_metrics = q.monitor_metrics;
  plan.simulate = q.measure.simulate;
  plan.layouts = q.evidence.layouts;
  plan.duet = q.evidence.duet;
  // Each block of four rounds holds every combination of core and start order; two blocks at least (plan.hpp).
  if (plan.duet) plan.rounds = duet_rounds(plan.rounds);
  return plan;
}

}  // namespace abtest
