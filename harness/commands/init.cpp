// `abtest init`: a starting manifest for the project in this folder (or --source DIR), saying what
// it guessed and what is left to fill in. It never overwrites a manifest.
// What it says of the draft is rendered by report/init_output.hpp.
#include <fmt/format.h>

#include <fstream>
#include <iostream>

#include "harness/builder/project_probe.hpp"
#include "harness/commands/command.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/manifest.hpp"
#include "harness/report/init_output.hpp"

namespace abtest::cli {
namespace {

namespace fs = std::filesystem;

struct init_flags {
  std::string source = ".";
};

// Where the manifest goes (found as every command finds it); never over one that exists.
fs::path new_manifest_path(const global_options& g) {
  const fs::path path = fs::absolute(locate_manifest(g.manifest)).lexically_normal();
  if (fs::exists(path))
    throw usage_error(fmt::format("{} exists — abtest init never overwrites a manifest: edit it, or move it away first", path.string()));
  return path;
}

// What is wrong with the draft, through the same validation as every command ("" when it loads; a
// draft with no benchmark does not).
std::string draft_error(const std::string& text, const fs::path& path) {
  try {
    parse_manifest(text, path);
  } catch (const user_error& e) {
    return e.what();
  }
  return "";
}

void write_manifest(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  if (!out) throw usage_error(fmt::format("cannot write {} — check the folder's permissions", path.string()));
}

int init(const init_flags& f, const global_options& g) {
  const fs::path path = new_manifest_path(g);
  const fs::path source = fs::weakly_canonical(fs::absolute(f.source));
  if (!fs::is_directory(source)) throw usage_error(fmt::format("--source {}: not a folder", f.source));
  fs::create_directories(path.parent_path());
  // The probe configures and may build for minutes: say so as it goes (stderr, not in --json's answer).
  const auto say = [&g](std::string_view line) {
    if (!g.quiet) fmt::print(stderr, "{}\n", line);
  };
  report::init_result r{path, probe_project(source, path.parent_path(), path.parent_path() / ".abtest" / "init-probe", say), ""};
  const std::string text = r.draft.manifest.dump(2) + "\n";
  r.invalid = draft_error(text, path);
  write_manifest(path, text);
  print_result(g, r);
  std::cout << std::flush;  // before main's error on stderr, in a terminal that shows both
  // A draft that does not load is written all the same (it is the start the user fills in), and
  // the command fails as any command does on a manifest it cannot use: exit 2, the error on stderr.
  if (!r.invalid.empty())
    throw usage_error(fmt::format("the draft is not usable yet: {} (fill in what is still to do, then `abtest build --dry-run`)",
                                  r.invalid));
  return 0;
}

}  // namespace

static const registrar init_command(5, [](CLI::App& app, global_options& g, action& act) {
  auto f = std::make_shared<init_flags>();
  auto* cmd = app.add_subcommand("init", "write a starting abtest.json for a CMake, Cargo or Makefile project (never overwrites)");
  cmd->add_option("--source", f->source, "the project's folder (default: this folder)");
  cmd->callback([f, &g, &act] { act = [f, &g] { return init(*f, g); }; });
});

}  // namespace abtest::cli
