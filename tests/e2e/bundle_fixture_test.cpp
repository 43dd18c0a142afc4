// `abtest run --bundle` end to end on the planted fixture: the bundle, moved away from the sources,
// the build folders and every build tool, runs there and imports back with the schedule and the
// verdicts of a direct run with the same seed; a changed program is refused; a refused write (a full
// disk) keeps what was measured; a budget stops between rounds, imports as partial and resumes; a
// plan that needs CUDA refuses on a host without a device; a matrix bundle's design is attributed by
// `matrix --analyze` once imported.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <string>

#include "tests/e2e/planted_run.hpp"
#include "tests/hardening/abtest_cli.hpp"
#include "tests/hardening/planted_copy.hpp"

namespace abtest::test {
namespace {

// Runs `argv` (not abtest) with exactly `env` as its environment, in `cwd`.
cli_result run_program(const std::vector<std::string>& argv, const std::vector<std::string>& env, const fs::path& cwd) {
  static int counter = 0;
  const fs::path out = cwd / ("prog-" + std::to_string(counter) + ".out"), err = cwd / ("prog-" + std::to_string(counter++) + ".err");
  std::vector<std::string> a = argv, e = env;
  std::vector<char*> av, ev;
  for (auto& s : a) av.push_back(s.data());
  for (auto& s : e) ev.push_back(s.data());
  av.push_back(nullptr);
  ev.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, av[0], &fa, nullptr, av.data(), ev.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("cannot start " + argv[0]);
  return wait_cli(cli_child{pid, out, err});
}

// The bundle's runner as a host without the build would run it: no PATH (no cmake, no compiler),
// nothing else inherited.
cli_result run_bundle(const fs::path& bundle, const std::vector<std::string>& args, const fs::path& cwd) {
  std::vector<std::string> argv{(bundle / "run").string()};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_program(argv, {"PATH=/nonexistent"}, cwd);
}

// `abtest run … --bundle DIR` on the fixture copy (database in `tmp`); returns its --json.
nlohmann::json make_bundle(const temp_dir& tmp, const fs::path& dir, const std::vector<std::string>& args, std::uint64_t seed = 11) {
  std::vector<std::string> all = args;
  all.insert(all.end(), {"--bundle", dir.string()});
  const auto r = run_planted(tmp, all, seed);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  return json_of(r);
}

// The bundle builds' folder renamed away while it lives: nothing the bundle runs may come from there.
class out_of_reach {
 public:
  explicit out_of_reach(fs::path p) : path_(std::move(p)), away_(path_.string() + ".away") { fs::rename(path_, away_); }
  ~out_of_reach() {
    std::error_code ec;
    fs::rename(away_, path_, ec);
  }

