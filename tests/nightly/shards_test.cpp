// The shards of one night taken together (without Slurm): `matrix --analyze` over merged shard
// files finds the planted culprit as a single-host matrix does; `history` counts a night of shards
// once; `history --confirm` runs the A/B of the nights around a change point and records it.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/nightly/nightly_support.hpp"

namespace abtest::nightly_test {
namespace {

const fs::path scenarios = fs::path(ABTEST_SOURCE_DIR) / "tests" / "scenarios";

ran abtest(const std::string& args) { return shell(std::string(ABTEST_BINARY) + " " + args); }

std::set<std::string> culprits(const nlohmann::json& effects) {
  std::set<std::string> out;
  for (const auto& m : effects)
    for (const auto& e : m["effects"])
      if (e["culprit"].get<bool>()) out.insert(e["term"].get<std::string>());
  return out;
}

class shards : public scratch_test {
 protected:
  std::string db(const std::string& name) const { return quote((dir_ / name).string()); }

  // Shard i/n of `scenario` into its own file, as one array task would.
  void shard(const fs::path& scenario, int i, int n, const std::string& group, const std::string& extra = "") {
    const auto r = abtest("-q --db " + db("shard-" + std::to_string(i) + ".db") + " matrix --nightly --simulate " +
                          quote(scenario.string()) + " --shard " + std::to_string(i) + "/" + std::to_string(n) + " --group " + group +
                          " --seed " + std::to_string(40 + i) + " " + extra);
    ASSERT_EQ(r.code, 0) << r.out;
  }

  // One night: a scenario of two toggles with A1 `a1` slower (ln), its own noise seed.
  fs::path night(const std::string& series, int n, double a1) {
    const auto path = dir_ / (series + "-" + std::to_string(n) + ".json");
    std::ofstream(path) << "{\"toggles\": [{\"id\": \"A1\"}, {\"id\": \"A2\"}], \"seed\": " << 300 + n
                        << ", \"metrics\": {\"proof.total_s\": {\"base\": 10.0, \"noise_cv\": 0.01, \"effects\": {\"A1\": " << a1
                        << "}}}}\n";
    return path;
  }
};

TEST_F(shards, merged_shards_analysed_together_find_the_planted_culprit) {
  const fs::path s = scenarios / "one_culprit.json";  // A4 5% slower among five toggles
  for (int i = 0; i < 4; ++i) shard(s, i, 4, "night-1", "--rounds 6");
  const auto merge = abtest("--db " + db("merged.db") + " db merge " + db("shard-0.db") + " " + db("shard-1.db") + " " +
                            db("shard-2.db") + " " + db("shard-3.db"));
  ASSERT_EQ(merge.code, 0) << merge.out;
  // One shard alone cannot separate the terms; it says how to analyse the night.
  const auto alone = abtest("--json --db " + db("alone.db") + " matrix --simulate " + quote(s.string()) +
                            " --shard 1/4 --group g --rounds 6 --seed 3");
  ASSERT_EQ(alone.code, 0) << alone.out;
  EXPECT_NE(alone.out.find("matrix --analyze --group g"), std::string::npos) << alone.out;

  // Without --group: the newest matrix experiment's group, i.e. all four shards.
  const auto merged = abtest("--json --db " + db("merged.db") + " matrix --analyze");
  ASSERT_EQ(merged.code, 0) << merged.out;
  const auto j = nlohmann::json::parse(merged.out);
  EXPECT_EQ(j["experiments"].size(), 4u);
  EXPECT_EQ(j["group"], "night-1");
  EXPECT_TRUE(j["notes"].empty()) << j["notes"];
  const auto single = abtest("--json --db " + db("single.db") + " matrix --nightly --simulate " + quote(s.string()) +
                             " --rounds 6 --seed 40");
  ASSERT_EQ(single.code, 0) << single.out;
  const auto from_single = culprits(nlohmann::json::parse(single.out)["effects"]);
  EXPECT_TRUE(culprits(j["effects"]).count("A4")) << j["effects"].dump(2);
  EXPECT_TRUE(from_single.count("A4")) << single.out;
  // Every attribution row of the design, measured across shards, is close to the model.
  for (const auto& row : j["effects"][0]["attribution"])
    if (row.contains("measured_ratio")) {
      EXPECT_NEAR(row["measured_ratio"].get<double>(), row["model_ratio"].get<double>(), 0.05) << row;
    }
  // Stored as the effects of each shard's experiment.
  const auto q = abtest("--db " + db("merged.db") +
                        " query --format csv \"SELECT count(DISTINCT experiment_id) || ' ' || count(*) FROM effect\"");
  ASSERT_EQ(q.code, 0) << q.out;
  EXPECT_NE(q.out.find("4 60"), std::string::npos) << "15 terms × 4 experiments\n" << q.out;
}

TEST_F(shards, analyze_refuses_two_experiments_for_one_shard) {
  const fs::path s = scenarios / "interaction.json";
  shard(s, 0, 2, "a", "--rounds 3 --design half");
  shard(s, 0, 2, "b", "--rounds 3 --design half");  // the same file: two experiments of shard 0/2
  const auto ids = abtest("--db " + db("shard-0.db") + " query --format csv \"SELECT id FROM experiment ORDER BY started_at\"");
  std::istringstream lines(ids.out);
  std::vector<std::string> found;
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("n-", 0) == 0) found.push_back(line.substr(0, line.find_first_of("\r\n")));
  ASSERT_EQ(found.size(), 2u) << ids.out;
  const auto r = abtest("--db " + db("shard-0.db") + " matrix --analyze --experiment " + found[0] + " --experiment " + found[1]);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("two experiments are shard 0/2"), std::string::npos) << r.out;
  // A missing shard is said, and the terms cannot be separated without it.
  const auto one = abtest("--json --db " + db("shard-0.db") + " matrix --analyze --group a");
  EXPECT_EQ(one.code, 4) << one.out;
  EXPECT_NE(one.out.find("shard 1/2 is missing"), std::string::npos) << one.out;
}

