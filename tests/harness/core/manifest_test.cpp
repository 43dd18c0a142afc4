// Manifest validation: each kind of bad input names the file, the key and the fix (DESIGN §3).
#include "harness/core/manifest.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness/core/errors.hpp"

namespace abtest {
namespace {

using json = nlohmann::json;

json valid() {
  return json::parse(R"({
    "project": "p",
    "build": {"targets": ["bench"]},
    "params": {"preset": "small", "n": 3},
    "toggles": [
      {"id": "A1", "option": "OPT_A1", "levels": ["0", "1", "2", "4"], "on": "4"},
      {"id": "B1", "option": "OPT_B1", "requires": ["cuda"]}
    ],
    "benchmarks": [{"name": "proof", "format": "json", "command": ["{bin}/bench", "--preset={preset}", "{n}"]}],
    "reference": {"label": "r", "params": {"preset": "big"}, "metrics": {"proof.total_s": 88.9}}
  })");
}

// Parses `doc` and returns the error text; fails the test when it parses.
std::string error_of(const json& doc) {
  try {
    parse_manifest(doc.dump(), "/p/abtest.json");
  } catch (const user_error& e) {
    EXPECT_EQ(e.code(), exit_code::usage);
    return e.what();
  }
  ADD_FAILURE() << "manifest was accepted: " << doc.dump();
  return {};
}

TEST(manifest, valid_document_loads_with_defaults) {
  const manifest m = parse_manifest(valid().dump(), "/p/abtest.json");
  EXPECT_EQ(m.project, "p");
  EXPECT_EQ(m.source_dir, "/p");
  EXPECT_EQ(m.build.generator, "Ninja");
  EXPECT_EQ(m.params.at("n"), "3");
  ASSERT_EQ(m.toggles.size(), 2u);
  EXPECT_EQ(m.toggle("A1").on, "4");
  EXPECT_EQ(m.toggle("B1").levels, (std::vector<std::string>{"OFF", "ON"}));
  EXPECT_EQ(m.toggle("B1").on, "ON");
  EXPECT_EQ(m.toggle("B1").requires_caps, std::vector<std::string>{"cuda"});
  EXPECT_EQ(m.benchmarks.at(0).timeout_s, 600);
  ASSERT_TRUE(m.reference);
  EXPECT_DOUBLE_EQ(m.reference->metrics.at("proof.total_s"), 88.9);
  EXPECT_EQ(expand_command(m.benchmarks[0], "/b/base", m.params),
            (std::vector<std::string>{"/b/base/bench", "--preset=small", "3"}));
}

TEST(manifest, unknown_keys_are_errors_at_every_level) {
  auto doc = valid();
  doc["toogles"] = json::array();
  EXPECT_NE(error_of(doc).find("toogles: unknown key"), std::string::npos);
  doc = valid();
  doc["toggles"][0]["level"] = json::array();
  EXPECT_NE(error_of(doc).find("toggles[0].level: unknown key"), std::string::npos);
  doc = valid();
  doc["build"]["target"] = "x";
  EXPECT_NE(error_of(doc).find("build.target"), std::string::npos);
}

TEST(manifest, bad_and_duplicate_ids) {
  auto doc = valid();
  doc["toggles"][0]["id"] = "a1";
  EXPECT_NE(error_of(doc).find("toggles[0].id: \"a1\" is not a valid id"), std::string::npos);
  doc = valid();
  doc["toggles"][1]["id"] = "A1";
  EXPECT_NE(error_of(doc).find("duplicate id \"A1\""), std::string::npos);
  doc = valid();
  doc["toggles"][0]["id"] = "A1;rm -rf /";
  EXPECT_NE(error_of(doc).find("not a valid id"), std::string::npos);
}

TEST(manifest, levels_are_checked) {
  auto doc = valid();
  doc["toggles"][0]["on"] = "8";
  EXPECT_NE(error_of(doc).find("toggles[0].on: \"8\" is not one of the levels [0, 1, 2, 4]"), std::string::npos);
  doc = valid();
  doc["toggles"][0]["levels"] = {"0", "../x"};
  EXPECT_NE(error_of(doc).find("is not a valid level"), std::string::npos);
  doc = valid();
  doc["toggles"][0]["levels"] = {"0"};
  EXPECT_NE(error_of(doc).find("at least two levels"), std::string::npos);
}

TEST(manifest, undefined_placeholder_and_missing_target) {
  auto doc = valid();
  doc["benchmarks"][0]["command"] = {"{bin}/bench", "{size}"};
  const auto e = error_of(doc);
  EXPECT_NE(e.find("benchmarks[0].command[1]: placeholder {size} is not defined"), std::string::npos) << e;
  EXPECT_NE(e.find("known: bin, n, preset"), std::string::npos) << e;
  doc = valid();
  doc["benchmarks"][0]["command"] = {"{bin}/other"};
  EXPECT_NE(error_of(doc).find("program \"other\" is not in build.targets"), std::string::npos);
}

TEST(manifest, formats_patterns_and_references) {
  auto doc = valid();
  doc["benchmarks"][0]["format"] = "xml";
  EXPECT_NE(error_of(doc).find("unknown format \"xml\""), std::string::npos);
  doc = valid();
  doc["benchmarks"][0]["format"] = "lines";
  EXPECT_NE(error_of(doc).find("needs a pattern"), std::string::npos);
  doc["benchmarks"][0]["pattern"] = "T: (\\w+ ([0-9.]+)";
  EXPECT_NE(error_of(doc).find("not a valid ECMAScript regular expression"), std::string::npos);
  doc = valid();
  doc["reference"]["metrics"] = {{"synth.total_s", 1.0}};
  EXPECT_NE(error_of(doc).find("does not name a metric of a listed benchmark"), std::string::npos);
}

TEST(manifest, syntax_errors_give_the_line) {
  try {
    parse_manifest("{\n  \"project\": \"p\",\n  oops\n}", "/p/abtest.json");
    FAIL();
  } catch (const user_error& e) {
    EXPECT_NE(std::string(e.what()).find("/p/abtest.json:3: not valid JSON"), std::string::npos) << e.what();
  }
}

TEST(manifest, the_repository_manifest_is_valid) {
  const manifest m = load_manifest(ABTEST_SOURCE_DIR "/abtest.json");
  EXPECT_EQ(m.toggles.size(), 5u);
  EXPECT_EQ(m.toggle("A1").on, "4");
  EXPECT_EQ(m.toggle("B1").requires_caps, std::vector<std::string>{"cuda"});
  EXPECT_TRUE(m.find_benchmark("synth") && m.find_benchmark("proof"));
  EXPECT_DOUBLE_EQ(m.reference->metrics.at("proof.total_s"), 88.9);
}

}  // namespace
}  // namespace abtest
