// `abtest report`: one experiment (or the nightly view) as markdown, JSON or a self-contained HTML page.
#include <fmt/format.h>

#include <fstream>
#include <iostream>

#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"
#include "harness/report/exporter.hpp"
#include "harness/report/gnuplot.hpp"

namespace abtest::cli {
namespace {

struct report_flags {
  std::string experiment, format = "md", output;
  bool nightly = false;
};

int write_report(const report_flags& f, const global_options& g) {
  report::format fmt_kind;
  try {
    fmt_kind = report::parse_format(f.format);
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }
  if (f.nightly && !f.experiment.empty())
    throw usage_error("give one EXPERIMENT or --nightly, not both — `abtest list` shows the experiments");
  auto store = open_store_read_only(db_path(g, nullptr));
  report::report_data data;
  try {
    data = f.nightly ? report::load_nightly(store) : report::load_experiment(store, experiment_or_latest(store, f.experiment).id);
  } catch (const std::runtime_error& e) {
    throw usage_error(e.what());
  }
  if (fmt_kind == report::format::html && !report::gnuplot_available())
    fmt::print(stderr, "warning: gnuplot is not installed, the HTML report has tables but no plots — "
                       "`apt-get install gnuplot-nox` (scripts/setup.sh)\n");
  const auto text = report::render(data, fmt_kind);
  if (f.output.empty() || f.output == "-") {
    std::cout << text;
    return 0;
  }
  std::ofstream out(f.output, std::ios::binary);
  out << text;
  if (!out.flush()) throw usage_error(fmt::format("cannot write {} — check the folder exists and is writable", f.output));
  if (!g.quiet && !g.json) fmt::print(stderr, "report written to {}\n", f.output);
  return 0;
}

}  // namespace

static const registrar report_command(70, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<report_flags>();
  auto* cmd = app.add_subcommand("report", "write an experiment's (or the nightly) report as markdown, JSON or HTML");
  cmd->add_option("experiment", f->experiment, "experiment id (see `abtest list`; default: the latest)");
  cmd->add_flag("--nightly", f->nightly, "the newest nightly experiment, every nightly series and change point");
  cmd->add_option("--format", f->format, "md | json | html (default md)");
  cmd->add_option("-o,--output", f->output, "file to write (default: stdout)");
  cmd->callback([f, &g, &act] { act = [f, &g] { return write_report(*f, g); }; });
});

}  // namespace abtest::cli
