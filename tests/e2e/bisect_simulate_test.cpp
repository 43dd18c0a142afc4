// abtest bisect / matrix / noise-floor --simulate: scenario samples through the real scheduler,
// statistics, search and database; the --json contract of design §9.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <set>

#include "tests/e2e/bisect_test_support.hpp"

namespace abtest::e2e {
namespace {

const fs::path scenarios = fs::path(ABTEST_SOURCE_DIR) / "tests" / "scenarios";

// The scenario runs are deterministic for a given --seed (each sample's generator is seeded from the
// scenario seed, the plan seed, the arm and the round); the error rates over many seeds are the
// business of tests/scenarios. This seed is one of the ≥ 90% for which the answer is exact.
const std::string seed = "11";

TEST(bisect_simulate, incident_names_a1_and_b1_in_the_json_contract) {
  scratch dir("bisect-incident");
  const auto r = run_abtest({"--json", "--db", (dir.path() / "r.db").string(), "bisect", "--simulate",
                             (scenarios / "incident.json").string(), "--seed", seed});
  ASSERT_EQ(r.code, 1) << "a regression with culprits exits 1\n" << r.err;
  const auto j = json_of(r);
  for (const char* key : {"experiment", "from", "to", "metric", "verdict", "culprits", "skipped", "runs", "full_matrix_runs"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["from"], "base");
  EXPECT_EQ(j["to"], "A1=4+A2+A4+B1+D4");
  EXPECT_EQ(j["metric"], "proof.total_s");
  EXPECT_EQ(j["verdict"], "slower");
  const auto found = culprit_sets(j);
  EXPECT_TRUE(found.count({"A1=4"})) << j.dump(2);
  EXPECT_TRUE(found.count({"B1"})) << j.dump(2);
  for (const auto& c : j["culprits"]) {
    EXPECT_LE(c["ci_low"].get<double>(), c["effect"].get<double>());
    EXPECT_GE(c["ci_high"].get<double>(), c["effect"].get<double>());
  }
  EXPECT_TRUE(j["skipped"].empty());
  EXPECT_GT(j["runs"].get<int>(), 0);
  EXPECT_EQ(j["full_matrix_runs"].get<int>(), 32 * j["plan"]["rounds"].get<int>()) << "2^5 configurations at the matrix's rounds";
  // The price of the search beside the full factorial's at the culprits' precision.
  EXPECT_EQ(j["plan"]["design"], "half 2^(5-1) E=ABCD");
  EXPECT_EQ(j["full_factorial"]["builds"].get<int>(), 32);
  EXPECT_EQ(j["full_factorial"]["runs"].get<int>() % 32, 0);
  EXPECT_GT(j["builds"].get<int>(), 16);
  EXPECT_LT(j["builds"].get<int>(), 32) << "a half fraction builds fewer configurations than the full factorial";
  EXPECT_EQ(j["wall_basis"], "modeled");
  EXPECT_DOUBLE_EQ(j["wall_s"].get<double>(), j["builds"].get<int>() * 60.0 + j["runs"].get<int>() * 88.9);

  // Every comparison is a stored step of the bisect experiment, and the culprits are its effects.
  const auto q = run_abtest({"--db", (dir.path() / "r.db").string(), "query", "--format", "json",
                             "SELECT (SELECT count(*) FROM bisect_step WHERE experiment_id = '" + j["experiment"].get<std::string>() +
                                 "') AS steps, (SELECT count(*) FROM effect WHERE experiment_id = '" +
                                 j["experiment"].get<std::string>() + "') AS effects, (SELECT kind FROM experiment WHERE id = '" +
                                 j["experiment"].get<std::string>() + "') AS kind"});
  ASSERT_EQ(q.code, 0) << q.err;
  const auto rows = json_of(q);
  ASSERT_EQ(rows.size(), 1u) << q.out;
  EXPECT_GE(rows[0]["steps"].get<int>(), 2) << "the overall A/B and the matrix at least";
  EXPECT_EQ(rows[0]["effects"].get<std::size_t>(), j["culprits"].size() + j["offsets"].size() + j["rejected"].size());
  EXPECT_EQ(rows[0]["kind"], "bisect");
}

// One key function: bisect's from/to and its stored steps spell A1=4 and A10 alike ("A1=4+A10",
// sorted by id; sorting the spelled terms would give "A10+A1=4").
TEST(bisect_simulate, from_to_and_the_stored_steps_share_one_key) {
  scratch dir("bisect-keys");
  const auto file = dir.path() / "a10.json";
  std::ofstream(file) << R"({"toggles": [{"id": "A10"}, {"id": "A1", "levels": ["0", "1", "2", "4"], "on": "4"}], "seed": 3,
    "metrics": {"proof.total_s": {"base": 10, "noise_cv": 0.01, "effects": {"A1=4": 0.06}}}})";
  const auto db = (dir.path() / "r.db").string();
  const auto r = run_abtest({"--json", "--db", db, "bisect", "--simulate", file.string(), "--seed", seed});
  ASSERT_EQ(r.code, 1) << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(j["from"], "base");
  EXPECT_EQ(j["to"], "A1=4+A10");
  const auto q = run_abtest({"--db", db, "query", "--format", "json",
                             "SELECT from_variant, to_variant FROM bisect_step WHERE step = 0 AND experiment_id = '" +
                                 j["experiment"].get<std::string>() + "'"});
  ASSERT_EQ(q.code, 0) << q.err;
  const auto steps = json_of(q);
  ASSERT_EQ(steps.size(), 1u) << q.out;
  EXPECT_EQ(steps[0]["from_variant"], j["from"]);
  EXPECT_EQ(steps[0]["to_variant"], j["to"]) << "the overall comparison is stored under the key bisect reports";
}

// design §9: culprits push the way of the verdict, offsets pull the other way. In the incident the
// matrix may also see D4's small gain (ratio ≈ 0.997, below the 1% margin), which once was listed as
// a culprit of the slowdown, and later as an offset at this seed; since the confirmations carry the
// matrix's noise (design §7) they reject it. masking.json is the same on both ends (A2 +5%, D4 −5%),
// and its culprit is the slowdown with the speed-up as its offset. The reports show the same split.
TEST(bisect_simulate, a_speed_up_is_an_offset_never_a_culprit) {
  scratch dir("bisect-offsets");
  const auto db = (dir.path() / "r.db").string();
  const auto r = run_abtest({"--json", "--db", db, "bisect", "--simulate", (scenarios / "incident.json").string(), "--seed", "484"});
  ASSERT_EQ(r.code, 1) << r.err;
  const auto j = json_of(r);
  ASSERT_EQ(j["verdict"], "slower");
  ASSERT_TRUE(j.contains("offsets")) << j.dump(2);
  for (const auto& c : j["culprits"]) EXPECT_GT(c["effect"].get<double>(), 0.0) << "a speed-up called a culprit:\n" << j.dump(2);
  for (const auto& c : j["offsets"]) EXPECT_LT(c["effect"].get<double>(), 0.0) << j.dump(2);
  EXPECT_EQ(culprit_sets(j), (std::set<std::vector<std::string>>{{"A1=4"}, {"B1"}, {"A1=4", "B1"}})) << j.dump(2);
  for (const auto& c : j["rejected"])
    EXPECT_EQ(c["toggles"], nlohmann::json({"D4"})) << "only the sub-margin gain may be a candidate that did not hold up\n"
                                                    << j.dump(2);

  const auto m = run_abtest({"--json", "--db", db, "bisect", "--simulate", (scenarios / "masking.json").string(), "--seed", seed});
  ASSERT_EQ(m.code, 1) << "the masked slowdown is still a regression\n" << m.err;
  const auto mj = json_of(m);
  EXPECT_EQ(mj["verdict"], "same");
  EXPECT_EQ(culprit_sets(mj), (std::set<std::vector<std::string>>{{"A2"}})) << mj.dump(2);
  ASSERT_EQ(mj["offsets"].size(), 1u) << mj.dump(2);
  EXPECT_EQ(mj["offsets"][0]["toggles"], nlohmann::json({"D4"}));

  // report (the latest experiment: the masking bisection) splits the terms the same way.
  const auto rep = run_abtest({"--db", db, "report", "--format", "json"});
  ASSERT_EQ(rep.code, 0) << rep.err;
  const auto rj = json_of(rep);
  EXPECT_EQ(rj["experiment"], mj["experiment"]);
  ASSERT_TRUE(rj.contains("culprits") && rj.contains("offsets")) << rj.dump(2);
  EXPECT_EQ(rj["culprits"].size(), 1u);
  EXPECT_EQ(rj["culprits"][0]["toggles"], nlohmann::json({"A2"}));
  EXPECT_EQ(rj["offsets"][0]["toggles"], nlohmann::json({"D4"}));
  const auto md = run_abtest({"--db", db, "report", "--format", "md"});
  ASSERT_EQ(md.code, 0) << md.err;
  EXPECT_NE(md.out.find("## Offsets"), std::string::npos) << md.out;
  const auto text = run_abtest({"--db", db, "bisect", "--simulate", (scenarios / "masking.json").string(), "--seed", seed});
  EXPECT_NE(text.out.find("offset  D4"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("culprit D4"), std::string::npos) << text.out;
  // A rejected candidate says what did not support it: the A/Bs for a toggle, its four cells for a pair.
  for (const auto& c : mj.value("rejected", nlohmann::json::array())) {
    const std::string name = c["toggles"].size() == 2 ? c["toggles"][0].get<std::string>() + "*" + c["toggles"][1].get<std::string>()
                                                       : c["toggles"][0].get<std::string>();
    const auto at = text.out.find("candidate " + name + " ");
    ASSERT_NE(at, std::string::npos) << text.out;
    const std::string line = text.out.substr(at, text.out.find('\n', at) - at);
    EXPECT_NE(line.find(c["support"] == "four cells" ? "a measurement of its four cells did not support it"
                                                     : "the confirmation A/Bs did not support it"),
              std::string::npos) << line;
  }
}

TEST(bisect_simulate, interaction_is_the_pair_alone) {
  scratch dir("bisect-interaction");
  const auto r = run_abtest({"--json", "--db", (dir.path() / "r.db").string(), "bisect", "--simulate",
                             (scenarios / "interaction.json").string(), "--seed", seed});
  ASSERT_EQ(r.code, 1) << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(culprit_sets(j), (std::set<std::vector<std::string>>{{"A1=4", "A2"}})) << j.dump(2);
}

TEST(bisect_simulate, no_regression_exits_zero) {
  scratch dir("bisect-aa");
  const auto r = run_abtest({"--json", "--db", (dir.path() / "r.db").string(), "bisect", "--simulate",
                             (scenarios / "aa_matrix.json").string(), "--seed", seed});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = json_of(r);
  EXPECT_TRUE(j["culprits"].empty()) << j.dump(2);
  EXPECT_NE(j["verdict"], "slower");
}

// Bisecting a rate (better higher): the toggle that lowers it is a regression culprit and exits 1;
// the same toggle raising it is an improvement, named but exiting 0.
TEST(bisect_simulate, a_rate_regresses_when_it_falls) {
  scratch dir("bisect-rate");
  const std::string metric = "synth.synthesis_constraints_per_s";
  for (const double effect : {-0.1, 0.1}) {
    const auto file = dir.path() / ("rate" + std::to_string(effect) + ".json");
    std::ofstream(file) << R"({"toggles": [{"id": "A1"}, {"id": "A2"}], "seed": 5, "metrics": {")" << metric
                        << R"(": {"base": 2.8e6, "noise_cv": 0.01, "effects": {"A2": )" << effect << "}}}}\n";
    const auto r = run_abtest({"--json", "--db", (dir.path() / "r.db").string(), "bisect", "--simulate", file.string(),
                               "--metric", metric, "--seed", seed});
    const auto j = json_of(r);
    EXPECT_EQ(culprit_sets(j), (std::set<std::vector<std::string>>{{"A2"}})) << j.dump(2);
    if (effect < 0) {
      EXPECT_EQ(r.code, 1) << "a falling rate is the regression\n" << r.err;
      EXPECT_EQ(j["verdict"], "slower");
    } else {
      EXPECT_EQ(r.code, 0) << "a rising rate is an improvement\n" << r.err;
      EXPECT_EQ(j["verdict"], "faster");
    }
  }
}

