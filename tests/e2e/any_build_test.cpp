// Any project, any build, end to end on real builds: patch and revert toggles in worktrees of a
// throwaway git repository give the same culprits as the fixture's CMake options, a patch that does
// not apply is a failed variant with git's reason, an env toggle is measured without a rebuild, a
// program in a subfolder is found, bad manifests of the new kinds are refused with nothing written,
// and `abtest init` writes manifests that abtest accepts.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <regex>

#include "tests/e2e/bisect_test_support.hpp"

namespace abtest::e2e {
namespace {

cli_result git(const fs::path& repo, std::vector<std::string> args) {
  std::vector<std::string> all{"-C", repo.string(), "-c", "user.name=abtest", "-c", "user.email=abtest@localhost",
                               "-c", "commit.gpgsign=false"};
  all.insert(all.end(), args.begin(), args.end());
  return run_program("git", all);
}

// planted_config.hpp.in with eight comment lines between the defines, so that a patch of one
// define has no other define in its context and patches of different toggles combine.
std::string spaced_config(const std::string& slow_line) {
  std::string text = "// planted toggles, spaced for patches\n#pragma once\n";
  const auto gap = [&] {
    for (int i = 0; i < 8; ++i) text += "//\n";
  };
  for (const std::string& line : {slow_line, std::string("#cmakedefine01 PLANTED_PAIR1"), std::string("#cmakedefine01 PLANTED_PAIR2"),
                                 std::string("#cmakedefine01 PLANTED_BROKEN"), std::string("#cmakedefine01 PLANTED_CRASH"),
                                 std::string("#cmakedefine01 PLANTED_DIGEST"), std::string("#define PLANTED_SIZE @PLANTED_SIZE@")}) {
    gap();
    text += line + "\n";
  }
  return text;
}

// A git repository holding the planted fixture (planted-bench only), its manifest with no toggles.
struct planted_repo {
  scratch dir{"any-build"};
  fs::path repo = dir.path() / "proj";
  fs::path db = dir.path() / "r.db";
  nlohmann::json manifest;

