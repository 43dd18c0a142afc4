// `abtest import OUT`: a bundle's results (design §3.2), measured on another host by DIR/run, merged
// into the local store as an ordinary experiment and analysed here with the code `run` uses.
#include <fmt/format.h>


#include "db/error.hpp"
#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"
#include "harness/report/comparison_output.hpp"
#include "harness/experiment/experiment.hpp"

namespace abtest::cli {
namespace {
namespace fs = std::filesystem;

int import_results(const std::string& from, const global_options& g) {
  const fs::path source = fs::is_directory(from) ? fs::path(from) / "results.db" : fs::path(from);
  if (!fs::exists(source))
    throw usage_error(fmt::format("no results at {} — give the --out folder of a bundle's run (it holds results.db)", source.string()));
  const fs::path target = db_path(g, nullptr);
  auto store = open_store(target);
  db::merge_report merged;
  std::vector<db::experiment_record> experiments;
  try {
    db::results_store theirs{source, db::open_mode::read_only};
    experiments = theirs.list_experiments();
    merged = store.merge_from(source);
  } catch (const db::error& e) {
    throw usage_error(fmt::format("cannot import {}: {} — is it a bundle's results.db (abtest's schema)?", source.string(), e.what()));
  }
  if (experiments.empty()) throw usage_error(fmt::format("{} holds no experiment — run the bundle first (DIR/run --out OUT)", source.string()));
  int code = 0;
  for (auto e = experiments.rbegin(); e != experiments.rend(); ++e) {  // oldest first
    const std::string id = merged.experiment_ids.at(e->id);
    // Its status there: a runner killed mid-round left it `running`, which here means incomplete.
    const bool partial = e->status != db::experiment_status::complete;
    const auto plan = run_plan::from_json(store.find_experiment(id)->config);
    auto samples = store.list_samples(id);
    const auto analysis = analyze(plan, samples);
    conclude(store, id, analysis, partial);
    const int rounds = rounds_recorded(samples);
    const std::string what = partial ? fmt::format("partial: {} of {} rounds — run the bundle again with the same --out, then "
                                                   "import again", rounds, plan.rounds)
                                     : fmt::format("complete: {} rounds", rounds);
    report::comparison_result in{id, plan, analysis, nullptr, rounds, false, partial};
    in.lead = {fmt::format("imported {} into {}: {} samples added, {} already here; {}", id, target.string(), merged.samples_added,
                           merged.samples_present, what)};
    in.extra["imported"] = {{"from", source.string()}, {"partial", partial}, {"samples_added", merged.samples_added},
                            {"samples_present", merged.samples_present}};
    print_result(g, in);
    code = std::max(code, exit_code_for(analysis, false));
  }
  return code;
}

}  // namespace

static const registrar import_command(85, [](CLI::App& app, global_options& g, action& act) {
  auto from = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("import", "bring a bundle's results (its run --out folder) into the store and analyse them");
  cmd->add_option("out", *from, "the OUT folder of DIR/run (or its results.db)")->required();
  cmd->callback([from, &g, &act] { act = [from, &g] { return import_results(*from, g); }; });
});

}  // namespace abtest::cli