// bisect and matrix take --param as run does; an unknown key is a usage error that names it.
TEST(bisect_simulate, param_overrides_are_validated) {
  scratch dir("bisect-param");
  for (const char* command : {"bisect", "matrix"}) {
    const auto r = run_abtest({"--db", (dir.path() / "r.db").string(), command, "--simulate",
                               (scenarios / "incident.json").string(), "--param", "preset=tiny"});
    EXPECT_EQ(r.code, 2) << command << "\n" << r.err;
    EXPECT_NE(r.err.find("--param preset=tiny: the manifest has no parameter \"preset\""), std::string::npos) << r.err;
  }
}

// One set of measurement flags (commands/measurement.hpp): every measuring command checks --rounds
// and --margin the same way (bisect and matrix once took --margin 150 and ran with it).
TEST(bisect_simulate, measurement_flags_are_checked_alike) {
  scratch dir("measure-flags");
  const std::string file = (scenarios / "incident.json").string();
  for (const std::vector<std::string>& command : {std::vector<std::string>{"run", "--toggle", "A1"}, {"matrix"}, {"bisect"}, {"noise-floor"}}) {
    std::vector<std::string> args{"--db", (dir.path() / "r.db").string()};
    args.insert(args.end(), command.begin(), command.end());
    args.insert(args.end(), {"--simulate", file});
    auto with = [&](std::vector<std::string> extra) {
      auto all = args;
      all.insert(all.end(), extra.begin(), extra.end());
      return run_abtest(all);
    };
    const auto rounds = with({"--rounds", "1"});
    EXPECT_EQ(rounds.code, 2) << command[0] << "\n" << rounds.err;
    EXPECT_NE(rounds.err.find("--rounds must be at least 2"), std::string::npos) << command[0] << ": " << rounds.err;
    if (command[0] == "noise-floor") continue;  // no --margin: the floor is the CI's reach
    const auto margin = with({"--margin", "150"});
    EXPECT_EQ(margin.code, 2) << command[0] << "\n" << margin.err;
    EXPECT_NE(margin.err.find("--margin is a percentage in [0, 100)"), std::string::npos) << command[0] << ": " << margin.err;
  }
}