  explicit planted_repo(const std::string& slow_line = "#cmakedefine01 PLANTED_SLOW") {
    use_parent_launcher();
    manifest = nlohmann::json::parse(slurp(planted_copy(repo)));
    manifest["toggles"] = nlohmann::json::array();
    std::ofstream(repo / "planted_config.hpp.in", std::ios::trunc) << spaced_config(slow_line);
    EXPECT_EQ(git(repo, {"init", "-q"}).code, 0);
    commit("the planted fixture");
  }
  std::string commit(const std::string& message) {
    EXPECT_EQ(git(repo, {"add", "-A"}).code, 0);
    EXPECT_EQ(git(repo, {"commit", "-q", "-m", message}).code, 0);
    std::string sha = git(repo, {"rev-parse", "HEAD"}).out;
    return sha.substr(0, sha.find('\n'));
  }
  // A patch that replaces `from` by `to` in the config template, made with git and then undone.
  void make_patch(const std::string& name, const std::string& from, const std::string& to) {
    const fs::path cfg = repo / "planted_config.hpp.in";
    std::string text = slurp(cfg);
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    const std::string original = text;
    text.replace(at, from.size(), to);
    std::ofstream(cfg, std::ios::trunc) << text;
    fs::create_directories(repo / "patches");
    std::ofstream(repo / "patches" / (name + ".diff")) << git(repo, {"diff"}).out;
    std::ofstream(cfg, std::ios::trunc) << original;
  }
  void write_manifest() { std::ofstream(repo / "abtest.json", std::ios::trunc) << manifest.dump(2) << "\n"; }
  cli_result abtest(std::vector<std::string> args) {
    std::vector<std::string> all{"--json", "--manifest", (repo / "abtest.json").string(), "--db", db.string()};
    all.insert(all.end(), args.begin(), args.end());
    return run_abtest(all);
  }
};

// The ratio of `metric` in the answer of a `run --json` with one candidate (0, and a failure, where
// it has none).
double ratio_of(const cli_result& r, const std::string& metric) {
  EXPECT_EQ(r.code, 0) << r.err;
  const auto j = json_of(r);
  for (const auto& v : j["verdicts"])
    if (v["metric"] == metric) return v["ratio"].get<double>();
  ADD_FAILURE() << "no verdict on " << metric << "\n" << j.dump(2);
  return 0.0;
}

TEST(any_build, patch_toggles_give_the_same_culprits_as_the_cmake_options) {
  planted_repo p;
  for (const char* t : {"SLOW", "PAIR1", "PAIR2"}) {
    p.make_patch(t, std::string("#cmakedefine01 PLANTED_") + t, std::string("#define PLANTED_") + t + " 1");
    p.manifest["toggles"].push_back({{"id", t}, {"patch", std::string("patches/") + t + ".diff"}});
  }
  p.write_manifest();
  p.commit("the patches and the manifest");
  const auto r = p.abtest({"bisect", "--to", "all", "--metric", "planted.work_count", "--rounds", "3", "--seed", "5"});
  ASSERT_EQ(r.code, 1) << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(j["verdict"], "slower");
  // The same answer as bisect_fixture's on the CMake options (expected.json: 1.3 and 1.4).
  EXPECT_EQ(culprit_sets(j), (std::set<std::vector<std::string>>{{"SLOW"}, {"PAIR1", "PAIR2"}})) << j.dump(2);
  for (const auto& c : j["culprits"])
    EXPECT_NEAR(c["effect"].get<double>(), c["toggles"].size() == 1 ? std::log(1.3) : std::log(1.4), 1e-9) << c.dump();
  // Each variant built in its own worktree, with its patches applied there, never in the project.
  EXPECT_TRUE(fs::exists(p.repo / ".abtest/build/PAIR1+PAIR2+SLOW/src/planted_config.hpp.in"));
  EXPECT_NE(slurp(p.repo / ".abtest/build/PAIR1+PAIR2+SLOW/src/planted_config.hpp.in").find("#define PLANTED_PAIR2 1"), std::string::npos);
  EXPECT_NE(slurp(p.repo / "planted_config.hpp.in").find("#cmakedefine01 PLANTED_SLOW"), std::string::npos);
  EXPECT_TRUE(git(p.repo, {"status", "--porcelain", "--untracked-files=no"}).out.empty());
}

TEST(any_build, a_revert_toggle_takes_a_commit_back_out) {
  planted_repo p("#define PLANTED_SLOW 1");  // the history starts slow...
  std::string cfg = slurp(p.repo / "planted_config.hpp.in");
  cfg.replace(cfg.find("#define PLANTED_SLOW 1"), 22, "#cmakedefine01 PLANTED_SLOW");
  std::ofstream(p.repo / "planted_config.hpp.in", std::ios::trunc) << cfg;
  const std::string fast = p.commit("drop the slow path");  // ...and a commit makes it fast
  p.manifest["toggles"].push_back({{"id", "R1"}, {"revert", fast.substr(0, 10)}});
  p.write_manifest();  // an uncommitted edit: in the worktrees' snapshot
  std::ofstream(p.repo / "notes.txt") << "not tracked\n";  // not in them, and the build says so
  const auto r = p.abtest({"run", "--toggle", "R1", "--rounds", "3", "--bench", "planted", "--seed", "3"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = json_of(r);
  bool seen = false;
  for (const auto& v : j["verdicts"])
    if (v["variant"] == "R1" && v["metric"] == "planted.work_count") {
      seen = true;
      EXPECT_EQ(v["verdict"], "slower");
      EXPECT_NEAR(v["ratio"].get<double>(), 1.3, 1e-12);
    }
  EXPECT_TRUE(seen) << j.dump(2);
  EXPECT_NE(r.err.find("1 untracked file(s) are not in the worktrees (e.g. notes.txt)"), std::string::npos) << r.err;
}

TEST(any_build, a_patch_that_does_not_apply_fails_the_variant_with_gits_reason) {
  planted_repo p;
  p.make_patch("ON", "#cmakedefine01 PLANTED_SLOW", "#define PLANTED_SLOW 1");
  p.make_patch("OFF", "#cmakedefine01 PLANTED_SLOW", "#define PLANTED_SLOW 0");
  p.manifest["toggles"] = {{{"id", "PON"}, {"patch", "patches/ON.diff"}}, {{"id", "POFF"}, {"patch", "patches/OFF.diff"}}};
  p.write_manifest();
  const auto alone = p.abtest({"build", "--variant", "POFF"});
  EXPECT_EQ(alone.code, 0) << alone.err;
  const auto both = p.abtest({"build", "--variant", "PON+POFF"});
  EXPECT_EQ(both.code, 3) << both.out << both.err;
  const auto j = json_of(both);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["ok"], false);
  const std::string tail = j[0]["log_tail"];
  // Patches apply in manifest order: PON first, then POFF fails on the line PON changed.
  EXPECT_NE(tail.find("POFF does not apply after PON: patches/ON.diff"), std::string::npos) << tail;
  EXPECT_NE(tail.find("patch does not apply"), std::string::npos) << tail;  // git's own words
}

TEST(any_build, an_env_toggle_is_measured_without_a_rebuild) {
  planted_repo p;
  p.manifest["toggles"] = {{{"id", "SCALE"}, {"env", "PLANTED_WORK_SCALE"}, {"levels", {"1", "2"}}}};
  p.write_manifest();
  const auto r = p.abtest({"run", "--toggle", "SCALE", "--rounds", "3", "--bench", "planted", "--seed", "2"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = json_of(r);
  bool seen = false;
  for (const auto& v : j["verdicts"])
    if (v["variant"] == "SCALE" && v["metric"] == "planted.work_count") {
      seen = true;
      EXPECT_EQ(v["verdict"], "slower");
      EXPECT_NEAR(v["ratio"].get<double>(), 2.0, 1e-12);  // same binary, twice the work
    }
  EXPECT_TRUE(seen) << "equal binaries must not make an env toggle 'the same program'\n" << j.dump(2);
  const auto builds = run_abtest({"--db", p.db.string(), "query", "--format", "json", "SELECT variant FROM build"});
  EXPECT_EQ(nlohmann::json::parse(builds.out), nlohmann::json::parse(R"([{"variant": "base"}])")) << builds.out;
}

TEST(any_build, an_env_toggle_level_with_a_null_value_removes_the_variable) {
  planted_repo p;
  // Inherited by abtest and so by the benchmark: only a removal makes the baseline run at scale 1.
  ::setenv("PLANTED_WORK_SCALE", "3", 1);
  p.manifest["toggles"] = nlohmann::json::parse(
      R"([{"id": "SCALE", "env": "PLANTED_WORK_SCALE", "levels": ["unset", "two"], "values": {"unset": null, "two": "2"}}])");
  p.write_manifest();
  const auto r = p.abtest({"run", "--toggle", "SCALE", "--rounds", "3", "--bench", "planted", "--seed", "2"});
  ::unsetenv("PLANTED_WORK_SCALE");
  EXPECT_NEAR(ratio_of(r, "planted.work_count"), 2.0, 1e-12) << "the baseline kept the inherited PLANTED_WORK_SCALE=3";
  // The plan (what `show` prints and `--resume` runs) says unset, not "unset" or "".
  const auto shown = p.abtest({"show", json_of(r)["experiment"]});
  ASSERT_EQ(shown.code, 0) << shown.err;
  const auto arms = json_of(shown)["config"]["arms"];
  EXPECT_TRUE(arms[0]["env"]["PLANTED_WORK_SCALE"].is_null()) << arms.dump(2);
  EXPECT_EQ(arms[1]["env"]["PLANTED_WORK_SCALE"], "2") << arms.dump(2);
  EXPECT_NE(arms[0]["binaries_digest"], arms[1]["binaries_digest"]);
  const auto text = run_abtest({"--db", p.db.string(), "show", json_of(r)["experiment"]});
  EXPECT_NE(text.out.find("env PLANTED_WORK_SCALE unset"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("env PLANTED_WORK_SCALE=2"), std::string::npos) << text.out;
}

TEST(any_build, option_values_reach_cmake_and_a_changed_value_rebuilds_the_same_folder) {
  planted_repo p;
  p.manifest["toggles"] = nlohmann::json::parse(R"([
      {"id": "SIZE", "option": "PLANTED_SIZE", "levels": ["small", "big"], "values": {"small": "1", "big": "4"}},
      {"id": "FLAGS", "option": "CMAKE_CXX_FLAGS", "levels": ["O2", "O3"], "values": {"O2": "-O2", "O3": "-O3 -fno-inline"}}])");
  p.write_manifest();
  const auto dry = p.abtest({"build", "--dry-run", "--variant", "SIZE+FLAGS"});
  ASSERT_EQ(dry.code, 0) << dry.err;
  const auto configure = json_of(dry)[0]["configure"];
  for (const char* arg : {"-DPLANTED_SIZE=4", "-DCMAKE_CXX_FLAGS=-O3 -fno-inline"})  // one argument each, spaces and all
    EXPECT_NE(std::find(configure.begin(), configure.end(), arg), configure.end()) << arg << configure.dump(2);
  EXPECT_EQ(json_of(dry)[0]["variant"], "FLAGS+SIZE");  // keys and folders keep the level names
  const auto text = run_abtest({"--manifest", (p.repo / "abtest.json").string(), "build", "--dry-run", "--variant", "FLAGS"});
  EXPECT_NE(text.out.find("-DCMAKE_CXX_FLAGS=\"-O3 -fno-inline\""), std::string::npos) << text.out;

  const auto ratio = [&] {
    return ratio_of(p.abtest({"run", "--toggle", "SIZE", "--rounds", "2", "--bench", "planted", "--seed", "6"}), "planted.work_count");
  };
  EXPECT_NEAR(ratio(), 4.0, 1e-12);
  p.manifest["toggles"][0]["values"]["big"] = "2";  // the same level and folder (.abtest/build/SIZE), another value
  p.write_manifest();
  EXPECT_NEAR(ratio(), 2.0, 1e-12) << "the folder was not configured afresh for the new value";
  const auto shown = run_abtest({"--db", p.db.string(), "show"});
  EXPECT_NE(shown.out.find("value of SIZE: \"2\""), std::string::npos) << shown.out;
  // The build record says what the levels handed the build.
  const auto last = run_abtest({"--db", p.db.string(), "query", "--format", "json",
                                "SELECT details FROM build WHERE variant = 'SIZE' ORDER BY id DESC LIMIT 1"});
  auto details = nlohmann::json::parse(last.out).at(0).at("details");
  if (details.is_string()) details = nlohmann::json::parse(details.get<std::string>());
  EXPECT_EQ(details["values"], nlohmann::json({{"FLAGS", "-O2"}, {"SIZE", "2"}})) << details.dump(2);
}

TEST(any_build, a_wrapped_benchmark_program_is_hashed_and_never_called_the_same_program) {
  // Found by a new user on third-party code: behind `sh -c`, no binary was traced, so every
  // variant looked "the same program" and a planted slowdown was never measured.
  planted_repo p;
  p.make_patch("SLOW", "#cmakedefine01 PLANTED_SLOW", "#define PLANTED_SLOW 1");
  p.manifest["toggles"] = {{{"id", "SLOW"}, {"patch", "patches/SLOW.diff"}}};
  auto& cmd = p.manifest["benchmarks"][0]["command"];
  nlohmann::json wrapped = {"/bin/sh", "-c", "exec \"$@\"", "wrapper"};
  for (const auto& a : cmd) wrapped.push_back(a);
  cmd = wrapped;
  p.write_manifest();
  const auto r = p.abtest({"run", "--toggle", "SLOW", "--rounds", "3", "--bench", "planted", "--seed", "4"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = json_of(r);
  bool seen = false;
  for (const auto& v : j["verdicts"])
    if (v["variant"] == "SLOW" && v["metric"] == "planted.work_count") {
      seen = true;
      EXPECT_NEAR(v["ratio"].get<double>(), 1.3, 1e-12);
    }
  EXPECT_TRUE(seen) << j.dump(2);
}

TEST(any_build, bisect_without_a_metric_asks_for_one_when_no_total_s_can_exist) {
  planted_repo p;
  nlohmann::json gbench_only = nlohmann::json::array();
  gbench_only.push_back({{"name", "g"}, {"format", "gbench"}, {"command", {"{bin}/planted-bench"}}});
  p.manifest["benchmarks"] = gbench_only;
  p.manifest["toggles"] = {{{"id", "SCALE"}, {"env", "PLANTED_WORK_SCALE"}, {"levels", {"1", "2"}}}};
  p.write_manifest();
  const auto r = p.abtest({"bisect", "--to", "all"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("which metric?"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(p.repo / ".abtest/build")) << "asked before building anything";
}

// A metric the benchmark never reports stops the search at its first measurement, naming the ones it
// does report, instead of running every comparison to its round cap and failing at the matrix.
TEST(any_build, bisect_on_a_metric_the_benchmark_never_reports_stops_at_the_first_comparison) {
  planted_repo p;
  p.manifest["toggles"] = {{{"id", "SCALE"}, {"env", "PLANTED_WORK_SCALE"}, {"levels", {"1", "2"}}}};
  p.write_manifest();
  const auto r = p.abtest({"bisect", "--to", "all", "--metric", "planted.no_such_s"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--metric planted.no_such_s: benchmark planted ran but reports no such metric"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("planted.work_count"), std::string::npos) << "the metrics it does report are named\n" << r.err;
  const auto runs = p.abtest({"query", "SELECT count(*) AS n FROM experiment"});
  ASSERT_EQ(runs.code, 0) << runs.err;
  EXPECT_LE(json_of(runs).at(0)["n"].get<int>(), 2) << "the search and its first comparison, nothing more\n" << runs.out;
}

TEST(any_build, bad_manifests_of_the_new_kinds_are_refused_and_nothing_is_written) {
  planted_repo p;
  p.write_manifest();
  const auto base = p.manifest;
  struct bad {
    std::function<void(nlohmann::json&)> edit;
    std::string says;
  };
  const std::vector<bad> cases = {
      {[](nlohmann::json& m) { m["build"]["system"] = "bazel"; }, "build.system: unknown build system \"bazel\""},
      {[](nlohmann::json& m) { m["toggles"] = {{{"id", "F"}, {"feature", "simd"}}}; }, "a cmake project cannot honour \"feature\""},
      {[](nlohmann::json& m) { m["toggles"] = {{{"id", "P"}, {"patch", "patches/none.diff"}}}; }, "no patch file"},
      {[](nlohmann::json& m) { m["toggles"] = {{{"id", "R"}, {"revert", "deadbeef1234"}}}; }, "\"deadbeef1234\" is not a commit of"},
      {[](nlohmann::json& m) {
         m["toggles"] = nlohmann::json::parse(R"([{"id": "O", "option": "CMAKE_CXX_FLAGS", "levels": ["O2", "O3"], "values": {"O4": "-O3"}}])");
       },
       "toggles[0].values.O4: \"O4\" is not one of the levels [O2, O3]"},
      {[](nlohmann::json& m) {
         m["toggles"] = nlohmann::json::parse(R"([{"id": "O", "option": "CMAKE_CXX_FLAGS", "values": {"OFF": null}}])");
       },
       "toggles[0].values.OFF: must be a string, found null"},
  };
  for (const auto& c : cases) {
    p.manifest = base;
    c.edit(p.manifest);
    p.write_manifest();
    const auto r = p.abtest({"build"});
    EXPECT_EQ(r.code, 2) << c.says;
    EXPECT_NE(r.err.find("error: "), std::string::npos);
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(" — "), std::string::npos) << "no fix named: " << r.err;
    EXPECT_FALSE(fs::exists(p.db)) << c.says;
    EXPECT_FALSE(fs::exists(p.repo / ".abtest/build")) << c.says;
  }
}

TEST(any_build, a_program_built_in_a_subfolder_is_found_through_the_file_api) {
  use_parent_launcher();
  scratch dir("subfolder");
  const fs::path proj = dir.path() / "proj";
  fs::create_directories(proj / "tools");
  std::ofstream(proj / "CMakeLists.txt") << "cmake_minimum_required(VERSION 3.25)\nproject(sub LANGUAGES CXX)\n"
                                            "option(SUB_FAST \"less work\" OFF)\nadd_subdirectory(tools)\n";
  std::ofstream(proj / "tools/CMakeLists.txt") << "add_executable(sub-bench bench.cpp)\n"
                                                  "target_compile_definitions(sub-bench PRIVATE SUB_FAST=$<BOOL:${SUB_FAST}>)\n";
  std::ofstream(proj / "tools/bench.cpp") << "#include <cstdio>\nint main() { std::printf(\"{\\\"metrics\\\": {\\\"work\\\": %d}}\\n\", "
                                             "SUB_FAST ? 50 : 100); }\n";
  std::ofstream(proj / "abtest.json") << R"({"project": "sub", "build": {"targets": ["sub-bench"]},
    "toggles": [{"id": "FAST", "option": "SUB_FAST"}],
    "benchmarks": [{"name": "sub", "format": "json", "warmups": 0, "command": ["{bin}/sub-bench"]}]})";
  const auto r = run_abtest({"--json", "--manifest", (proj / "abtest.json").string(), "--db", (dir.path() / "r.db").string(), "run",
                             "--toggle", "FAST", "--rounds", "2"});
  ASSERT_EQ(r.code, 0) << r.err;
  bool seen = false;
  const auto j = json_of(r);
  for (const auto& v : j["verdicts"])
    if (v["metric"] == "sub.work") {
      seen = true;
      EXPECT_NEAR(v["ratio"].get<double>(), 0.5, 1e-12);
    }
  EXPECT_TRUE(seen) << r.out;
}

TEST(any_build, a_makefile_project_builds_per_variant_with_var_toggles_in_argv_and_environment) {
  scratch dir("makefile");
  const fs::path proj = dir.path() / "proj";
  fs::create_directories(proj);
  // WORK comes from the command line ({WORK} in build.command), EXTRA from the environment
  // (make imports it): both kinds of reach of a `var` toggle.
  std::ofstream(proj / "Makefile") << "EXTRA ?= 0\nout/bench: bench.c\n\tmkdir -p out\n"
                                      "\tcc -O2 -DWORK=$(WORK) -DEXTRA=$(EXTRA) bench.c -o out/bench\n";
  std::ofstream(proj / "bench.c") << "#include <stdio.h>\nint main(void) { printf(\"{\\\"metrics\\\": {\\\"work\\\": %d}}\\n\", "
                                     "WORK * (1 + EXTRA)); return 0; }\n";
  std::ofstream(proj / "abtest.json") << R"({"project": "mk",
    "build": {"system": "command", "command": ["make", "WORK={WORK}"], "bin": "out", "targets": ["bench"]},
    "toggles": [{"id": "W", "var": "WORK", "levels": ["100", "200"]}, {"id": "X", "var": "EXTRA", "levels": ["0", "1"]}],
    "benchmarks": [{"name": "mk", "format": "json", "warmups": 0, "command": ["{bin}/bench"]}]})";
  ASSERT_EQ(git(proj, {"init", "-q"}).code, 0);
  // Just made by `git init`: no commit for a worktree to check out — said before anything is built.
  const auto uncommitted = run_abtest({"--manifest", (proj / "abtest.json").string(), "build", "--variant", "W"});
  EXPECT_EQ(uncommitted.code, 2);
  EXPECT_NE(uncommitted.err.find("source_dir: the git repository of " + proj.string() + " has no commit yet — a command build runs "
                                 "in a git worktree per variant: `git init && git add -A && git commit` the project first"),
            std::string::npos) << uncommitted.err;
  ASSERT_EQ(git(proj, {"add", "-A"}).code, 0);
  ASSERT_EQ(git(proj, {"commit", "-q", "-m", "a Makefile project"}).code, 0);
  const auto r = run_abtest({"--json", "--manifest", (proj / "abtest.json").string(), "--db", (dir.path() / "r.db").string(), "run",
                             "--toggle", "W", "--variant", "X", "--variant", "W+X", "--rounds", "2"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = json_of(r);
  std::map<std::string, double> ratio;
  for (const auto& v : j["verdicts"])
    if (v["metric"] == "mk.work") ratio[v["variant"]] = v["ratio"].get<double>();
  EXPECT_NEAR(ratio["W"], 2.0, 1e-12) << j.dump(2);
  EXPECT_NEAR(ratio["X"], 2.0, 1e-12);
  EXPECT_NEAR(ratio["W+X"], 4.0, 1e-12);
  // Each variant built in its own worktree: the in-source build of one never serves another.
  for (const char* v : {"base", "W", "X", "W+X"}) EXPECT_TRUE(fs::exists(proj / ".abtest/build" / v / "src/out/bench")) << v;
  EXPECT_FALSE(fs::exists(proj / "out"));
}

// Meson, the fourth build system (design §3.1): option toggles reach `meson setup` as -D<option>=<value>
// (a boolean through "values", an integer by its levels), every variant has its own set-up folder,
// the programs are found through Meson's introspection, the dry run shows the setup line, and a
// manifest key Meson does not take is refused.
TEST(any_build, a_meson_project_builds_per_variant_with_option_toggles) {
  if (run_program("meson", {"--version"}).code != 0) GTEST_SKIP() << "meson is not installed: scripts/setup.sh installs it";
  scratch dir("meson");
  const fs::path proj = dir.path() / "proj";
  fs::create_directories(proj / "tools");
  std::ofstream(proj / "meson.build") << "project('mz', 'c')\nsubdir('tools')\n";
  // The program in a subfolder: found where the introspection says, not guessed.
  std::ofstream(proj / "tools" / "meson.build")
      << "executable('bench', 'bench.c', c_args: ['-DWORK=' + get_option('work').to_string(),\n"
         "                                       '-DHALF=' + (get_option('half') ? '1' : '0')])\n";
  std::ofstream(proj / "meson_options.txt") << "option('work', type: 'integer', value: 100)\noption('half', type: 'boolean', value: false)\n";
  std::ofstream(proj / "tools" / "bench.c") << "#include <stdio.h>\nint main(void) { printf(\"{\\\"metrics\\\": {\\\"work\\\": %d}}\\n\", "
                                              "HALF ? WORK / 2 : WORK); return 0; }\n";
  const fs::path manifest = proj / "abtest.json";
  std::ofstream(manifest) << R"({"project": "mz",
    "build": {"system": "meson", "build_type": "Release", "targets": ["bench"]},
    "toggles": [{"id": "W", "option": "work", "levels": ["100", "300"]},
                {"id": "H", "option": "half", "values": {"OFF": "false", "ON": "true"}}],
    "benchmarks": [{"name": "mz", "format": "json", "warmups": 0, "command": ["{bin}/bench"]}]})";
  const std::string db = (dir.path() / "r.db").string();
  const auto dry = run_abtest({"--json", "--manifest", manifest.string(), "--db", db, "build", "--dry-run", "--toggle", "W"});
  ASSERT_EQ(dry.code, 0) << dry.err;
  const auto plan = json_of(dry);
  ASSERT_EQ(plan.size(), 1u) << plan.dump(2);
  const auto configure = plan[0]["configure"].get<std::vector<std::string>>();
  ASSERT_GE(configure.size(), 2u) << plan.dump(2);
  EXPECT_EQ(configure[0], "meson");
  EXPECT_EQ(configure[1], "setup");
  EXPECT_NE(std::find(configure.begin(), configure.end(), "--buildtype=release"), configure.end()) << plan.dump(2);
  EXPECT_NE(std::find(configure.begin(), configure.end(), "-Dwork=300"), configure.end()) << plan.dump(2);
  EXPECT_NE(std::find(configure.begin(), configure.end(), "-Dhalf=false"), configure.end()) << "off levels too\n" << plan.dump(2);

  const auto r = run_abtest({"--json", "--manifest", manifest.string(), "--db", db, "run", "--toggle", "W", "--variant", "H",
                             "--variant", "H+W", "--rounds", "2"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = json_of(r);
  std::map<std::string, double> ratio;
  for (const auto& v : j["verdicts"])
    if (v["metric"] == "mz.work") ratio[v["variant"]] = v["ratio"].get<double>();
  EXPECT_NEAR(ratio["W"], 3.0, 1e-12) << j.dump(2);
  EXPECT_NEAR(ratio["H"], 0.5, 1e-12);
  EXPECT_NEAR(ratio["H+W"], 1.5, 1e-12) << j.dump(2);
  // What each build's options resolved to, from Meson's own record (design §5).
  const auto resolved = run_abtest({"--db", db, "query", "--format", "json",
                                    "SELECT json_extract(details, '$.resolved.W.value') AS w, json_extract(details, '$.resolved.H.level') AS h "
                                    "FROM build WHERE variant = 'H+W'"});
  ASSERT_EQ(resolved.code, 0) << resolved.err;
  EXPECT_EQ(nlohmann::json::parse(resolved.out), nlohmann::json::parse(R"([{"w": "300", "h": "ON"}])")) << resolved.out;
  for (const char* v : {"base", "W", "H", "H+W"}) {  // keys name the toggles in id order
    EXPECT_TRUE(fs::exists(proj / ".abtest/build" / v / "meson-info/intro-targets.json")) << v;
    EXPECT_TRUE(fs::exists(proj / ".abtest/build" / v / "tools/bench")) << v;
  }
  // The build record says what ran it.
  const auto q = run_abtest({"--json", "--db", db, "query",
                             "SELECT json_extract(details, '$.system') AS system, json_extract(details, '$.tool') AS tool, "
                             "objects_compiled + cache_hits AS through_cache FROM build ORDER BY id LIMIT 1"});
  ASSERT_EQ(q.code, 0) << q.err;
  const auto row = json_of(q).at(0);
  EXPECT_EQ(row["system"], "meson") << q.out;
  EXPECT_FALSE(row["tool"].get<std::string>().empty()) << q.out;
  EXPECT_GE(row["through_cache"].get<int>(), 1) << "Meson's compiles go through the compiler cache\n" << q.out;

  // A key of another system is refused, naming the ones Meson takes.
  std::ofstream(manifest, std::ios::trunc) << R"({"project": "mz", "build": {"system": "meson", "cmake_args": ["-DX=1"]},
    "benchmarks": [{"name": "mz", "format": "json", "command": ["{bin}/bench"]}]})";
  const auto bad = run_abtest({"--manifest", manifest.string(), "--db", db, "build"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("build.cmake_args: unknown key"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("args"), std::string::npos) << bad.err;
}

TEST(any_build, var_values_reach_a_command_build_and_a_changed_value_cleans_its_worktree) {
  scratch dir("makefile-values");
  const fs::path proj = dir.path() / "proj";
  fs::create_directories(proj);
  // A Makefile that does not know its flags changed, and outputs that git ignores (a worktree's
  // checkout keeps them): only a clean tree rebuilds for a new value.
  std::ofstream(proj / "Makefile") << "out/bench: bench.c\n\tmkdir -p out\n\tcc $(CFLAGS) bench.c -o out/bench\n";
  std::ofstream(proj / ".gitignore") << "out/\n";
  std::ofstream(proj / "bench.c") << "#include <stdio.h>\nint main(void) { printf(\"{\\\"metrics\\\": {\\\"work\\\": %d}}\\n\", WORK); }\n";
  nlohmann::json m = nlohmann::json::parse(R"({"project": "mk",
    "build": {"system": "command", "command": ["make", "CFLAGS={CFLAGS}"], "bin": "out", "targets": ["bench"]},
    "toggles": [{"id": "MORE", "var": "CFLAGS", "levels": ["base", "more"],
                 "values": {"base": "-O2 -DWORK=100", "more": "-O2 -DWORK=300"}}],
    "benchmarks": [{"name": "mk", "format": "json", "warmups": 0, "command": ["{bin}/bench"]}]})");
  std::ofstream(proj / "abtest.json") << m.dump(2);
  ASSERT_EQ(git(proj, {"init", "-q"}).code, 0);
  ASSERT_EQ(git(proj, {"add", "-A"}).code, 0);
  ASSERT_EQ(git(proj, {"commit", "-q", "-m", "a Makefile project"}).code, 0);
  const std::vector<std::string> args{"--json", "--manifest", (proj / "abtest.json").string(), "--db", (dir.path() / "r.db").string()};
  const auto ratio = [&] {
    auto all = args;
    all.insert(all.end(), {"run", "--toggle", "MORE", "--rounds", "2"});
    return ratio_of(run_abtest(all), "mk.work");
  };
  EXPECT_NEAR(ratio(), 3.0, 1e-12);
  auto dry = args;
  dry.insert(dry.end(), {"build", "--dry-run", "--variant", "MORE"});
  const auto planned = json_of(run_abtest(dry));
  EXPECT_EQ(planned[0]["command"], nlohmann::json({"make", "CFLAGS=-O2 -DWORK=300"})) << planned.dump(2);
  EXPECT_EQ(planned[0]["env"]["CFLAGS"], "-O2 -DWORK=300");
  m["toggles"][0]["values"]["more"] = "-O2 -DWORK=200";
  std::ofstream(proj / "abtest.json", std::ios::trunc) << m.dump(2);
  EXPECT_NEAR(ratio(), 2.0, 1e-12) << "make kept the binary of the old value";
}

TEST(any_build, init_writes_a_manifest_that_abtest_builds_and_never_overwrites_one) {
  planted_repo p;
  fs::remove(p.repo / "abtest.json");
  const auto r = run_abtest({"init"}, p.repo);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("wrote "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("what it read or guessed"), std::string::npos) << r.out;
  const auto m = nlohmann::json::parse(slurp(p.repo / "abtest.json"));
  std::set<std::string> options;
  for (const auto& t : m["toggles"]) options.insert(t["option"]);
  for (const char* o : {"PLANTED_SLOW", "PLANTED_NULL", "PLANTED_PAIR1", "PLANTED_SIZE"}) EXPECT_TRUE(options.count(o)) << o << m.dump(2);
  for (const auto& t : m["toggles"])
    if (t["option"] == "PLANTED_SIZE") {
      EXPECT_EQ(t["levels"], nlohmann::json({"1", "2", "4"}));
    }
  // planted-bench prints its own JSON (no Google Benchmark): init says so instead of guessing.
  EXPECT_NE(r.out.find("planted-bench"), std::string::npos) << r.out;
  const auto built = run_abtest({"--db", (p.dir.path() / "init.db").string(), "build", "--dry-run", "--variant", "all"}, p.repo);
  EXPECT_EQ(built.code, 0) << built.err;
  const std::string before = slurp(p.repo / "abtest.json");
  const auto again = run_abtest({"init"}, p.repo);
  EXPECT_EQ(again.code, 2);
  EXPECT_NE(again.err.find("never overwrites"), std::string::npos) << again.err;
  EXPECT_EQ(slurp(p.repo / "abtest.json"), before);
}

TEST(any_build, init_on_this_repository_yields_a_manifest_abtest_accepts) {
  scratch dir("init-self");
  const fs::path manifest = dir.path() / "abtest.json";
  const auto r = run_abtest({"--manifest", manifest.string(), "init", "--source", ABTEST_SOURCE_DIR});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto m = nlohmann::json::parse(slurp(manifest));
  std::set<std::string> options;
  for (const auto& t : m["toggles"]) options.insert(t["option"]);
  for (const char* o : {"ABTEST_A1_INLINE_CAP", "ABTEST_A2_PRESIZE", "ABTEST_A4_PARALLEL_BG2", "ABTEST_D4_MSM_WINDOW"})
    EXPECT_TRUE(options.count(o)) << o << "\n" << m.dump(2);
  EXPECT_FALSE(options.count("ABTEST_BUILD_TESTS")) << "a build setting is not an optimization";
  std::set<std::string> programs;
  for (const auto& b : m["benchmarks"]) programs.insert(b["command"][0]);
  EXPECT_TRUE(programs.count("{bin}/synth-bench")) << m.dump(2);  // links Google Benchmark
  const auto dry = run_abtest({"--manifest", manifest.string(), "build", "--dry-run", "--variant", "all"});
  EXPECT_EQ(dry.code, 0) << dry.err;
}

}  // namespace
}  // namespace abtest::e2e
