// `abtest compare`: re-analyse one stored experiment (paired), or the same variant across two
// experiments (unpaired: Welch on log values, since their rounds are not blocks of each other).
#include <fmt/format.h>


#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"
#include "harness/report/comparison_output.hpp"
#include "harness/experiment/counts.hpp"
#include "harness/experiment/experiment.hpp"
#include "harness/experiment/unpaired_comparison.hpp"
#include "harness/report/verdict_json.hpp"

namespace abtest::cli {
namespace {

struct compare_flags {
  std::vector<std::string> experiments;
  std::string variant;
  double margin_pct = -1;
  bool fail_on_regression = false;
};

int one(db::results_store& store, const compare_flags& f, const global_options& g) {
  const auto e = experiment_or_latest(store, f.experiments.empty() ? "" : f.experiments[0]);
  auto plan = run_plan::from_json(e.config);
  if (f.margin_pct >= 0) plan.margin = f.margin_pct / 100;
  auto samples = store.list_samples(e.id);
  auto analysis = analyze(plan, samples);
  const auto counts = store.list_counts(e.id);
  add_count_verdicts(analysis, plan, counts);
  std::optional<reference_result> reference;
  // A simulated experiment's recorded path is its scenario file, which has no reference.
  if (plan.simulate.empty() && e.manifest_path && std::filesystem::exists(*e.manifest_path)) {
    const auto m = load_manifest(*e.manifest_path);
    reference = compare_to_reference(m, plan, samples);
  }
  const int rounds = rounds_recorded(samples);
  report::comparison_result in{e.id, plan, analysis, reference ? &*reference : nullptr, rounds, false,
                  e.status != db::experiment_status::complete};
  if (!counts.empty()) in.counts = &counts;
  print_result(g, in);
  return exit_code_for(analysis, f.fail_on_regression);
}

int two(db::results_store& store, const compare_flags& f, const global_options& g) {
  const auto a = experiment_or_latest(store, f.experiments[0]);
  const auto b = experiment_or_latest(store, f.experiments[1]);
  const unpaired_comparison c =
      compare_unpaired(store, a, b, f.variant, f.margin_pct >= 0 ? std::optional(f.margin_pct / 100) : std::nullopt);
  const analysis_result& analysis = c.analysis;
  print_result(g, report::unpaired_result{c.variant, a.id, b.id, analysis});
  return f.fail_on_regression && analysis.any_slower() ? static_cast<int>(exit_code::regression) : 0;
}

}  // namespace

static const registrar compare_command(30, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<compare_flags>();
  auto* cmd = app.add_subcommand("compare", "re-analyse stored samples: one experiment, or one variant across two");
  cmd->add_option("experiments", f->experiments, "EXPERIMENT [EXPERIMENT] (default: the latest experiment)")->expected(0, 2);
  cmd->add_option("--variant", f->variant, "with two experiments: the variant to follow (default: the first's baseline)");
  cmd->add_option("--margin", f->margin_pct, "practical margin in percent (default: the experiment's)");
  cmd->add_flag("--fail-on-regression", f->fail_on_regression, "exit 1 when a metric is SLOWER");
  cmd->callback([f, &g, &act] {
    act = [f, &g] {
      auto store = open_store_read_only(db_path(g, nullptr));
      return f->experiments.size() < 2 ? one(store, *f, g) : two(store, *f, g);
    };
  });
});

}  // namespace abtest::cli
