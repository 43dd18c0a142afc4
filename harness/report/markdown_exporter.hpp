// Markdown report for PR and issue comments: verdicts, effects, change points, phases.
#pragma once

#include "harness/report/exporter.hpp"

namespace abtest::report {

class markdown_exporter final : public exporter {
 public:
  std::string render(const report_data& r) const override;
};

}  // namespace abtest::report
