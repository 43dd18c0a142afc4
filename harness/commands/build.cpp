// `abtest build`: build variants (each in its own folder) and record them, without measuring.
#include <fmt/format.h>

#include <iostream>

#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/variant.hpp"
#include "harness/experiment/experiment.hpp"

namespace abtest::cli {
namespace {

struct build_flags {
  std::vector<std::string> toggles, variants;
  int jobs = 0;
};

int build(const build_flags& f, const global_options& g) {
  const manifest m = load_manifest_for(g);
  std::vector<variant> targets;
  if (!f.toggles.empty()) targets.push_back(variant_from_flags(f.toggles, m));
  for (const auto& spec : f.variants) targets.push_back(parse_variant_spec(spec, m));
  if (targets.empty()) targets.push_back(variant{});
  auto store = open_store(db_path(g, &m));
  builder_options bo;
  bo.jobs = f.jobs;
  bo.verbose = g.verbose > 0;
  builder b(m, bo);
  nlohmann::json out = nlohmann::json::array();
  std::map<std::string, std::string> by_digest;  // binaries digest → first variant that produced it
  int failed = 0;
  for (const auto& v : targets) {
    const auto built = build_and_record(m, v, store, b, g);
    const auto& o = built.outcome;
    nlohmann::json j = {{"variant", o.key}, {"ok", o.ok}, {"dir", o.dir.string()}, {"duration_s", o.duration_s},
                        {"build_id", built.build_id}, {"log", o.log_path.string()}};
    std::string same;
    if (o.ok) {
      for (const auto& [target, bin] : o.binaries) j["binaries"][target] = bin.sha256;
      auto [it, inserted] = by_digest.emplace(o.binaries_digest, o.key);
      if (!inserted) same = it->second, j["identical_to"] = same;
    } else {
      ++failed;
      j["log_tail"] = o.log_tail;
    }
    out.push_back(j);
    if (!g.json && !g.quiet) {
      if (o.ok) fmt::print("{:<24} ok      {:6.1f} s  {}{}\n", o.key, o.duration_s, o.dir.string(),
                           same.empty() ? "" : fmt::format("  (identical binaries to {})", same));
      else fmt::print("{:<24} FAILED  {:6.1f} s  {}\n{}\n", o.key, o.duration_s, o.log_path.string(), o.log_tail);
    }
  }
  if (g.json) std::cout << out.dump(2) << "\n";
  return failed ? static_cast<int>(exit_code::build_failed) : 0;
}

}  // namespace

static const registrar reg(10, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<build_flags>();
  auto* cmd = app.add_subcommand("build", "build variants in their own folders and record the builds");
  cmd->add_option("--toggle,-t", f->toggles, "toggle ID or ID=LEVEL; together they form one variant");
  cmd->add_option("--variant", f->variants, "a variant SPEC (base, all, A1=4+B1); repeatable");
  cmd->add_option("--jobs,-j", f->jobs, "parallel build jobs");
  cmd->callback([f, &g, &act] { act = [f, &g] { return build(*f, g); }; });
});

}  // namespace abtest::cli
