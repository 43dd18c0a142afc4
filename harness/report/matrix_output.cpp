// A matrix experiment and a design's analysis over its shards, for the terminal and --json.
#include "harness/report/matrix_output.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <stdexcept>

namespace abtest::report {

std::string render(const matrix_result& o, format f) {
  if (f == format::json) {
    auto j = json_report(o.verdicts);
    j["kind"] = o.kind;
    j["design"] = o.design;
    j["shard"] = {{"index", o.shard}, {"count", o.shards}};
    j["group"] = o.group;
    j["canary"] = o.canary;
    j["skipped"] = o.skipped;
    j["effects"] = o.effects;
    j["runs"] = o.runs;
    j["notes"] = o.notes;
    return j.dump(2) + "\n";
  }
  if (f != format::terminal) throw std::invalid_argument("a matrix has no markdown or HTML output here — `abtest report EXPERIMENT` writes one");
  std::string out;
  for (const auto& n : o.notes) out += n.rfind("warning: ", 0) == 0 ? n + "\n" : fmt::format("note: {}\n", n);
  return out + terminal_report(o.verdicts) + o.effects_tables + "\n";
}

std::string render(const design_analysis_result& a, format f) {
  if (f == format::json)
    return nlohmann::json({{"experiments", a.experiments}, {"group", a.group}, {"design", a.design},
                           {"shards", {{"count", a.shards}, {"present", a.present}}}, {"effects", a.effects}, {"notes", a.notes}})
               .dump(2) +
           "\n";
  if (f != format::terminal) throw std::invalid_argument("a design's analysis has no markdown or HTML output");
  std::string out = fmt::format("design of {} configurations over {} experiment(s){}: {}\n", a.configurations, a.experiments.size(),
                                a.group.empty() ? "" : " of group " + a.group, fmt::join(a.experiments, ", "));
  for (const auto& n : a.notes) out += fmt::format("note: {}\n", n);
  return out + a.effects_tables + "\n";
}

}  // namespace abtest::report
