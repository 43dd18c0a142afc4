// What `abtest build` prints: with --dry-run the builds it would run and where, else each build's
// outcome (its folder, time, binaries, the variant it duplicates) — for the terminal and --json.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "harness/builder/builder.hpp"
#include "harness/report/exporter.hpp"

namespace abtest::report {

// One build --dry-run would run.
struct planned_build {
  std::string variant;                      // its key
  std::filesystem::path dir;                // its build folder
  std::vector<std::string> targets;         // what it builds
  std::vector<std::string> configure;       // the configure line (empty: none, or a command build)
  std::optional<command_line> command;      // a command build's line and environment
  std::vector<std::string> handed_values;   // values handed in place of a level, as the build sees them
};

struct build_plan {
  std::vector<planned_build> builds;
};

// terminal: "KEY  DIR" per build and its handed values under it; json: [{variant, dir, targets,
// configure, command, env}] (configure only when there is one, command and env for a command build).
std::string render(const build_plan& p, format f);

// One build run and recorded.
struct built_variant {
  build_outcome outcome;
  std::int64_t build_id = 0;
  nlohmann::json details;    // what the build row records of it (experiment/build_record.hpp)
  std::string identical_to;  // an earlier variant of this run with the same binaries ("" when none)
};

struct build_result {
  std::vector<built_variant> builds;  // in build order
};

// terminal: a line per build (ok with its time and folder, or FAILED with its log's tail), and with
// more than one build a total; json: [{variant, ok, dir, duration_s, build_id, log, details,
// objects_compiled, cache_hits, cache_misses, links, binaries, identical_to, log_tail}].
std::string render(const build_result& r, format f);

}  // namespace abtest::report