TEST_F(shards, a_night_of_shards_is_one_night_in_history) {
  for (int n = 1; n <= 3; ++n) {
    const auto s = night("night", n, 0.0);
    for (int i = 0; i < 2; ++i) {
      const auto r = abtest("-q --db " + db("r.db") + " matrix --nightly --simulate " + quote(s.string()) + " --rounds 3 --shard " +
                            std::to_string(i) + "/2 --group night-" + std::to_string(n));
      ASSERT_EQ(r.code, 0) << r.out;
    }
  }
  const auto h = abtest("--json --db " + db("r.db") + " history --kind nightly --variant base");
  ASSERT_EQ(h.code, 0) << h.out;
  const auto j = nlohmann::json::parse(h.out);
  ASSERT_EQ(j["series"].size(), 1u);
  EXPECT_EQ(j["series"][0]["nights"], 3) << "six experiments, three nights";
  for (const auto& p : j["series"][0]["series"]) EXPECT_EQ(p["experiments"].size(), 2u) << p;
}

// Ten nights of the series into its own database, A1 8% slower from night 6. Seeded: --confirm's
// A/B takes its seed from the night after the change, and an unseeded A/A confirmation would call
// 1 run in 40 SLOWER by chance (α/2), failing a_change_point_the_ab_finds_the_same_does_not_fail_the_night.
void run_nights(const std::function<fs::path(int)>& night_file, const std::string& db_arg) {
  for (int n = 1; n <= 10; ++n) {
    const auto r = abtest("-q --db " + db_arg + " matrix --nightly --simulate " + quote(night_file(n).string()) +
                          " --rounds 4 --seed " + std::to_string(700 + n));
    ASSERT_EQ(r.code, 0) << r.out;
  }
}

nlohmann::json json_of(const ran& r) { return nlohmann::json::parse(r.out.substr(r.out.find('{'))); }

