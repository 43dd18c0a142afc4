// Markdown report for PR and issue comments: verdicts, effects, change points, phases.
#pragma once

#include "harness/report/exporter.hpp"
#include "harness/report/mechanisms.hpp"

namespace abtest::report {

class markdown_exporter final : public exporter {
 public:
  std::string render(const report_data& r) const override;
};

// One mechanism block in markdown: a `### bench: candidate vs base` heading, the verdicts it explains,
// its remarks and tables — as the report shows it, and as `abtest pr --counts` puts it in its comment.
std::string mechanism_markdown(const mechanism_entry& m);

}  // namespace abtest::report
