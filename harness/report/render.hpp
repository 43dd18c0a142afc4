// Every command's output through one interface: a result value in, a document in the asked format
// out (design §9). One `render(const R&, format)` overload per result; the verdict row's fields are
// written by one function per format (verdict_json.hpp, comparison_output.hpp) that every result uses.
//
//   report::bisect_result r = ...;                          // what the search decided
//   std::cout << report::render(r, report::format::json);   // --json
//   std::cout << report::render(r, report::format::terminal);
#pragma once

#include <string>

#include "harness/report/exporter.hpp"

namespace abtest::report {

// `abtest report`'s document (markdown, json or html; the terminal shows the markdown).
std::string render(const report_data& r, format f);

}  // namespace abtest::report
