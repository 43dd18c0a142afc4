// `abtest pr` on a Rust crate whose pull request adds `planted_slow` to its `default` features
// (tests/fixtures/cargo-indexer in a generated git repository, real Cargo builds, design §5): both
// sides are built with the crate's own defaults, so the head runs twice the synthesis — timed,
// confirmed, exit 1, one alert, the feature toggle named, and the head built again without it.
// Skipped (never passed) without cargo or Debian's smallvec crate.
#include <gtest/gtest.h>

#include "tests/e2e/bisect_test_support.hpp"

namespace abtest::e2e {
namespace {

bool have_cargo(std::string& why) {
  if (std::system("command -v cargo >/dev/null 2>&1") != 0) return why = "no cargo on PATH", false;
  std::error_code ec;
  if (!fs::exists("/usr/share/cargo/registry", ec)) return why = "Debian's crate registry is not installed", false;
  for (const auto& e : fs::directory_iterator("/usr/share/cargo/registry", fs::directory_options::skip_permission_denied))
    if (e.path().filename().string().rfind("smallvec-1.", 0) == 0) return true;
  return why = "Debian's librust-smallvec-dev is not installed", false;
}

// The crate's sources (not its target/ or .abtest/) in `dest` as a git repository: main, and a
// branch `default-slow` whose Cargo.toml turns planted_slow on for everyone. Generated once with
// fixed identities and dates, so its shas (and build folders) stay the same between runs.
void crate_repo(const fs::path& dest) {
  if (fs::exists(dest / ".git") && run_program("git", {"-C", dest.string(), "rev-parse", "--verify", "-q", "default-slow"}).code == 0)
    return;
  fs::remove_all(dest);
  const fs::path src = fs::path(ABTEST_SOURCE_DIR) / "tests/fixtures/cargo-indexer";
  fs::create_directories(dest);
  for (const auto& e : fs::directory_iterator(src)) {
    const auto name = e.path().filename().string();
    if (name == "target" || name == ".abtest" || name == "abtest.json") continue;
    fs::copy(e.path(), dest / name, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  }
  auto m = nlohmann::json::parse(slurp(src / "abtest.json"));
  m["params"]["preset"] = "tiny";
  m["toggles"] = nlohmann::json::parse(R"([{"id": "SLOW", "feature": "planted_slow"}])");
  std::ofstream(dest / "abtest.json") << m.dump(2) << "\n";
  std::ofstream(dest / ".gitignore", std::ios::app) << ".abtest/\n";
  git(dest, {"init", "-q", "-b", "main"});
  git(dest, {"add", "-A"});
  git(dest, {"commit", "-q", "-m", "the cargo-indexer fixture"});
  git(dest, {"checkout", "-q", "-b", "default-slow"});
  std::string toml = slurp(dest / "Cargo.toml");
  const auto at = toml.find("[features]\n");
  ASSERT_NE(at, std::string::npos) << "the fixture's Cargo.toml has no [features]";
  toml.insert(at + 11, "default = [\"planted_slow\"]\n");
  std::ofstream(dest / "Cargo.toml", std::ios::trunc) << toml;
  git(dest, {"commit", "-q", "-am", "planted_slow on by default"});
  git(dest, {"checkout", "-q", "main"});
}

TEST(pr_cargo, a_default_feature_added_is_timed_named_and_attributed) {
  std::string why;
  if (!have_cargo(why)) GTEST_SKIP() << why << " — scripts/setup.sh --with-tests";
  fixed_git_identity();
  const fs::path repo = fs::path(ABTEST_E2E_WORK_DIR) / "pr_cargo_repo";
  crate_repo(repo);
  git(repo, {"checkout", "-q", "-f", "default-slow"});
  scratch dir("pr-cargo");
  const auto r = run_abtest({"--json", "--db", (dir.path() / "r.db").string(), "pr", "--base", "main", "--comment",
                             (dir.path() / "pr.md").string(), "--seed", "3", "-j", "2", "--max-rounds", "20"},
                            repo);
  git(repo, {"checkout", "-q", "-f", "main"});
  ASSERT_EQ(r.code, 1) << r.err << r.out;
  const auto j = json_of(r);
  ASSERT_EQ(j["defaults_changed"].size(), 1u) << j.dump(2);
  EXPECT_EQ(j["defaults_changed"][0]["text"], "SLOW: OFF → ON");
  const nlohmann::json* synthesis = nullptr;
  for (const auto& c : j["changed"])
    if (c["metric"] == "synth.synthesis_s") synthesis = &c;
  ASSERT_NE(synthesis, nullptr) << j.dump(2);
  EXPECT_EQ((*synthesis)["confirmation"], "confirmed");
  EXPECT_GT((*synthesis)["ratio"].get<double>(), 1.4) << "planted_slow synthesizes twice: about 2×";
  ASSERT_EQ(j["alerts"]["recorded"].size(), 1u);
  EXPECT_NE(slurp(dir.path() / "pr.md").find("SLOW: OFF → ON in this change"), std::string::npos);

  // The attribution: the head built with --no-default-features takes planted_slow out again, and
  // runs at about the base's speed — far from the planted 2×.
  ASSERT_TRUE(j["attribution"].is_object()) << j.dump(2);
  const auto& reverted = j["attribution"]["reverted"][0];
  EXPECT_EQ(reverted["toggle"], "SLOW");
  for (const auto& m : reverted["metrics"])
    if (m["metric"] == "synth.synthesis_s") {
      EXPECT_LT(m["ratio"].get<double>(), 1.4) << reverted.dump(2);
    }

  // The build rows: what Cargo resolved on each side, and the flags of the put-back build.
  const auto rows = run_abtest({"--db", (dir.path() / "r.db").string(), "query", "--format", "json",
                                "SELECT variant, flags, json_extract(details, '$.resolved.SLOW.level') AS slow, "
                                "json_extract(details, '$.resolved.SLOW.set_by') AS set_by FROM build ORDER BY id"});
  ASSERT_EQ(rows.code, 0) << rows.err;
  const auto b = nlohmann::json::parse(rows.out);
  ASSERT_EQ(b.size(), 3u) << b.dump(2);
  EXPECT_EQ(b[0]["slow"], "OFF");
  EXPECT_EQ(b[0]["set_by"], "project");
  EXPECT_EQ(b[1]["slow"], "ON") << "the head's own default";
  EXPECT_EQ(b[1]["set_by"], "project");
  EXPECT_EQ(b[2]["variant"], "defaults+SLOW=OFF");
  EXPECT_EQ(b[2]["slow"], "OFF");
  EXPECT_EQ(b[2]["set_by"], "abtest");
  EXPECT_NE(b[2]["flags"].get<std::string>().find("--no-default-features"), std::string::npos) << b[2].dump();
}

}  // namespace
}  // namespace abtest::e2e
