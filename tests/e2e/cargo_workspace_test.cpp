// abtest on the incident's Cargo shape (tests/fixtures/cargo-workspace), real builds: a bench
// target of a workspace member, enabled through the bench crate's feature, built per variant with
// a core-crate toggle of known effect and read back SLOWER, through its own printed timing and
// through a Criterion bench; a missing bench named; `init` listing the members, their features and
// each bench with its harness's format. Skipped (never passed)
// without cargo or Debian's crates. The crate's copy and Cargo's target folder persist in the build
// tree, so Criterion's dependencies compile once (~2 min of CPU), not on every run.
#include <gtest/gtest.h>

#include "tests/e2e/bisect_test_support.hpp"

namespace abtest::e2e {
namespace {

const fs::path fixture = fs::path(ABTEST_SOURCE_DIR) / "tests/fixtures/cargo-workspace";

bool have_cargo(std::string& why) {
  if (std::system("command -v cargo >/dev/null 2>&1") != 0) return why = "no cargo on PATH", false;
  std::error_code ec;
  if (!fs::exists("/usr/share/cargo/registry/criterion-0.3.6", ec)) return why = "Debian's librust-criterion-dev is not installed", false;
  return true;
}

#define SKIP_WITHOUT_CARGO()                                                    \
  if (std::string why; !have_cargo(why)) GTEST_SKIP() << why << " — scripts/setup.sh --with-tests"

// The workspace's sources (not target/, messages/ or abtest.json) in `dest`, files rewritten only
// when they differ (Cargo's fingerprints stay fresh), and `manifest` as its abtest.json.
fs::path workspace_copy(const fs::path& dest, const nlohmann::json& manifest) {
  for (auto it = fs::recursive_directory_iterator(fixture); it != fs::recursive_directory_iterator(); ++it) {
    const auto rel = fs::relative(it->path(), fixture);
    const std::string top = rel.begin()->string();
    if (top == "target" || top == "messages" || top == "abtest.json" || top == "README.md") {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) write_if_changed(dest / rel, slurp(it->path()));
  }
  if (manifest.is_null()) fs::remove(dest / "abtest.json");
  else write_if_changed(dest / "abtest.json", manifest.dump(2) + "\n");
  return dest / "abtest.json";
}

// The persistent copy of the workspace, with a fresh results database.
struct workspace {
  fs::path dir = fs::path(ABTEST_E2E_WORK_DIR) / "cargo-workspace";
  fs::path db = dir / "results.db";
  nlohmann::json manifest = nlohmann::json::parse(slurp(fixture / "abtest.json"));
  workspace() { fs::remove(db); }
  cli_result abtest(std::vector<std::string> args) {
    workspace_copy(dir, manifest);
    std::vector<std::string> all{"--json", "--manifest", (dir / "abtest.json").string(), "--db", db.string()};
    all.insert(all.end(), args.begin(), args.end());
    return run_abtest(all);
  }
};

const nlohmann::json* verdict_on(const nlohmann::json& j, const std::string& metric) {
  for (const auto& v : j["verdicts"])
    if (v["metric"] == metric) return &v;
  return nullptr;
}

TEST(cargo_workspace, a_members_bench_target_reads_the_core_toggle_slower) {
  SKIP_WITHOUT_CARGO();
  workspace w;
  // 5 rounds of ~0.3 s runs: 3–5 rounds of 60 ms runs read INCONCLUSIVE about 1 time in 10 on a
  // host loaded 7x over its 2 cores (6 of 6 passed since).
  w.manifest["params"]["n"] = "40000000";
  const auto r = w.abtest({"run", "--toggle", "SLOW", "--rounds", "5", "--seed", "5"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = json_of(r);
  const auto* v = verdict_on(j, "synth.synth_s");
  ASSERT_NE(v, nullptr) << j.dump(2);
  // planted_slow walks the chain twice: about 2× (2.1× measured on a loaded 2-core host).
  EXPECT_EQ((*v)["verdict"], "slower") << v->dump();
  EXPECT_GT((*v)["ratio"].get<double>(), 1.4) << v->dump();
  // Each variant's bench program, copied from where Cargo's messages said, under {bin}.
  for (const char* variant : {"base", "SLOW"})
    EXPECT_TRUE(fs::exists(w.dir / ".abtest/build" / variant / "release/synth")) << variant;
  EXPECT_TRUE(fs::exists(w.dir / ".abtest/build/cargo-target"));
}

TEST(cargo_workspace, a_criterion_bench_reads_the_core_toggle_slower) {
  SKIP_WITHOUT_CARGO();
  workspace w;
  w.manifest["build"]["packages"] = {"ws-criterion"};
  w.manifest["build"]["features"] = nlohmann::json::array();
  w.manifest["build"]["targets"] = {"bench:chain"};
  // What init writes for a Criterion bench, filtered to one bench id: about 2.5 s per sample.
  w.manifest["benchmarks"] = {{{"name", "chain"}, {"format", "criterion"}, {"timeout_s", 120},
                               {"command", {"{bin}/chain", "--bench", "--warm-up-time", "1", "--measurement-time", "1", "--sample-size", "10",
                                            "--noplot", "chain/64k"}}}};
  // Six rounds, not three: with two degrees of freedom a loaded host (load ≈ 14) left the planted 2.1×
  // INCONCLUSIVE once, its interval [0.93, 4.59]; five degrees of freedom keep it clear of 1.
  const auto r = w.abtest({"run", "--toggle", "SLOW", "--rounds", "6", "--seed", "7"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = json_of(r);
  // One metric per Criterion bench id: chain/64k, and not chain/1k, which the filter left out.
  const nlohmann::json* v = nullptr;
  for (const auto& x : j["verdicts"]) {
    const std::string metric = x["metric"];
    EXPECT_EQ(metric.find("1k"), std::string::npos) << metric;
    if (metric.find("64k") != std::string::npos) v = &x;
  }
  ASSERT_NE(v, nullptr) << j.dump(2);
  EXPECT_EQ((*v)["metric"].get<std::string>().substr((*v)["metric"].get<std::string>().size() - 2), "_s") << v->dump();
  // planted_slow walks the chain twice: about 2× per iteration, read from Criterion's estimate.
  EXPECT_EQ((*v)["verdict"], "slower") << v->dump();
  EXPECT_GT((*v)["ratio"].get<double>(), 1.4) << v->dump();
  EXPECT_TRUE(fs::exists(w.dir / ".abtest/build/SLOW/release/chain"));
}

TEST(cargo_workspace, a_bench_no_selected_member_has_is_named) {
  SKIP_WITHOUT_CARGO();
  workspace w;
  w.manifest["build"]["targets"] = {"bench:synth", "bench:nosuch"};
  w.manifest["benchmarks"].push_back({{"name", "nosuch"}, {"format", "json"}, {"command", {"{bin}/nosuch"}}});
  const auto r = w.abtest({"build", "--variant", "base"});
  EXPECT_NE(r.code, 0);
  EXPECT_NE((r.out + r.err).find("nosuch"), std::string::npos) << r.out << r.err;
}

TEST(cargo_workspace, init_lists_members_features_and_benches_with_their_formats) {
  SKIP_WITHOUT_CARGO();
  scratch dir("cargo-ws-init");
  const fs::path manifest = workspace_copy(dir.path() / "ws", nullptr);
  // A bench Cargo finds by itself (benches/walk.rs, not declared): libtest's default harness.
  write_if_changed(dir.path() / "ws/core/benches/walk.rs", "//! An undeclared bench.\n#[test]\nfn walks() { assert_eq!(ws_core::chain(1, 10), ws_core::chain(1, 10)); }\n");
  const auto r = run_abtest({"--json", "init"}, dir.path() / "ws");
  const auto answer = json_of(r);
  const auto m = nlohmann::json::parse(slurp(manifest));
  EXPECT_EQ(m["build"]["system"], "cargo");
  EXPECT_EQ(m["build"]["packages"], nlohmann::json({"ws-bench", "ws-core", "ws-criterion"}));
  EXPECT_EQ(m["build"]["features"], nlohmann::json({"ws-bench?/synth-bench"}));  // synth's required-features
  const auto targets = m["build"]["targets"].get<std::set<std::string>>();
  EXPECT_EQ(targets, (std::set<std::string>{"bench:synth", "bench:chain", "bench:walk"}));
  std::set<std::string> features;
  for (const auto& t : m["toggles"]) features.insert(t["feature"]);
  EXPECT_EQ(features, (std::set<std::string>{"ws-core?/planted_slow", "ws-core?/planted_null"}));
  std::map<std::string, nlohmann::json> benches;
  for (const auto& b : m["benchmarks"]) benches[b["name"]] = b;
  ASSERT_EQ(benches.size(), 3u) << m.dump(2);
  EXPECT_EQ(benches["synth"]["format"], "json");  // synth prints its own timing: the user says how
  EXPECT_EQ(benches["synth"]["command"], nlohmann::json({"{bin}/synth"}));
  EXPECT_EQ(benches["chain"]["format"], "criterion");
  EXPECT_EQ(benches["chain"]["command"], nlohmann::json({"{bin}/chain", "--bench", "--warm-up-time", "1", "--measurement-time", "1",
                                                         "--sample-size", "10", "--noplot"}));
  EXPECT_EQ(benches["walk"]["format"], "libtest");
  EXPECT_EQ(benches["walk"]["command"], nlohmann::json({"{bin}/walk", "--bench"}));
  EXPECT_NE(answer["to_do"].dump().find("check each benchmark's command and format (synth)"), std::string::npos) << answer.dump(2);
  EXPECT_NE(answer["left_out"].dump().find("ws-bench?/synth-bench (required by a benchmark program"), std::string::npos) << answer.dump(2);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(answer["valid"], true) << answer.dump(2);
  // The terminal's next step names a benchmark read through its harness's format, not the json guess.
  fs::remove(manifest);
  const auto text = run_abtest({"init"}, dir.path() / "ws");
  EXPECT_NE(text.out.find("next: abtest build --bench "), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("next: abtest build --bench synth"), std::string::npos) << text.out;
  const auto dry = run_abtest({"build", "--dry-run", "--variant", "all"}, dir.path() / "ws");
  EXPECT_EQ(dry.code, 0) << dry.err;
}

}  // namespace
}  // namespace abtest::e2e
