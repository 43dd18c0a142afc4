// The real sample source: expand the benchmark command for the arm and run it once.
#include "harness/core/sample_source.hpp"

#include "harness/exec/executor.hpp"

namespace abtest {

exec::sample_outcome process_source::run(const arm_plan& arm, const benchmark_spec& bench, int, bool) {
  exec::benchmark_invocation inv;
  inv.bench = bench.name;
  inv.format = bench.format;
  inv.pattern = bench.pattern;
  inv.argv = expand_command(bench, arm.bin, plan_.params, arm.programs);
  inv.env = arm.env;
  inv.ok_exit_codes = bench.ok_exit_codes;
  inv.timeout_s = bench.timeout_s;
  inv.pin = plan_.pin;
  inv.working_dir = m_.dir;
  return exec::run_benchmark(inv);
}

}  // namespace abtest