TEST_F(shards, confirm_runs_the_ab_around_a_change_point_and_records_it) {
  run_nights([&](int n) { return night("step", n, n >= 6 ? 0.08 : 0.0); }, db("r.db"));
  const auto h = abtest("--json --db " + db("r.db") + " history --kind nightly --variant A1 --confirm --fail-on-regression");
  EXPECT_EQ(h.code, 1) << h.out;
  const auto j = json_of(h);
  ASSERT_EQ(j["series"][0]["changepoints"].size(), 1u) << h.out;
  const auto& cp = j["series"][0]["changepoints"][0];
  const auto& c = cp["confirm"];
  EXPECT_EQ(c["verdict"], "slower") << cp;
  EXPECT_NEAR(c["ratio"].get<double>(), std::exp(0.08), 0.03) << cp;
  ASSERT_FALSE(c["experiment"].get<std::string>().empty());
  // The A/B is an experiment of its own, tied to the change point, and the change point's note says so.
  const auto q = abtest("--db " + db("r.db") + " query --format csv \"SELECT kind || ' ' || json_extract(config, '$.confirms.changepoint') "
                        "FROM experiment WHERE id = '" + c["experiment"].get<std::string>() + "'\"");
  EXPECT_NE(q.out.find("run " + std::to_string(cp["id"].get<int>())), std::string::npos) << q.out;
  const auto note = abtest("--db " + db("r.db") + " query --format csv \"SELECT note FROM changepoint\"");
  EXPECT_NE(note.out.find("A/B " + c["experiment"].get<std::string>() + ": slower"), std::string::npos) << note.out;
  // Run again: the recorded A/B is reused, not run a second time.
  EXPECT_EQ(abtest("--json --db " + db("r.db") + " history --kind nightly --variant A1 --confirm").code, 0);
  const auto runs = abtest("--db " + db("r.db") + " query --format csv \"SELECT 'runs=' || count(*) FROM experiment WHERE kind = 'run'\"");
  EXPECT_NE(runs.out.find("runs=1"), std::string::npos) << runs.out;
}

TEST_F(shards, a_change_point_the_ab_finds_the_same_does_not_fail_the_night) {
  run_nights([&](int n) { return night("same", n, n >= 6 ? 0.08 : 0.0); }, db("r.db"));
  EXPECT_EQ(abtest("--db " + db("r.db") + " history --kind nightly --variant A1 --fail-on-regression").code, 1)
      << "the statistics of the history flag the step";
  // The night of the change turns out to run the same code as the night before (its scenario now
  // is the earlier night's): the A/B finds no difference, and the change point does not fail the job.
  fs::copy_file(dir_ / "same-5.json", dir_ / "same-6.json", fs::copy_options::overwrite_existing);
  const auto same = abtest("--json --db " + db("r.db") + " history --kind nightly --variant A1 --confirm --fail-on-regression");
  EXPECT_EQ(same.code, 0) << same.out;
  const auto c = json_of(same)["series"][0]["changepoints"][0]["confirm"];
  EXPECT_NE(c["verdict"], "slower") << same.out;
  EXPECT_NE(c["verdict"], "") << same.out;
}

TEST_F(shards, a_change_point_that_cannot_be_measured_again_is_left_to_the_history) {
  run_nights([&](int n) { return night("gone", n, n >= 6 ? 0.08 : 0.0); }, db("r.db"));
  fs::remove(dir_ / "gone-6.json");
  const auto gone = abtest("--json --db " + db("r.db") + " history --kind nightly --variant A1 --confirm --fail-on-regression");
  EXPECT_EQ(gone.code, 1) << gone.out;
  const auto c = json_of(gone)["series"][0]["changepoints"][0]["confirm"];
  EXPECT_EQ(c["verdict"], "") << gone.out;
  EXPECT_NE(c["note"].get<std::string>().find("is gone"), std::string::npos) << gone.out;
}

}  // namespace
}  // namespace abtest::nightly_test