TEST(bisect_simulate, metric_must_exist) {
  scratch dir("bisect-metric");
  const auto r = run_abtest({"--db", (dir.path() / "r.db").string(), "bisect", "--simulate",
                             (scenarios / "incident.json").string(), "--metric", "proof.nope_s"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--metric"), std::string::npos) << r.err;
}

// The plan is printed before anything is built, and --design overrides it.
TEST(bisect_simulate, design_overrides_the_priced_plan) {
  scratch dir("bisect-design");
  const std::string db = (dir.path() / "r.db").string();
  const auto text = run_abtest({"--db", db, "bisect", "--simulate", (scenarios / "incident.json").string(), "--seed", seed});
  ASSERT_EQ(text.code, 1) << text.err;
  const auto plan = text.err.find("plan (cheapest in wall time; group testing only from 7 toggles): half 2^(5-1) E=ABCD");
  ASSERT_NE(plan, std::string::npos) << text.err;
  EXPECT_LT(plan, text.err.find("bisect ")) << "the plan comes before the search starts";
  EXPECT_NE(text.out.find("a full factorial to the same precision"), std::string::npos) << text.out;
  const auto r = run_abtest({"--json", "--db", db, "bisect", "--simulate", (scenarios / "incident.json").string(), "--seed", seed,
                             "--design", "group"});
  ASSERT_EQ(r.code, 1) << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(j["method"], "group testing");
  EXPECT_EQ(j["plan"]["reason"], "--design group");
  EXPECT_LT(j["builds"].get<int>(), 16) << "group testing builds few configurations";
  const auto bad = run_abtest({"--db", db, "bisect", "--simulate", (scenarios / "incident.json").string(), "--design", "fractional"});
  EXPECT_EQ(bad.code, 2) << bad.err;
  EXPECT_NE(bad.err.find("--design"), std::string::npos) << bad.err;
}

TEST(matrix_simulate, half_fraction_attributes_the_interaction) {
  scratch dir("matrix-interaction");
  const auto r = run_abtest({"--json", "--db", (dir.path() / "r.db").string(), "matrix", "--simulate",
                             (scenarios / "interaction.json").string(), "--design", "half", "--rounds", "12", "--seed", seed});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(j["design"]["kind"], "fractional");
  EXPECT_EQ(j["design"]["configs"].size(), 16u);
  ASSERT_EQ(j["effects"].size(), 1u) << j.dump(2);
  std::set<std::string> culprits;
  for (const auto& e : j["effects"][0]["effects"])
    if (e["culprit"].get<bool>()) culprits.insert(e["term"].get<std::string>());
  EXPECT_EQ(culprits, (std::set<std::string>{"A1=4*A2"})) << j["effects"].dump(2);
  EXPECT_EQ(j["verdicts"].size(), 15u) << "each configuration against base";
}

TEST(matrix_simulate, shards_split_the_design_and_record_it) {
  scratch dir("matrix-shard");
  std::set<std::string> seen;
  for (const char* shard : {"0/2", "1/2"}) {
    const auto r = run_abtest({"--json", "--db", (dir.path() / "r.db").string(), "matrix", "--simulate",
                               (scenarios / "interaction.json").string(), "--design", "half", "--rounds", "3", "--shard", shard});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = json_of(r);
    EXPECT_EQ(j["design"]["configs"].size(), 16u);
    EXPECT_EQ(j["verdicts"].size(), 8u - (shard[0] == '0' ? 1u : 0u)) << "base is in every shard";
    for (const auto& v : j["verdicts"]) seen.insert(v["variant"].get<std::string>());
  }
  EXPECT_EQ(seen.size(), 15u) << "together the shards cover the design";
}

// Layouts and duets (design §6) in the searches: --layouts and --duet reach each experiment a matrix or a bisection runs
// (with a scenario nothing is linked: each layout is a seeded arm), and what cannot work is refused
// before anything runs.
TEST(matrix_simulate, layouts_make_each_configuration_k_arms_and_its_layouts_the_replicates) {
  scratch dir("matrix-layouts");
  const auto r = run_abtest({"--json", "--db", (dir.path() / "r.db").string(), "matrix", "--simulate",
                             (scenarios / "interaction.json").string(), "--toggle", "A1", "--toggle", "A2", "--layouts", "3",
                             "--rounds", "2", "--seed", seed});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(j["layouts"], 3);
  ASSERT_EQ(j["effects"].size(), 1u) << j.dump(2);
  EXPECT_EQ(j["effects"][0]["configs"], 4);
  EXPECT_EQ(j["effects"][0]["rounds"], 3) << "the factorial fit's replicates are the 3 layouts, not the 2 rounds";
  ASSERT_EQ(j["verdicts"].size(), 3u) << "A1=4, A2 and A1=4+A2 against base, once each (not per layout)";
  for (const auto& v : j["verdicts"]) {
    ASSERT_TRUE(v.contains("layouts")) << v.dump(2);
    EXPECT_EQ(v["layouts"]["baseline"], 3);
    EXPECT_EQ(v["layouts"]["candidate"], 3);
  }
  const auto q = run_abtest({"--db", (dir.path() / "r.db").string(), "query", "--format", "csv",
                             "SELECT count(*) FROM arm WHERE experiment_id = '" + j["experiment"].get<std::string>() + "'"});
  ASSERT_EQ(q.code, 0) << q.err;
  EXPECT_NE(q.out.find("\n12"), std::string::npos) << "4 configurations × 3 layouts\n" << q.out;
}

TEST(bisect_simulate, layouts_and_duet_reach_every_experiment_of_the_search) {
  for (const std::string flag : {"--layouts", "--duet"}) {
    scratch dir("bisect-" + flag.substr(2));
    std::vector<std::string> args{"--json", "--db", (dir.path() / "r.db").string(), "bisect", "--simulate",
                                  (scenarios / "one_culprit.json").string(), "--rounds", "4", "--seed", seed, flag};
    if (flag == "--layouts") args.push_back("3");
    const auto r = run_abtest(args);
    ASSERT_EQ(r.code, 1) << flag << "\n" << r.err;
    const auto j = json_of(r);
    EXPECT_FALSE(j["culprits"].empty()) << flag << "\n" << j.dump(2);
    if (flag == "--layouts") {  // the matrix it is weighed against links each of its 2^5 configurations 3 times
      EXPECT_EQ(j["full_matrix_runs"].get<int>() % (32 * 3), 0) << j["full_matrix_runs"];
    }
    // Each experiment of the search (parent = the bisection) ran with the flag: every comparison of
    // two variants; with --duet a matrix of more runs one invocation at a time, and says so.
    const std::string parent = j["experiment"];
    const std::string sql =
        flag == "--layouts"
            ? "SELECT count(*) AS n, sum(json_extract(config, '$.layouts') = 3) AS flagged FROM experiment "
              "WHERE json_extract(config, '$.parent') = '" + parent + "'"
            : "SELECT count(*) AS n, sum(json_extract(config, '$.duet') = 1) AS flagged FROM experiment "
              "WHERE json_extract(config, '$.parent') = '" + parent + "' AND json_array_length(config, '$.arms') = 2";
    const auto q = run_abtest({"--db", (dir.path() / "r.db").string(), "query", "--format", "json", sql});
    ASSERT_EQ(q.code, 0) << q.err;
    const auto rows = json_of(q);
    ASSERT_EQ(rows.size(), 1u) << q.out;
    // With --duet only two-variant experiments count: the overall comparison, and confirmations where
    // the matrix left a culprit undecided (design §7; : one it decided is not measured again).
    EXPECT_GE(rows[0]["n"].get<int>(), flag == "--duet" ? 1 : 2) << flag << ": the overall comparison and more";
    EXPECT_EQ(rows[0]["flagged"], rows[0]["n"]) << flag << "\n" << q.out;
    if (flag == "--duet" && j["full_matrix_runs"].get<int>() > 0 && j["method"].get<std::string>().find("factorial") != std::string::npos) {
      bool said = false;
      for (const auto& n : j["notes"]) said = said || n.get<std::string>().find("--duet pairs two variants") != std::string::npos;
      EXPECT_TRUE(said) << j["notes"].dump(2);
    }
  }
}

TEST(bisect_simulate, evidence_flags_are_refused_where_they_cannot_work) {
  scratch dir("evidence-refused");
  const std::string db = (dir.path() / "r.db").string(), incident = (scenarios / "incident.json").string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"bisect", "--simulate", incident, "--layouts", "3"}, "--layouts needs fixed rounds"},
      {{"bisect", "--simulate", incident, "--duet"}, "--duet takes a fixed number of rounds"},
      {{"bisect", "--simulate", incident, "--rounds", "4", "--counts"}, "leave out --simulate"},
      {{"matrix", "--simulate", incident, "--duet"}, "this matrix has 32 configurations"},
      {{"matrix", "--simulate", incident, "--layouts", "1"}, "at least 2 layouts"},
      {{"matrix", "--simulate", incident, "--layouts", "2", "--canary", "HEAD"}, "leave out --canary or --layouts"},
  };
  for (const auto& [args, want] : cases) {
    std::vector<std::string> all{"--db", db};
    all.insert(all.end(), args.begin(), args.end());
    const auto r = run_abtest(all);
    EXPECT_EQ(r.code, 2) << args[0] << " " << args.back() << "\n" << r.err;
    EXPECT_NE(r.err.find(want), std::string::npos) << want << "\n" << r.err;
  }
}

TEST(noise_floor_simulate, reports_a_floor_near_the_noise) {
  scratch dir("noise-floor");
  const auto r = run_abtest({"--json", "--db", (dir.path() / "r.db").string(), "noise-floor", "--simulate",
                             (scenarios / "one_culprit.json").string(), "--rounds", "10", "--seed", seed});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = json_of(r);
  ASSERT_FALSE(j["floors"].empty()) << j.dump(2);
  const double floor = j["floors"][0]["floor"].get<double>();
  EXPECT_GT(floor, 0.0);
  EXPECT_LT(floor, 0.10) << "2% noise, 10 rounds: a CI of a few percent";
}

}  // namespace
}  // namespace abtest::e2e
