// The synthesis workload: counted sizes, a deterministic digest equal for generated and loaded
// inputs, and actionable refusals.
#include "bench/synth_job.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

#include "abtest/toggles/a1.hpp"
#include "abtest/toggles/a2.hpp"

namespace zk::bench {
namespace {

TEST(synth_job, tiny_is_counted_before_synthesis) {
  const synth_job job = prepare_synth_job("tiny", 1);
  EXPECT_EQ(job.partitions(), 2u);
  EXPECT_EQ(job.hint.num_constraints, 150071u + 5u);  // circuit rows + one per input
  EXPECT_EQ(job.hint.num_inputs, 5u);
  EXPECT_EQ(job.total_constraints(), 2 * job.hint.num_constraints);
  EXPECT_GT(job.shape.rows, 0u);
}

TEST(synth_job, digest_is_deterministic_and_the_same_from_a_saved_input) {
  const synth_job job = prepare_synth_job("tiny", 3);
  const synth_result a = run_synthesis(job, true), b = run_synthesis(job, true);
  ASSERT_EQ(a.digest.size(), 64u);
  EXPECT_EQ(a.digest, b.digest);
  EXPECT_GE(a.seconds, 0.0);
  const auto file = std::filesystem::temp_directory_path() / ("synth_job_test_" + std::to_string(::getpid()) + ".json");
  circuits::save_porep_vanilla(job.vanilla, file);
  const synth_job loaded = prepare_synth_job("tiny", 99, file.string());
  EXPECT_EQ(run_synthesis(loaded, true).digest, a.digest) << "the file, not the seed, decides";
  EXPECT_THROW(prepare_synth_job("small", 3, file.string()), std::invalid_argument);
  std::filesystem::remove(file);
  EXPECT_NE(run_synthesis(prepare_synth_job("tiny", 4), true).digest, a.digest);
}

TEST(synth_job, refuses_unknown_and_documentation_presets) {
  EXPECT_THROW(prepare_synth_job("huge", 1), std::invalid_argument);
  try {
    prepare_synth_job("porep32g", 1);
    FAIL() << "porep32g must not run";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("not run here"), std::string::npos) << e.what();
  }
  EXPECT_THROW(prepare_synth_job("tiny", 1, std::string("/nonexistent/vanilla.json")), std::runtime_error);
}

TEST(synth_job, reports_the_built_levels_and_the_shape_beside_the_real_figures) {
  EXPECT_EQ(a1_inline_cap(), ABTEST_A1_INLINE_CAP);
  EXPECT_EQ(a2_presize(), ABTEST_A2_PRESIZE != 0);
  const std::string s = describe_shape(prepare_synth_job("tiny", 1).shape);
  EXPECT_NE(s.find("real PoRep 2.4 / 1.0 / 2.2"), std::string::npos) << s;
  EXPECT_NE(s.find("B 1.00"), std::string::npos) << s;
}

}  // namespace
}  // namespace zk::bench
