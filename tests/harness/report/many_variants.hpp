// A report of a 64-variant nightly matrix (six toggles, full factorial), built in memory: the size
// at which the HTML plots must stay readable (the first-run work: a 32-variant incident drew one line of
// overlapping labels and 32 lines in one frame).
#pragma once

#include "harness/report/report_data.hpp"

namespace abtest::report::testing {

// Six toggles A1=4, A2, A4, B1, D4, C2; A1=4 and B1 each +6% and +6.5% more together from night 7 of
// 12, so every variant with either has a change point (48 of 64 series); eight samples an arm,
// verdicts ordered as the loader orders them, 21 effects, four phases. Deterministic.
report_data many_variants_report();

}  // namespace abtest::report::testing
