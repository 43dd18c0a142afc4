// The --json contract of design §9, checked on every command that prints verdicts or a bisection:
// run, compare (one experiment and two), show, matrix, bisect and report --format json, on the
// simulated executor so that they need no build; and run --counts on the planted fixture.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>

#include "tests/e2e/bisect_test_support.hpp"

namespace abtest::e2e {
namespace {

const fs::path incident = fs::path(ABTEST_SOURCE_DIR) / "tests" / "scenarios" / "incident.json";

// A number, or null where nothing was estimated — never a 0 standing in for "none".
void expect_number_or_null(const nlohmann::json& row, const char* key, const std::string& where) {
  ASSERT_TRUE(row.contains(key)) << where << ": verdict row without \"" << key << "\"\n" << row.dump(2);
  EXPECT_TRUE(row[key].is_null() || row[key].is_number()) << where << ": " << key << " = " << row[key].dump();
}

// run / compare: {"experiment", "baseline", "verdicts": [{variant, metric, n, baseline_median,
// candidate_median, ratio, ci_low, ci_high, p_value, p_adjusted, verdict}]}.
void expect_verdict_contract(const nlohmann::json& j, const std::string& where) {
  for (const char* key : {"experiment", "baseline", "verdicts"}) ASSERT_TRUE(j.contains(key)) << where << ": no \"" << key << "\"";
  ASSERT_TRUE(j["verdicts"].is_array()) << where;
  EXPECT_FALSE(j["verdicts"].empty()) << where << ": nothing to check";
  static const std::set<std::string> verdicts{"slower", "faster", "same", "inconclusive", "invalid"};
  for (const auto& v : j["verdicts"]) {
    ASSERT_TRUE(v.contains("variant") && v["variant"].is_string()) << where << "\n" << v.dump(2);
    ASSERT_TRUE(v.contains("metric") && v["metric"].is_string()) << where << "\n" << v.dump(2);
    ASSERT_TRUE(v.contains("n") && v["n"].is_number_integer()) << where << "\n" << v.dump(2);
    for (const char* key : {"baseline_median", "candidate_median", "ratio", "ci_low", "ci_high", "p_value", "p_adjusted"})
      expect_number_or_null(v, key, where);
    if (v["ratio"].is_number()) {
      EXPECT_GT(v["ratio"].get<double>(), 0.0) << where << ": a ratio is positive; none is null";
    }
    if (v["p_value"].is_number() && v["p_adjusted"].is_number()) {
      EXPECT_GE(v["p_adjusted"].get<double>(), v["p_value"].get<double>()) << where << ": Holm never lowers a p-value";
    }
    ASSERT_TRUE(v.contains("verdict") && v["verdict"].is_string()) << where;
    EXPECT_TRUE(verdicts.count(v["verdict"].get<std::string>())) << where << ": verdict " << v["verdict"];
    // The policy it was judged by (design §4): direction, margin, and where each came from.
    EXPECT_TRUE(v.value("better", "") == "lower" || v.value("better", "") == "higher") << where << "\n" << v.dump(2);
    EXPECT_TRUE(v.contains("margin") && v["margin"].is_number()) << where << "\n" << v.dump(2);
    static const std::set<std::string> sources{"manifest", "inferred", "default"};
    EXPECT_TRUE(sources.count(v.value("better_from", "")) && sources.count(v.value("margin_from", ""))) << where << "\n" << v.dump(2);
  }
}

// bisect: culprits and offsets in the same shape, {"toggles": [...], "effect", "ci_low", "ci_high"}.
void expect_terms(const nlohmann::json& terms, const std::string& where) {
  ASSERT_TRUE(terms.is_array()) << where;
  for (const auto& c : terms) {
    ASSERT_TRUE(c.contains("toggles") && c["toggles"].is_array() && !c["toggles"].empty()) << where << "\n" << c.dump(2);
    for (const auto& t : c["toggles"]) EXPECT_TRUE(t.is_string()) << where;
    for (const char* key : {"effect", "ci_low", "ci_high"})
      ASSERT_TRUE(c.contains(key) && c[key].is_number()) << where << ": no numeric \"" << key << "\"\n" << c.dump(2);
  }
}

class json_contract : public ::testing::Test {
 protected:
  json_contract() : dir_("json-contract"), db_((dir_.path() / "r.db").string()) {}

  nlohmann::json json(std::vector<std::string> args, int code = 0) {
    args.insert(args.begin(), {"--json", "--db", db_});
    const auto r = run_abtest(args);
    EXPECT_EQ(r.code, code) << args[3] << "\n" << r.err;
    return json_of(r);
  }
  std::string run_incident(const std::string& seed) {
    const auto j = json({"run", "--simulate", incident.string(), "--toggle", "A1", "--toggle", "B1", "--variant", "A4",
                         "--rounds", "6", "--seed", seed});
    expect_verdict_contract(j, "run");
    return j.value("experiment", "");
  }

