// `abtest init`: a starting manifest for the project in this folder (or --source DIR), saying what
// it guessed and what is left to fill in. It never overwrites a manifest.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "harness/builder/project_probe.hpp"
#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/manifest.hpp"

namespace abtest::cli {
namespace {

namespace fs = std::filesystem;

struct init_flags {
  std::string source = ".";
};

// Each toggle id of the draft → what it sets: "option PLANTED_SIZE (levels 1, 2, 4)", "feature simd".
nlohmann::ordered_json toggle_sources(const nlohmann::ordered_json& manifest) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& t : manifest["toggles"]) {
    std::string source;
    for (const char* kind : {"option", "feature"})
      if (t.contains(kind)) source = fmt::format("{} {}", kind, t[kind].get<std::string>());
    if (t.contains("levels")) source += fmt::format(" (levels {})", fmt::join(t["levels"].get<std::vector<std::string>>(), ", "));
    out[t["id"].get<std::string>()] = source;
  }
  return out;
}

int init(const init_flags& f, const global_options& g) {
  const fs::path path = fs::absolute(locate_manifest(g.manifest)).lexically_normal();
  if (fs::exists(path))
    throw usage_error(fmt::format("{} exists — abtest init never overwrites a manifest: edit it, or move it away first", path.string()));
  const fs::path source = fs::weakly_canonical(fs::absolute(f.source));
  if (!fs::is_directory(source)) throw usage_error(fmt::format("--source {}: not a folder", f.source));
  fs::create_directories(path.parent_path());
  // The probe configures and may build for minutes: say so as it goes (stderr, not in --json's answer).
  const auto say = [&g](std::string_view line) {
    if (!g.quiet) fmt::print(stderr, "{}\n", line);
  };
  const project_draft d = probe_project(source, path.parent_path(), path.parent_path() / ".abtest" / "init-probe", say);
  const std::string text = d.manifest.dump(2) + "\n";
  // What it wrote must load: the same validation as every command (a draft with no benchmark
  // does not, and says so below instead).
  std::string invalid;
  try {
    parse_manifest(text, path);
  } catch (const user_error& e) {
    invalid = e.what();
  }
  {
    std::ofstream out(path, std::ios::trunc);
    out << text;
    if (!out) throw usage_error(fmt::format("cannot write {} — check the folder's permissions", path.string()));
  }
  // A draft that does not load is written all the same (it is the start the user fills in), and
  // the command fails as any command does on a manifest it cannot use: exit 2, the error on stderr.
  const auto finish = [&] {
    if (invalid.empty()) return 0;
    throw usage_error(fmt::format("the draft is not usable yet: {} (fill in what is still to do, then `abtest build --dry-run`)",
                                  invalid));
  };
  if (g.json) {
    std::cout << nlohmann::json({{"manifest", path.string()}, {"toggles", toggle_sources(d.manifest)}, {"guessed", d.guessed},
                                 {"left_out", d.left_out}, {"to_do", d.to_do}, {"valid", invalid.empty()}, {"error", invalid}}).dump(2) << "\n";
    return finish();
  }
  if (g.quiet) return finish();
  fmt::print("wrote {} ({} build, {} toggle(s), {} benchmark(s))\n", path.string(), d.manifest["build"]["system"].get<std::string>(),
             d.manifest["toggles"].size(), d.manifest["benchmarks"].size());
  if (!d.manifest["toggles"].empty()) {
    // The ids are short (variant keys spell them): say which option or feature each stands for.
    fmt::print("\ntoggles (id: what it sets):\n");
    std::size_t width = 0;
    for (const auto& t : d.manifest["toggles"]) width = std::max(width, t["id"].get<std::string>().size());
    const auto sources = toggle_sources(d.manifest);
    for (const auto& [id, source] : sources.items())
      fmt::print("  {:<{}}  {}\n", id, width, source.get<std::string>());
  }
  if (!d.left_out.empty()) {
    fmt::print("\nleft out (not toggles or benchmarks):\n");
    for (const auto& s : d.left_out) fmt::print("  - {}\n", s);
  }
  fmt::print("\nwhat it read or guessed:\n");
  for (const auto& s : d.guessed) fmt::print("  - {}\n", s);
  if (!d.to_do.empty()) {
    fmt::print("\nstill to do:\n");
    for (const auto& s : d.to_do) fmt::print("  - {}\n", s);
  }
  if (invalid.empty()) {
    // Name one benchmark: a project whose every test links Google Benchmark gets many, and a
    // plain `abtest build` would build them all. One read through its harness's own format before
    // a "json" guess (a Cargo bin or custom bench whose output is still to check).
    const auto& benches = d.manifest["benchmarks"];
    const auto known = std::find_if(benches.begin(), benches.end(), [](const auto& b) { return b["format"] != "json"; });
    const std::string bench = known != benches.end() ? (*known)["name"].get<std::string>()
                              : benches.empty()     ? std::string("NAME")
                                                    : benches[0]["name"].get<std::string>();
    fmt::print("\nnext: abtest build --bench {0}   (then abtest run --toggle {1} --bench {0} --rounds 10)\n", bench,
               d.manifest["toggles"].empty() ? "ID" : d.manifest["toggles"][0]["id"].get<std::string>());
  }
  std::fflush(stdout);  // before main's error on stderr, in a terminal that shows both
  return finish();
}

}  // namespace

static const registrar init_command(5, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<init_flags>();
  auto* cmd = app.add_subcommand("init", "write a starting abtest.json for a CMake, Cargo or Makefile project (never overwrites)");
  cmd->add_option("--source", f->source, "the project's folder (default: this folder)");
  cmd->callback([f, &g, &act] { act = [f, &g] { return init(*f, g); }; });
});

}  // namespace abtest::cli