 private:
  fs::path path_, away_;
};

std::string schedule_of(const fs::path& db, const std::string& experiment) {
  const auto r = run_cli({"--db", db.string(), "query", "--format", "json",
                          "SELECT s.round, s.position, s.warmup, a.variant, s.benchmark FROM sample s JOIN arm a ON "
                          "a.experiment_id = s.experiment_id AND a.idx = s.arm_idx WHERE s.experiment_id = '" + experiment +
                          "' ORDER BY s.warmup DESC, s.round, s.position"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

TEST(bundle_fixture, runs_away_from_the_build_and_imports_with_the_verdicts_of_a_direct_run) {
  temp_dir tmp("e2e-bundle");
  const auto made = make_bundle(tmp, tmp / "made", {"--toggle", "SLOW", "--rounds", "4"});
  EXPECT_EQ(made["arms"], (nlohmann::json{"base", "SLOW"})) << made.dump();
  for (const char* f : {"run", "plan.json", "README.txt"}) EXPECT_TRUE(fs::exists(tmp / "made" / f)) << f;
  EXPECT_EQ(query_int(tmp / "results.db", "SELECT COUNT(*) FROM sample"), 0) << "a bundle measures nothing here";

  fs::create_directories(tmp / "elsewhere");
  fs::rename(tmp / "made", tmp / "elsewhere" / "bundle");
  const fs::path bundle = tmp / "elsewhere" / "bundle";
  cli_result ran;
  {
    const out_of_reach builds(fs::path(ABTEST_PLANTED_WORK_DIR) / ".abtest" / "bundle-build");
    const auto check = run_bundle(bundle, {"--check"}, tmp.path());
    EXPECT_EQ(check.exit_code, 0) << check.err;
    EXPECT_NE(check.err.find("check: ok"), std::string::npos) << check.err;
    ran = run_bundle(bundle, {"--out", (tmp / "out").string()}, tmp.path());
  }
  ASSERT_EQ(ran.exit_code, 0) << ran.out << ran.err;
  EXPECT_NE(ran.err.find("complete: 4 rounds"), std::string::npos) << ran.err;

  const auto imported = run_cli({"--db", (tmp / "imported.db").string(), "--json", "import", (tmp / "out").string()});
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  const auto ij = json_of(imported);
  EXPECT_EQ(ij["imported"]["partial"], false) << imported.out;
  const std::string id = ij.value("experiment", "");
  EXPECT_EQ(id, made.value("experiment", "")) << "the plan's experiment id is kept";

  const auto direct = run_planted(tmp, {"--toggle", "SLOW", "--rounds", "4"});
  ASSERT_EQ(direct.exit_code, 0) << direct.err;
  const auto dj = json_of(direct);
  EXPECT_EQ(schedule_of(tmp / "imported.db", id), schedule_of(tmp / "results.db", dj.value("experiment", "")))
      << "the same seed gives the same rounds in the same order";
  ASSERT_EQ(ij["verdicts"].size(), dj["verdicts"].size()) << imported.out << direct.out;
  for (const auto& v : dj["verdicts"]) {
    const auto* other = find_verdict(ij, v["variant"], v["metric"]);
    ASSERT_NE(other, nullptr) << v.dump();
    EXPECT_EQ((*other)["n"], v["n"]);
  }
  // The planted work is exact: equal verdicts and ratios; time only must not contradict it.
  const auto* work = find_verdict(ij, "SLOW", "planted.work_count");
  ASSERT_NE(work, nullptr);
  EXPECT_EQ((*work)["verdict"], "slower");
  EXPECT_EQ((*work)["verdict"], (*find_verdict(dj, "SLOW", "planted.work_count"))["verdict"]);
  EXPECT_NEAR((*work)["ratio"].get<double>(), 1.3, 1e-9);
  EXPECT_NE((*find_verdict(ij, "SLOW", "planted.total_s"))["verdict"], "faster");

  // An ordinary experiment here: show and compare read it.
  const auto show = run_cli({"--db", (tmp / "imported.db").string(), "show", id});
  EXPECT_EQ(show.exit_code, 0) << show.err;
  const auto compare = run_cli({"--db", (tmp / "imported.db").string(), "--json", "compare", id});
  EXPECT_EQ(compare.exit_code, 0) << compare.err;
  EXPECT_EQ((*find_verdict(json_of(compare), "SLOW", "planted.work_count"))["verdict"], "slower");
}

TEST(bundle_fixture, a_changed_program_is_refused_by_check_and_by_run) {
  temp_dir tmp("e2e-bundle-changed");
  make_bundle(tmp, tmp / "b", {"--toggle", "SLOW", "--rounds", "2"});
  std::ofstream(tmp / "b" / "bin" / "SLOW" / "planted-bench", std::ios::app) << "tampered";
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--check"}, {"--out", (tmp / "out").string()}}) {
    const auto r = run_bundle(tmp / "b", args, tmp.path());
    EXPECT_EQ(r.exit_code, 5) << args[0] << "\n" << r.err;
    EXPECT_EQ(r.err.find("error: "), r.err.find("error: /")) << "the error names the file\n" << r.err;
    EXPECT_NE(r.err.find("planted-bench changed since the bundle was made"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::exists(tmp / "out" / "results.db")) << "nothing is measured on a refused host";
}

TEST(bundle_fixture, a_budget_stops_between_rounds_imports_as_partial_and_resumes) {
  temp_dir tmp("e2e-bundle-budget");
  make_bundle(tmp, tmp / "b", {"--toggle", "SLOW", "--rounds", "3"});
  const std::string out = (tmp / "out").string(), db = (tmp / "imported.db").string();
  const auto first = run_bundle(tmp / "b", {"--out", out, "--budget-s", "0"}, tmp.path());
  EXPECT_EQ(first.exit_code, 1) << first.err;
  EXPECT_NE(first.err.find("partial"), std::string::npos) << first.err;
  // One whole round (the warm-up round) and no more: 2 arms × 1 benchmark.
  EXPECT_EQ(query_int(tmp / "out" / "results.db", "SELECT COUNT(*) FROM sample"), 2);

  auto imported = run_cli({"--db", db, "--json", "import", out});
  EXPECT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_EQ(json_of(imported)["imported"]["partial"], true) << imported.out;
  EXPECT_EQ(query_int(db, "SELECT COUNT(*) FROM experiment WHERE status = 'incomplete'"), 1);

  const auto second = run_bundle(tmp / "b", {"--out", out}, tmp.path());
  EXPECT_EQ(second.exit_code, 0) << second.err;
  EXPECT_NE(second.err.find("resuming"), std::string::npos) << second.err;
  imported = run_cli({"--db", db, "--json", "import", out});
  EXPECT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_EQ(json_of(imported)["imported"]["partial"], false) << imported.out;
  EXPECT_EQ(query_int(db, "SELECT COUNT(*) FROM experiment WHERE status = 'complete'"), 1);
  EXPECT_EQ(query_int(db, "SELECT COUNT(*) FROM sample"), 2 * (1 + 3)) << "re-imported without duplicates";
}

// A write the host refuses — here a file-size limit (`ulimit -f`, SIGXFSZ ignored so write() fails
// with EFBIG, as it fails with ENOSPC on a full disk) — stops the runner with a clear error and exit
// 6, and what was measured stays: the same --out resumes once the host can write again.
TEST(bundle_fixture, a_refused_write_is_a_clear_error_and_keeps_what_was_measured) {
  temp_dir tmp("e2e-bundle-full");
  make_bundle(tmp, tmp / "b", {"--toggle", "SLOW", "--rounds", "2"});
  const std::string out = (tmp / "out").string();
  EXPECT_EQ(run_bundle(tmp / "b", {"--out", out, "--budget-s", "0"}, tmp.path()).exit_code, 1);
  EXPECT_EQ(query_int(tmp / "out" / "results.db", "SELECT COUNT(*) FROM sample"), 2);
  const auto full = run_program({"/bin/sh", "-c", "trap '' XFSZ; ulimit -f 16; exec \"$0\" \"$@\"", (tmp / "b" / "run").string(),
                                 "--out", out},
                                {"PATH=/nonexistent"}, tmp.path());
  EXPECT_EQ(full.exit_code, 6) << full.err;
  EXPECT_NE(full.err.find("error: cannot write " + out + "/results.db"), std::string::npos) << full.err;
  EXPECT_NE(full.err.find("what was measured stays"), std::string::npos) << full.err;
  EXPECT_EQ(query_int(tmp / "out" / "results.db", "SELECT COUNT(*) FROM sample"), 2) << "nothing lost, nothing half-written";
  const auto again = run_bundle(tmp / "b", {"--out", out}, tmp.path());
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(query_int(tmp / "out" / "results.db", "SELECT COUNT(*) FROM sample"), 2 * (1 + 2));
}

TEST(bundle_fixture, a_matrix_bundle_imports_and_its_design_attributes_the_planted_effect) {
  temp_dir tmp("e2e-bundle-matrix");
  const std::string db = (tmp / "results.db").string();
  const auto made = run_cli({"--manifest", planted_manifest().string(), "--db", db, "--json", "matrix", "--toggle", "SLOW",
                             "--toggle", "PAIR1", "--rounds", "2", "--seed", "5", "--bundle", (tmp / "b").string()});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  EXPECT_EQ(json_of(made)["arms"].size(), 4u) << made.out;
  const auto ran = run_bundle(tmp / "b", {"--out", (tmp / "out").string(), "-q"}, tmp.path());
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  ASSERT_EQ(run_cli({"--db", db, "import", (tmp / "out").string()}).exit_code, 0);
  const auto analyzed = run_cli({"--manifest", planted_manifest().string(), "--db", db, "--json", "matrix", "--analyze",
                                 "--experiment", json_of(made).value("experiment", ""), "--metric", "planted.work_count"});
  ASSERT_EQ(analyzed.exit_code, 0) << analyzed.err;
  const auto j = json_of(analyzed);
  ASSERT_EQ(j["effects"].size(), 1u) << analyzed.out;
  std::map<std::string, double> culprits;
  for (const auto& e : j["effects"][0]["effects"])
    if (e["culprit"].get<bool>()) culprits[e["term"].get<std::string>()] = e["effect"].get<double>();
  ASSERT_EQ(culprits.size(), 1u) << j["effects"].dump(2);
  EXPECT_NEAR(culprits["SLOW"], std::log(1.3), 1e-9);
}

TEST(bundle_fixture, a_plan_that_needs_cuda_refuses_on_a_host_without_a_device) {
  if (fs::exists("/dev/nvidiactl") || fs::exists("/proc/driver/nvidia/gpus")) GTEST_SKIP() << "this host has an NVIDIA device";
  temp_dir tmp("e2e-bundle-cuda");
  // The fixture's manifest with SLOW requiring CUDA, beside it (the same builds).
  auto doc = nlohmann::json::parse(read_text(planted_manifest()));
  for (auto& t : doc["toggles"])
    if (t["id"] == "SLOW") t["requires"] = {"cuda"};
  const fs::path manifest = fs::path(ABTEST_PLANTED_WORK_DIR) / "abtest-cuda.json";
  std::ofstream(manifest) << doc.dump(2);
  const auto made = run_cli({"--manifest", manifest.string(), "--db", (tmp / "results.db").string(), "run", "--bench", "planted",
                             "--toggle", "SLOW", "--rounds", "2", "--bundle", (tmp / "b").string()});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const auto r = run_bundle(tmp / "b", {"--check"}, tmp.path());
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_NE(r.err.find("error: this plan needs a CUDA device (SLOW requires cuda)"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace abtest::test
