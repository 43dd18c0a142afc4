// The real sample source: expand the benchmark command for the arm and run it once (or two at once).
#include "harness/core/sample_source.hpp"

#include "harness/core/errors.hpp"

namespace abtest {

exec::benchmark_invocation process_source::invocation(const arm_plan& arm, const benchmark_spec& bench) const {
  exec::benchmark_invocation inv;
  inv.bench = bench.name;
  inv.format = bench.format;
  inv.options = bench.format_options;
  inv.argv = expand_command(bench, arm.bin, plan_.params, arm.programs);
  inv.env = arm.env;
  inv.ok_exit_codes = bench.ok_exit_codes;
  inv.timeout_s = bench.timeout_s;
  inv.pin = plan_.pin;
  inv.working_dir = m_.dir;
  inv.watch_threads = plan_.duet;
  return inv;
}

sample process_source::run(const arm_plan& arm, const benchmark_spec& bench, int, bool warmup) {
  sample o = exec::run_benchmark(invocation(arm, bench));
  // A duet's warm-ups run alone and unpinned, so a benchmark that spreads over several cores shows
  // it here (pinned to one core in the duet it could not, and would compete with itself instead).
  if (plan_.duet && warmup && o.status == sample_status::ok)
    if (const std::string why = exec::multithreaded_reason(o, bench.name); !why.empty()) throw usage_error(why);
  return o;
}

std::pair<sample, sample> process_source::run_pair(const arm_plan& a, const arm_plan& b, const benchmark_spec& bench,
                                                  int round, bool) {
  if (!cores_) {
    try {
      cores_ = exec::choose_duet_cores(plan_.pin);
    } catch (const std::invalid_argument& e) {
      throw usage_error_from(e);
    }
  }
  exec::duet_pair p = exec::run_duet(invocation(a, bench), invocation(b, bench), *cores_, round);
  p.a.context["duet"] = {{"cpu", p.cpu_a}, {"overlap_s", p.overlap_s}};
  p.b.context["duet"] = {{"cpu", p.cpu_b}, {"overlap_s", p.overlap_s}};
  return {std::move(p.a), std::move(p.b)};
}

}  // namespace abtest
