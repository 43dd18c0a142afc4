// plan.json: what the bundle writes is what the runner reads; a newer schema, a foreign file or a
// schedule its seed does not give is refused with what to do.
#include "harness/bundle/bundle_plan.hpp"

#include <gtest/gtest.h>

namespace abtest::bundle {
namespace {

bundle_plan sample_plan() {
  bundle_plan p;
  p.experiment_id = "run-20261204-120000-abcd";
  p.project = "planted";
  p.command_line = "abtest run --toggle SLOW --bundle /tmp/x";
  p.created_at = "2026-12-04T12:00:00Z";
  p.plan.params = {{"reps", "5"}};
  p.plan.benchmarks = {"planted"};
  p.plan.rounds = 4;
  p.plan.warmups = 1;
  p.plan.seed = 11;
  arm_plan base{"base", {}, "baseline", "bin/base", "d0", std::nullopt, {{"planted-bench", "bin/base/planted-bench"}}, {}};
  arm_plan slow{"SLOW", {{"SLOW", "ON"}}, "candidate", "bin/SLOW", "d1", std::nullopt, {{"planted-bench", "bin/SLOW/planted-bench"}}, {}};
  p.plan.arms = {base, slow};
  benchmark_spec b;
  b.name = "planted";
  b.format = "json";
  b.command = {"{bin}/planted-bench", "--reps", "{reps}"};
  b.timeout_s = 60;
  p.benchmarks = {b};
  toggle_spec t;
  t.id = "SLOW";
  t.levels = {"OFF", "ON"};
  t.requires_caps = {"cuda"};
  toggle_spec other;
  other.id = "NULL";
  other.levels = {"OFF", "ON"};
  other.requires_caps = {"cuda"};
  p.toggles = {t, other};
  p.files = {{"bin/base/planted-bench", "aa"}, {"bin/SLOW/planted-bench", "bb"}};
  return p;
}

TEST(bundle_plan, round_trips_through_json) {
  const bundle_plan p = sample_plan();
  const auto j = p.to_json();
  const bundle_plan back = bundle_plan::from_json(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(back.experiment_id, p.experiment_id);
  EXPECT_EQ(back.plan.to_json(), p.plan.to_json());
  EXPECT_EQ(back.files, p.files);
  ASSERT_EQ(back.benchmarks.size(), 1u);
  EXPECT_EQ(back.benchmarks[0].command, p.benchmarks[0].command);
  EXPECT_EQ(back.benchmarks[0].timeout_s, 60);
  EXPECT_EQ(back.toggles[0].requires_caps, std::vector<std::string>{"cuda"});
  EXPECT_EQ(back.to_json(), j);
  // What a person reads: the commands with {bin} inside the folder, and the schedule's rounds.
  EXPECT_EQ(j["arms"][1]["commands"]["planted"], (nlohmann::json{"bin/SLOW/planted-bench", "--reps", "5"}));
  EXPECT_EQ(j["schedule"].size(), 5u);  // 1 warm-up + 4 rounds
  EXPECT_EQ(j["schedule"][0]["warmup"], true);
}

// A format's own keys travel in plan.json as the manifest writes them, are validated again by the
// format's row on the runner, and {out} stays in the commands for the runner's executor to fill.
TEST(bundle_plan, format_keys_and_out_travel_with_the_benchmark) {
  bundle_plan p = sample_plan();
  p.benchmarks[0].format = "lines";
  p.benchmarks[0].format_options = {{"patterns", {{"compress", "([0-9.,]+) (MB/s),"}}}};
  p.benchmarks[0].command = {"{bin}/planted-bench", "--out={out}"};
  const auto j = p.to_json();
  EXPECT_EQ(j["benchmarks"][0]["patterns"]["compress"], "([0-9.,]+) (MB/s),");
  EXPECT_EQ(j["arms"][1]["commands"]["planted"][1], "--out={out}");
  const bundle_plan back = bundle_plan::from_json(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(back.benchmarks[0].format, "lines");
  EXPECT_EQ(back.benchmarks[0].format_options, p.benchmarks[0].format_options);
  auto bad = j;
  bad["benchmarks"][0]["patterns"]["compress"] = "no group";
  EXPECT_THROW(bundle_plan::from_json(bad), plan_error);
  bad = j;
  bad["benchmarks"][0]["format"] = "xml";
  EXPECT_THROW(bundle_plan::from_json(bad), plan_error);
}

TEST(bundle_plan, a_newer_schema_is_refused_with_what_to_do) {
  auto j = sample_plan().to_json();
  j["schema"] = plan_schema + 1;
  try {
    bundle_plan::from_json(j);
    FAIL() << "a plan of a newer schema was accepted";
  } catch (const plan_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("schema 2"), std::string::npos) << what;
    EXPECT_NE(what.find(" — "), std::string::npos) << what;
  }
}

TEST(bundle_plan, other_json_and_an_edited_schedule_are_refused) {
  EXPECT_THROW(bundle_plan::from_json(nlohmann::json{{"experiment", "x"}}), plan_error);
  auto j = sample_plan().to_json();
  j.erase("files");
  EXPECT_THROW(bundle_plan::from_json(j), plan_error);
  j = sample_plan().to_json();
  j["plan"]["seed"] = 12;  // the written order no longer follows from the seed
  EXPECT_THROW(bundle_plan::from_json(j), plan_error);
}

TEST(bundle_plan, resolved_paths_lie_inside_the_folder_with_its_libraries) {
  const run_plan r = sample_plan().resolved("/mnt/b");
  EXPECT_EQ(r.arms[1].bin, std::filesystem::path("/mnt/b/bin/SLOW"));
  EXPECT_EQ(r.arms[1].programs.at("planted-bench"), std::filesystem::path("/mnt/b/bin/SLOW/planted-bench"));
  ASSERT_TRUE(r.arms[0].env.at("LD_LIBRARY_PATH").has_value());
  EXPECT_EQ(r.arms[0].env.at("LD_LIBRARY_PATH")->rfind("/mnt/b/lib", 0), 0u);
  const manifest m = sample_plan().as_manifest("/mnt/b");
  EXPECT_EQ(m.dir, std::filesystem::path("/mnt/b"));
  ASSERT_NE(m.find_benchmark("planted"), nullptr);
}

TEST(bundle_plan, required_capabilities_are_those_of_toggles_an_arm_sets) {
  const auto caps = sample_plan().required_caps();
  ASSERT_EQ(caps.count("cuda"), 1u);
  EXPECT_EQ(caps.at("cuda"), std::vector<std::string>{"SLOW"});  // NULL requires cuda too, but no arm sets it
}

}  // namespace
}  // namespace abtest::bundle
