// Child faults through `abtest run` (real builds of tests/hardening/fault_project): a benchmark
// that hangs (its whole process group is killed at the timeout, no orphan left), crashes, prints
// garbage, prints 100 MB, or exits 0 without metrics (or without any output) is recorded with a clear status, and none of
// them stops the experiment: the well-behaved benchmark still gets its verdict.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/hardening/abtest_cli.hpp"

namespace abtest::test {
namespace {

// True while `pid` exists and is not a zombie.
bool process_alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const auto close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

TEST(child_faults, each_fault_is_recorded_with_its_status_and_the_experiment_goes_on) {
  temp_dir tmp("faults");
  const fs::path pidfile = tmp / "grandchild.pid";
  nlohmann::json m = {
      {"project", "faults"},
      {"source_dir", ABTEST_HARDENING_DIR "/fault_project"},
      {"build", {{"generator", "Ninja"}, {"build_type", "Release"}, {"targets", {"fault-child"}}}},
      {"params", {{"pidfile", pidfile.string()}}},
      {"toggles", {{{"id", "X"}, {"option", "FAULT_X"}}}},
      {"benchmarks",
       {{{"name", "ok"}, {"format", "json"}, {"command", {"{bin}/fault-child", "ok"}}},
        {{"name", "hang"}, {"format", "json"}, {"timeout_s", 1}, {"command", {"{bin}/fault-child", "hang", "{pidfile}"}}},
        {{"name", "crash"}, {"format", "json"}, {"command", {"{bin}/fault-child", "crash"}}},
        {{"name", "garbage"}, {"format", "json"}, {"command", {"{bin}/fault-child", "garbage"}}},
        {{"name", "flood"}, {"format", "json"}, {"timeout_s", 120}, {"command", {"{bin}/fault-child", "flood"}}},
        {{"name", "silent"}, {"format", "json"}, {"command", {"{bin}/fault-child", "silent"}}},
        {{"name", "empty"}, {"format", "json"}, {"command", {"{bin}/fault-child", "empty"}}}}}};
  std::ofstream(tmp / "abtest.json") << m.dump(2);
  const fs::path db = tmp / "r.db";
  const auto r = run_cli({"--manifest", (tmp / "abtest.json").string(), "--db", db.string(), "--json", "run", "--toggle", "X",
                          "--rounds", "2", "--warmups", "0", "--seed", "3", "-j", "2"});
  EXPECT_EQ(r.exit_code, 4) << "a failed benchmark exits 4\n" << r.err;

  auto count = [&](const std::string& bench, const std::string& status) {
    return query_int(db, "SELECT count(*) FROM sample WHERE benchmark = '" + bench + "' AND status = '" + status + "'");
  };
  constexpr int per_bench = 2 * 2;  // arms × rounds
  EXPECT_EQ(count("ok", "ok"), per_bench);
  EXPECT_EQ(count("hang", "timeout"), per_bench);
  EXPECT_EQ(count("crash", "crashed"), per_bench);
  EXPECT_EQ(count("garbage", "bad_output"), per_bench);
  EXPECT_EQ(count("silent", "no_metrics"), per_bench);
  EXPECT_EQ(query_int(db, "SELECT count(*) FROM sample WHERE benchmark = 'empty' AND status IN ('no_metrics', 'bad_output')"), per_bench);
  // 100 MB of noise before the report: recorded (bounded capture) with a status that says so.
  EXPECT_EQ(query_int(db, "SELECT count(*) FROM sample WHERE benchmark = 'flood' AND status IN ('ok', 'bad_output')"), per_bench);
  EXPECT_EQ(query_int(db, "SELECT count(*) FROM sample WHERE status <> 'ok' AND (error IS NULL OR error = '')"), 0)
      << "every failed sample says why";

  // The well-behaved benchmark still gets its verdict.
  bool ok_verdict = false;
  for (const auto& v : json_of(r).value("verdicts", nlohmann::json::array()))
    if (v.value("metric", "") == "ok.total_s") ok_verdict = true;
  EXPECT_TRUE(ok_verdict) << r.out;

  // The hanging benchmark's grandchild died with its process group.
  std::ifstream in(pidfile);
  pid_t grandchild = 0;
  ASSERT_TRUE(in >> grandchild) << "the hang benchmark never wrote its grandchild's pid";
  for (int i = 0; i < 50 && process_alive(grandchild); ++i) sleep_us(100'000);
  EXPECT_FALSE(process_alive(grandchild)) << "orphan " << grandchild << " survived the timeout";
  if (process_alive(grandchild)) ::kill(grandchild, SIGKILL);
  std::string why;
  EXPECT_TRUE(db_check_passes(db, &why)) << why;
}

}  // namespace
}  // namespace abtest::test
