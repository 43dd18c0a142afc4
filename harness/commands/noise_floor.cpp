// `abtest noise-floor`: A/A′ — one variant built twice, the second in another code layout, compared in
// RMIT rounds; the effect a rebuild alone can fake is the floor under which effects are unresolvable
// (design §7; layout bias: Mytkowicz et al., "Producing wrong data without doing anything obviously
// wrong!", ASPLOS 2009).
#include <fmt/format.h>

#include "harness/commands/command.hpp"
#include "harness/commands/measurement.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/variant.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/experiment/noise_floor.hpp"
#include "harness/experiment/noise_floor_run.hpp"
#include "harness/experiment/request.hpp"
#include "harness/report/noise_floor_output.hpp"

namespace abtest::cli {
namespace {

struct noise_flags {
  std::vector<std::string> toggles, metrics;
  std::vector<std::string> layout{"-DCMAKE_CXX_FLAGS=-falign-functions=64 -falign-loops=32"};
  measurement_flags measure;  // --rounds (default 10), --param, --simulate, --seed, --jobs
  int layouts = 0;            // > 0: 2K seeded relinks of one build instead of A′ (design §6)
};

int noise_floor(const noise_flags& f, const global_options& g) {
  const request_source source = load_request_source(f.measure.simulate, g.manifest);
  const measurement mm = resolve_measurement(f.measure, source.m, rounds_rule::paired);
  const variant v = variant_from_flags(f.toggles, source.m);
  auto store = open_store(db_path(g, &source.m));
  if (f.layouts == 1 || f.layouts < 0)
    throw usage_error(fmt::format("--layouts {}: give at least 2 (each half of the 2K relinks is one side)", f.layouts));
  const floor_request q{source.m, source.scenario, mm, v, f.layout, f.layouts, g.command_line};
  const bool layouts = f.layouts > 0;
  const floor_measurement r = layouts ? measure_layout_floor(q, store, context_for(g)) : measure_rebuild_floor(q, store, context_for(g));
  report::noise_floor_result out{r.experiment_id, r.variant, mm.rounds, f.layouts, layouts ? std::vector<std::string>{} : f.layout, {}, r.note};
  for (const metric_floor& mf : noise_floors(r.analysis, f.metrics, layouts ? floor_source::layouts : floor_source::rebuild))
    out.floors.push_back({mf.row, mf.floor, layouts ? mf.layout_sd : 0});
  print_result(g, out);
  return exit_code_for(r.analysis, false);
}

}  // namespace

static const registrar noise_floor_command(50, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<noise_flags>();
  auto* cmd = app.add_subcommand("noise-floor", "A/A′: how much a rebuild in another code layout alone moves each metric");
  cmd->add_option("--toggle,-t", f->toggles, "the variant, ID or ID=LEVEL (repeatable; default: base)");
  cmd->add_option("--metric", f->metrics, "only these metrics (repeatable; default: all)");
  cmd->add_option("--layout", f->layout, "extra cmake arguments of the A′ build (default: -falign-functions=64 -falign-loops=32)");
  cmd->add_option("--layouts", f->layouts,
                  "instead of A′: one build linked 2K times with seeded layouts; reports the layout sd on its own");
  // No --margin: the floor is the CI's reach, not a verdict against a margin.
  add_measurement_options(cmd, f->measure, {.rounds_help = "interleaved rounds (default 10)", .margin_help = ""});
  cmd->callback([f, &g, &act] { act = [f, &g] { return noise_floor(*f, g); }; });
});

}  // namespace abtest::cli