  scratch dir_;
  std::string db_;
};

TEST_F(json_contract, every_command_prints_the_same_verdict_rows) {
  const std::string first = run_incident("11");
  const std::string second = run_incident("12");
  ASSERT_FALSE(first.empty());
  ASSERT_FALSE(second.empty());

  expect_verdict_contract(json({"compare", first}), "compare EXPERIMENT");
  expect_verdict_contract(json({"compare", first, second, "--variant", "A1=4+B1"}), "compare A B");
  expect_verdict_contract(json({"show", first}), "show");
  expect_verdict_contract(json({"report", "--format", "json", first}), "report --format json");
  const auto matrix = json({"matrix", "--simulate", incident.string(), "--design", "half", "--rounds", "3", "--seed", "11"});
  expect_verdict_contract(matrix, "matrix");
  EXPECT_EQ(matrix["seed"], 11) << "the matrix's one experiment takes the seed asked for, so that --seed 11 replays it";

  // Without an id, show / compare / report take the latest experiment: here the matrix.
  for (const std::string command : {"show", "compare", "report"}) {
    std::vector<std::string> args{command};
    if (command == "report") args.insert(args.end(), {"--format", "json"});
    const auto j = json(args);
    expect_verdict_contract(j, command + " (latest)");
    EXPECT_EQ(j["experiment"], matrix["experiment"]) << command;
  }
  // Every command prints one row the same way: the stored row of `run` is what `show` and `report` print.
  const auto ran = json({"compare", first});
  const auto shown = json({"show", first});
  const auto reported = json({"report", "--format", "json", first});
  ASSERT_EQ(ran["verdicts"].size(), shown["verdicts"].size());
  for (std::size_t i = 0; i < shown["verdicts"].size(); ++i) EXPECT_EQ(shown["verdicts"][i], reported["verdicts"][i]);
  EXPECT_EQ(shown["baseline"], ran["baseline"]);
}

// run --counts (real builds of the trimmed planted fixture; Valgrind): the count rows keep the row
// contract (n = 1, ratio, null CI and p-values), and run, compare and report print the same
// mechanism blocks through the one serializer.
TEST_F(json_contract, counts_rows_and_mechanisms_are_printed_alike) {
  if (std::system("valgrind --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "valgrind is not installed (apt-get install valgrind)";
  use_parent_launcher();
  const fs::path manifest = planted_copy(fs::path(ABTEST_E2E_WORK_DIR) / "planted");
  const auto ran = json({"--manifest", manifest.string(), "run", "--toggle", "SLOW", "--counts", "--rounds", "2", "--seed", "3"});
  expect_verdict_contract(ran, "run --counts");
  int count_rows = 0;
  for (const auto& v : ran["verdicts"])
    if (v["metric"].get<std::string>().find(".counts.") != std::string::npos) {
      ++count_rows;
      EXPECT_EQ(v["n"], 1) << v.dump();
      for (const char* key : {"ci_low", "ci_high", "p_value", "p_adjusted"}) EXPECT_TRUE(v[key].is_null()) << key << v.dump();
    }
  EXPECT_EQ(count_rows, 6) << ran.dump(2);
  ASSERT_TRUE(ran.contains("mechanisms") && ran["mechanisms"].is_array() && !ran["mechanisms"].empty()) << ran.dump(2);
  const std::string id = ran["experiment"];
  for (const auto& [what, j] : {std::pair{"compare", json({"compare", id})}, std::pair{"report", json({"report", "--format", "json", id})}}) {
    expect_verdict_contract(j, what);
    EXPECT_EQ(j.value("mechanisms", nlohmann::json()), ran["mechanisms"]) << what;
  }
}

// run --layouts: each row's layout split is stored with the verdict, so run, compare, show and
// report print it alike; the report pools a variant's layouts into one distribution and says, in
// markdown and HTML, how the experiment measured and how much of each difference is layout.
TEST_F(json_contract, layout_splits_are_stored_and_printed_alike) {
  const auto ran = json({"run", "--simulate", incident.string(), "--toggle", "A1", "--layouts", "3", "--rounds", "4",
                         "--seed", "5"});
  expect_verdict_contract(ran, "run --layouts");
  const auto splits = [](const nlohmann::json& j) {
    std::map<std::string, nlohmann::json> out;
    for (const auto& v : j["verdicts"])
      if (v.contains("layouts")) out[v["variant"].get<std::string>() + " " + v["metric"].get<std::string>()] = v["layouts"];
    return out;
  };
  const auto ran_splits = splits(ran);
  ASSERT_FALSE(ran_splits.empty()) << ran.dump(2);
  for (const auto& [row, l] : ran_splits) {
    EXPECT_EQ(l["baseline"], 3) << row;
    EXPECT_EQ(l["candidate"], 3) << row;
    EXPECT_GE(l["share"].get<double>(), 0.0) << row;
    EXPECT_LE(l["share"].get<double>(), 1.0) << row;
  }
  const std::string id = ran["experiment"];
  const auto reported = json({"report", "--format", "json", id});
  for (const auto& [what, j] : {std::pair{"compare", json({"compare", id})}, std::pair{"show", json({"show", id})},
                                std::pair{"report", reported}})
    EXPECT_EQ(splits(j), ran_splits) << what;
  EXPECT_EQ(reported["layouts"], 3);
  EXPECT_EQ(reported["duet"], false);
  ASSERT_EQ(reported["distributions"].size(), 2u) << "one per variant, its three layouts pooled\n" << reported["distributions"].dump();
  EXPECT_EQ(reported["distributions"][0]["values"].size(), 12u) << "3 layouts × 4 rounds";

  const std::string variant = ran["verdicts"][0]["variant"];
  const auto md = run_abtest({"--db", db_, "report", "--format", "md", id});
  ASSERT_EQ(md.code, 0) << md.err;
  EXPECT_NE(md.out.find("Layouts: each variant was linked 3 times"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("## Layouts (how much of each difference is where the linker put the code)"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("| " + variant + " | proof.total_s | 3 / 3 |"), std::string::npos) << md.out;
  const auto html = run_abtest({"--db", db_, "report", "--format", "html", id});
  ASSERT_EQ(html.code, 0) << html.err;
  EXPECT_NE(html.out.find("<h2>Layouts (how much of each difference is where the linker put the code)</h2>"), std::string::npos);
  EXPECT_NE(html.out.find("<td>3 / 3</td>"), std::string::npos);
}

// run --duet: the reports say the arms ran side by side.
TEST_F(json_contract, a_duet_is_named_in_every_report) {
  const auto ran = json({"run", "--simulate", incident.string(), "--toggle", "A1", "--duet", "--rounds", "8", "--seed", "5"});
  expect_verdict_contract(ran, "run --duet");
  EXPECT_EQ(ran["duet"], true);
  const std::string id = ran["experiment"];
  EXPECT_EQ(json({"report", "--format", "json", id})["duet"], true);
  const auto md = run_abtest({"--db", db_, "report", "--format", "md", id});
  ASSERT_EQ(md.code, 0) << md.err;
  EXPECT_NE(md.out.find("Duet: baseline and candidate ran at the same time"), std::string::npos) << md.out;
  EXPECT_EQ(md.out.find("## Layouts"), std::string::npos) << md.out;
  // Each round's sample positions say which arm started first: the baseline in rounds 1–2, 5–6, …
  const auto q = run_abtest({"--db", db_, "query", "--format", "json",
                             "SELECT round, arm_idx, position FROM sample WHERE experiment_id = '" + id +
                                 "' AND NOT warmup AND benchmark = 'proof' ORDER BY round, arm_idx"});
  ASSERT_EQ(q.code, 0) << q.err;
  const auto rows = nlohmann::json::parse(q.out);
  ASSERT_EQ(rows.size(), 2u * 12) << q.out;  // --rounds 8 → 12: three blocks of four
  for (std::size_t i = 0; i < rows.size(); i += 2) {
    const int round = rows[i]["round"];
    const bool base_first = rows[i]["position"].get<int>() < rows[i + 1]["position"].get<int>();
    EXPECT_EQ(base_first, ((round - 1) / 2) % 2 == 0) << "round " << round << "\n" << q.out;
  }
}

TEST_F(json_contract, bisect_prints_culprits_and_offsets_in_one_shape) {
  const auto j = json({"bisect", "--simulate", incident.string(), "--seed", "11"}, 1);
  for (const char* key : {"experiment", "from", "to", "metric", "verdict", "culprits", "offsets", "skipped", "runs", "full_matrix_runs"})
    ASSERT_TRUE(j.contains(key)) << "bisect: no \"" << key << "\"\n" << j.dump(2);
  static const std::set<std::string> verdicts{"slower", "faster", "same", "inconclusive"};
  EXPECT_TRUE(verdicts.count(j["verdict"].get<std::string>())) << j["verdict"];
  expect_terms(j["culprits"], "bisect culprits");
  expect_terms(j["offsets"], "bisect offsets");
  EXPECT_TRUE(j["skipped"].is_array());
  EXPECT_TRUE(j["runs"].is_number_integer());
  EXPECT_TRUE(j["full_matrix_runs"].is_number_integer());
}

}  // namespace
}  // namespace abtest::e2e
