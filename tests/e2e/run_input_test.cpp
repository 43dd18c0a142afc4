// Bad input through the real CLI: each kind of manifest error names its file and key and exits 2;
// `abtest query` refuses to write; toggle ids and params with shell metacharacters or `../` never
// reach a shell nor leave `.abtest/`.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <string>

#include "tests/hardening/abtest_cli.hpp"
#include "tests/hardening/planted_copy.hpp"

namespace abtest::test {
namespace {

nlohmann::json planted_json() { return nlohmann::json::parse(read_text(fs::path(ABTEST_PLANTED_SOURCE_DIR) / "abtest.json")); }

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

struct bad_manifest {
  std::string name;       // what is wrong
  std::string key;        // the key the message must name
  std::function<std::string()> text;
};

class manifest_error : public testing::TestWithParam<bad_manifest> {};

TEST_P(manifest_error, names_file_and_key_and_exits_2) {
  const auto& c = GetParam();
  temp_dir tmp("manifest");
  const fs::path path = tmp / "abtest.json";
  write(path, c.text());
  const auto r = run_cli({"--manifest", path.string(), "--db", (tmp / "r.db").string(), "run", "--toggle", "SLOW"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(path.string()), std::string::npos) << "the message should name the file\n" << r.err;
  EXPECT_NE(r.err.find(c.key), std::string::npos) << "the message should name " << c.key << "\n" << r.err;
  EXPECT_NE(r.err.find(" — "), std::string::npos) << "the message should say what to do\n" << r.err;
  EXPECT_FALSE(fs::exists(tmp / ".abtest" / "build")) << "nothing may be built from a bad manifest";
}

INSTANTIATE_TEST_SUITE_P(
    each_kind, manifest_error,
    testing::Values(
        bad_manifest{"unknown_key", "build.tragets", [] { auto j = planted_json(); j["build"]["tragets"] = {"x"}; return j.dump(); }},
        bad_manifest{"bad_id", "toggles[0].id", [] { auto j = planted_json(); j["toggles"][0]["id"] = "slow"; return j.dump(); }},
        bad_manifest{"duplicate_id", "toggles[1].id", [] { auto j = planted_json(); j["toggles"][1]["id"] = "SLOW"; return j.dump(); }},
        bad_manifest{"unknown_level", "toggles[7].on", [] { auto j = planted_json(); j["toggles"][7]["on"] = "3"; return j.dump(); }},
        bad_manifest{"undefined_param", "benchmarks[0].command",
                     [] { auto j = planted_json(); j["benchmarks"][0]["command"].push_back("{nope}"); return j.dump(); }},
        bad_manifest{"program_not_in_targets", "benchmarks[0].command[0]",
                     [] { auto j = planted_json(); j["benchmarks"][0]["command"][0] = "{bin}/not-built"; return j.dump(); }},
        bad_manifest{"bad_json", "abtest.json:3", [] { return std::string("{\n  \"project\": \"x\",\n  \"toggles\": [,]\n}\n"); }}),
    [](const testing::TestParamInfo<bad_manifest>& info) { return info.param.name; });

TEST(run_input, unknown_level_on_the_command_line_exits_2) {
  temp_dir tmp("level");
  const auto r = run_cli({"--manifest", planted_manifest().string(), "--db", (tmp / "r.db").string(), "run", "--toggle", "SIZE=3"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("SIZE"), std::string::npos) << r.err;
}

// A small database to attack: one simulated experiment.
fs::path simulated_db(const temp_dir& tmp) {
  const fs::path db = tmp / "r.db";
  const auto r = run_cli({"--db", db.string(), "run", "--simulate", std::string(ABTEST_SCENARIO_DIR) + "/one_culprit.json",
                          "--toggle", "A4", "--rounds", "3", "--seed", "1", "-q"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return db;
}

TEST(run_input, query_cannot_write) {
  temp_dir tmp("query");
  const fs::path db = simulated_db(tmp);
  const auto before = query_int(db, "SELECT count(*) FROM sample");
  ASSERT_GT(before, 0);
  for (const std::string& sql : std::vector<std::string>{"INSERT INTO machine(hostname) VALUES ('x')", "DELETE FROM sample", "UPDATE experiment SET status = 'failed'",
        "ATTACH DATABASE '" + (tmp / "other.db").string() + "' AS other", "PRAGMA writable_schema=1",
        "PRAGMA journal_mode=DELETE", "CREATE TABLE t(x)", "DROP VIEW v_latest_verdict",
        "SELECT 1; DELETE FROM sample", "VACUUM INTO '" + (tmp / "copy.db").string() + "'"}) {
    const auto r = run_cli({"--db", db.string(), "query", sql});
    EXPECT_NE(r.exit_code, 0) << sql << " was accepted:\n" << r.out;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << sql << ": " << r.err;
  }
  EXPECT_EQ(query_int(db, "SELECT count(*) FROM sample"), before);
  EXPECT_EQ(query_int(db, "SELECT count(*) FROM experiment WHERE status = 'complete'"), 1);
  EXPECT_FALSE(fs::exists(tmp / "other.db"));
  EXPECT_FALSE(fs::exists(tmp / "copy.db"));
  EXPECT_TRUE(db_check_passes(db));
}

// A manifest whose toggle levels and params carry shell metacharacters and `../`: the manifest
// rejects what cannot be a level, and what it accepts reaches the benchmark as one plain argument.
TEST(run_input, hostile_ids_levels_and_params_never_reach_a_shell_nor_leave_the_state_folder) {
  temp_dir tmp("hostile");
  const fs::path canary = tmp / "pwned";
  for (const std::string& id : std::vector<std::string>{"A;touch " + canary.string(), "../../X", "$(touch " + canary.string() + ")", "A`id`", "A B"}) {
    auto j = planted_json();
    j["toggles"][0]["id"] = id;
    write(tmp / "abtest.json", j.dump());
    const auto r = run_cli({"--manifest", (tmp / "abtest.json").string(), "run", "--toggle", id});
    EXPECT_EQ(r.exit_code, 2) << id << ": " << r.err;
  }
  for (const std::string& level : std::vector<std::string>{"../../escape", "1;touch " + canary.string(), "$(id)", "a/b"}) {
    auto j = planted_json();
    j["toggles"][7]["levels"] = {"1", level};
    write(tmp / "abtest.json", j.dump());
    const auto r = run_cli({"--manifest", (tmp / "abtest.json").string(), "run", "--toggle", "SIZE=" + level});
    EXPECT_EQ(r.exit_code, 2) << level << ": " << r.err;
  }
  // Toggle specs on the command line.
  for (const std::string& spec : std::vector<std::string>{"../SLOW", "SLOW;touch " + canary.string(), "SIZE=../../x", "SIZE=$(id)"}) {
    const auto r = run_cli({"--manifest", planted_manifest().string(), "--db", (tmp / "r.db").string(), "run", "--toggle", spec});
    EXPECT_EQ(r.exit_code, 2) << spec << ": " << r.err;
  }
  // A param value is accepted as it is and reaches the benchmark as one argument, never a shell
  // command line: the benchmark rejects `--reps "1;touch …"` and the sample is recorded as failed.
  const auto r = run_cli({"--manifest", planted_manifest().string(), "--db", (tmp / "r.db").string(), "--json", "run", "--toggle",
                          "SLOW", "--bench", "planted", "--rounds", "2", "--warmups", "0", "--param",
                          "reps=1;touch " + canary.string() + ";$(touch " + canary.string() + ")", "-j", "2"});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_EQ(query_int(tmp / "r.db", "SELECT count(*) FROM sample WHERE status = 'ok'"), 0);
  EXPECT_FALSE(fs::exists(canary)) << "a metacharacter reached a shell";
  for (const auto& entry : fs::recursive_directory_iterator(tmp.path()))
    EXPECT_EQ(entry.path().filename().string().find("pwned"), std::string::npos) << entry.path();
  EXPECT_FALSE(fs::exists(tmp.path().parent_path() / "escape"));
}

}  // namespace
}  // namespace abtest::test
