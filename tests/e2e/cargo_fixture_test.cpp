// abtest on a Rust crate through Cargo (tests/fixtures/cargo-indexer), real builds: the planted
// feature is found SLOWER and named by bisect, `init` reads the crate's features, and every build
// records the toolchain. Skipped (never passed) without cargo or Debian's smallvec crate.
#include <gtest/gtest.h>

#include "tests/e2e/bisect_test_support.hpp"

namespace abtest::e2e {
namespace {

bool have_cargo(std::string& why) {
  if (std::system("command -v cargo >/dev/null 2>&1") != 0) return why = "no cargo on PATH", false;
  for (const auto& e : fs::directory_iterator("/usr/share/cargo/registry", fs::directory_options::skip_permission_denied))
    if (e.path().filename().string().rfind("smallvec-1.", 0) == 0) return true;
  return why = "Debian's librust-smallvec-dev is not installed", false;
}

// The crate's sources (not its target/ or .abtest/) in `dest`, with `manifest` as its abtest.json.
fs::path crate_copy(const fs::path& dest, const nlohmann::json& manifest) {
  const fs::path src = fs::path(ABTEST_SOURCE_DIR) / "tests/fixtures/cargo-indexer";
  fs::create_directories(dest);
  for (const auto& e : fs::directory_iterator(src)) {
    const auto name = e.path().filename().string();
    if (name == "target" || name == ".abtest" || name == "abtest.json") continue;
    fs::copy(e.path(), dest / name, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  }
  std::ofstream(dest / "abtest.json") << manifest.dump(2) << "\n";
  return dest / "abtest.json";
}

TEST(cargo_fixture, bisect_names_the_planted_feature) {
  std::string why;
  if (std::error_code ec; !fs::exists("/usr/share/cargo/registry", ec) || !have_cargo(why))
    GTEST_SKIP() << (why.empty() ? "Debian's crate registry is not installed" : why) << " — scripts/setup.sh --with-tests";
  scratch dir("cargo-bisect");
  auto m = nlohmann::json::parse(slurp(fs::path(ABTEST_SOURCE_DIR) / "tests/fixtures/cargo-indexer/abtest.json"));
  m["params"]["preset"] = "tiny";
  m["toggles"] = nlohmann::json::parse(R"([{"id": "SLOW", "feature": "planted_slow"}, {"id": "NULL", "feature": "planted_null"}])");
  const fs::path manifest = crate_copy(dir.path() / "crate", m);
  const auto r = run_abtest({"--json", "--manifest", manifest.string(), "--db", (dir.path() / "r.db").string(), "bisect", "--to", "all",
                             "--metric", "synth.synthesis_s", "--rounds", "4", "--seed", "9", "-j", "2"});
  ASSERT_EQ(r.code, 1) << r.err;  // a regression found
  const auto j = json_of(r);
  EXPECT_EQ(j["verdict"], "slower");
  EXPECT_EQ(culprit_sets(j), (std::set<std::vector<std::string>>{{"SLOW"}})) << j.dump(2);
  // planted_slow synthesizes twice: about 2× (1.8–2.0 measured on a loaded 2-core host).
  for (const auto& c : j["culprits"]) EXPECT_GT(c["effect"].get<double>(), std::log(1.4)) << c.dump();

  // The builds: one shared Cargo target folder, each variant's program copied to its {bin}, the
  // toolchain recorded.
  const auto builds = run_abtest({"--db", (dir.path() / "r.db").string(), "query", "--format", "json",
                                  "SELECT variant, json_extract(details, '$.tool') AS tool, objects_compiled FROM build"});
  const auto rows = nlohmann::json::parse(builds.out);
  ASSERT_FALSE(rows.empty());
  for (const auto& row : rows) {
    EXPECT_EQ(row["tool"].get<std::string>().rfind("cargo ", 0), 0u) << row.dump();
    EXPECT_TRUE(fs::exists(dir.path() / "crate/.abtest/build" / row["variant"].get<std::string>() / "release/synth")) << row.dump();
  }
  EXPECT_TRUE(fs::exists(dir.path() / "crate/.abtest/build/cargo-target"));
}

TEST(cargo_fixture, init_reads_the_features_and_the_programs) {
  scratch dir("cargo-init");
  const fs::path manifest = crate_copy(dir.path() / "crate", nlohmann::json::object());
  fs::remove(manifest);
  const auto r = run_abtest({"init"}, dir.path() / "crate");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto m = nlohmann::json::parse(slurp(manifest));
  EXPECT_EQ(m["build"]["system"], "cargo");
  std::set<std::string> features;
  for (const auto& t : m["toggles"]) features.insert(t["feature"]);
  EXPECT_EQ(features, (std::set<std::string>{"smallvec1", "smallvec2", "smallvec4", "planted_slow", "planted_null", "planted_digest"}));
  EXPECT_EQ(m["build"]["targets"], nlohmann::json::array({"synth"}));
  EXPECT_NE(r.out.find("check each benchmark's command and format"), std::string::npos) << r.out;
  const auto dry = run_abtest({"build", "--dry-run", "--variant", "all"}, dir.path() / "crate");
  EXPECT_EQ(dry.code, 0) << dry.err;
}

}  // namespace
}  // namespace abtest::e2e
