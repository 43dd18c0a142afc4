// A fixed results database for the report tests: six nightly experiments with fixed times and values.
#pragma once

#include <filesystem>

namespace abtest::report::testing {

// Writes the database at `path` (replacing it): nights n-1 … n-6 (2026-11-01 … 06, 02:00 UTC), arms
// base and A1=4, three samples each of proof.total_s / proof.synthesis_s / proof.msm_a_s, a 6%
// step in A1=4 from night 4, verdicts and effects on n-6, one change point at n-4.
void write_fixture(const std::filesystem::path& path);

}  // namespace abtest::report::testing
