// What `abtest init` says of the manifest it drafted: where it wrote it, what each toggle sets, what
// it read or guessed, left out and leaves to do, and the next command — for the terminal and --json.
#pragma once

#include <filesystem>
#include <string>

#include "harness/builder/project_probe.hpp"
#include "harness/report/exporter.hpp"

namespace abtest::report {

struct init_result {
  std::filesystem::path manifest;  // where the draft was written
  project_draft draft;
  std::string invalid;             // why the draft does not load yet ("" when it does)
};

// terminal: "wrote PATH (cmake build, 2 toggle(s), 1 benchmark(s))", then the toggles (id: what it
// sets), what was left out, read or guessed, still to do, and — for a draft that loads — the next
// command; json: {manifest, toggles {id: what it sets}, guessed[], left_out[], to_do[], valid, error}.
std::string render(const init_result& r, format f);

}  // namespace abtest::report
