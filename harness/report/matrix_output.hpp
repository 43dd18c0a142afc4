// What `abtest matrix` shows: a design's experiment (its verdicts and factorial effects) and
// `matrix --analyze`'s effects over a design's shards, for the terminal and --json (design §7, §9).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/report/comparison_output.hpp"
#include "harness/report/exporter.hpp"

namespace abtest::report {

// One matrix experiment: the comparison of each configuration with base, and the design's effects
// as matrix_effects.hpp wrote them (a JSON object and a table per metric).
struct matrix_result {
  comparison_result verdicts;
  std::string kind = {}, group = {}, canary = {};  // kind "matrix" or "nightly"
  int shard = 0, shards = 1;
  nlohmann::json design = {}, skipped = {};  // the recorded design; configurations whose build failed
  nlohmann::json effects = {};               // by metric
  std::string effects_tables = {};
  int runs = 0;                     // benchmark invocations
  std::vector<std::string> notes = {};  // "warning: …" lines are shown as they are, others as "note: …"
};

// terminal: the notes, the verdict tables, the effects tables; json: the comparison's contract with
// kind, design, shard {index, count}, group, canary, skipped, effects, runs and notes beside it.
std::string render(const matrix_result& o, format f);

// `matrix --analyze`: one design over its shards' experiments.
struct design_analysis_result {
  std::vector<std::string> experiments;
  std::string group;
  nlohmann::json design;
  std::size_t configurations = 0;  // runs of the design
  int shards = 1;
  nlohmann::json present;          // the shards found
  nlohmann::json effects;
  std::string effects_tables;
  std::vector<std::string> notes;
};
std::string render(const design_analysis_result& a, format f);

}  // namespace abtest::report
