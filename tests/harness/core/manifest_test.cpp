// Manifest validation: each kind of bad input names the file, the key and the fix (design §3).
#include "harness/core/manifest.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness/core/errors.hpp"
#include "harness/core/toggles/toggle_kind.hpp"
#include "tests/harness/core/manifest_error.hpp"

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

std::string error_of(const json& doc) { return test::manifest_error_of(doc); }

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

TEST(manifest, bundle_args_are_cmake_options_for_bundle_builds) {
  json doc = valid();
  doc["build"]["bundle_args"] = {"-DABTEST_CUDA=ON", "-DCMAKE_CUDA_ARCHITECTURES=90"};
  const manifest m = parse_manifest(doc.dump(), "/p/abtest.json");
  EXPECT_EQ(m.build.bundle_args, (std::vector<std::string>{"-DABTEST_CUDA=ON", "-DCMAKE_CUDA_ARCHITECTURES=90"}));
  EXPECT_TRUE(parse_manifest(valid().dump(), "/p/abtest.json").build.bundle_args.empty());

  doc["build"]["bundle_args"] = {"ABTEST_CUDA=ON"};
  const std::string not_option = error_of(doc);
  EXPECT_NE(not_option.find("build.bundle_args[0]"), std::string::npos) << not_option;
  EXPECT_NE(not_option.find("-DABTEST_CUDA=ON"), std::string::npos) << "the fix shows an example\n" << not_option;
  doc["build"]["bundle_args"] = "-DX=1";
  EXPECT_NE(error_of(doc).find("build.bundle_args"), std::string::npos);
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
  EXPECT_NE(e.find("known: bin, out, n, preset"), std::string::npos) << e;
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
  EXPECT_NE(error_of(doc).find("pattern: is not a valid RE2 regular expression (missing ): T: (\\w+ ([0-9.]+))"),
            std::string::npos) << error_of(doc);
  doc = valid();
  doc["reference"]["metrics"] = {{"synth.total_s", 1.0}};
  EXPECT_NE(error_of(doc).find("does not name a metric of a listed benchmark"), std::string::npos);
}

// A format's own keys are handed to its row (design §4): validated there, named in the error, kept
// in the spec; another format's keys are unknown keys; {out} is a placeholder, not a param.
TEST(manifest, format_keys_belong_to_their_format) {
  auto doc = valid();
  doc["benchmarks"][0]["pattern"] = "T: (\\w+) ([0-9.]+)";
  EXPECT_NE(error_of(doc).find("benchmarks[0].pattern: unknown key"), std::string::npos) << error_of(doc);
  doc = valid();
  doc["benchmarks"][0]["format"] = "lines";
  doc["benchmarks"][0]["patterns"] = {{"compress", "no group"}};
  EXPECT_NE(error_of(doc).find("benchmarks[0].patterns.compress: needs a capture group"), std::string::npos) << error_of(doc);
  doc = valid();
  doc["benchmarks"][0]["rows"] = "results";
  EXPECT_NE(error_of(doc).find("benchmarks[0].value_field: missing"), std::string::npos) << error_of(doc);
  doc["benchmarks"][0]["value_field"] = "mean";
  doc["benchmarks"][0]["command"] = {"{bin}/bench", "--json={out}"};
  const manifest m = parse_manifest(doc.dump(), "/p/abtest.json");
  EXPECT_EQ(m.benchmarks[0].format, "json");
  EXPECT_EQ(m.benchmarks[0].format_options, (json{{"rows", "results"}, {"value_field", "mean"}}));
  EXPECT_EQ(expand_command(m.benchmarks[0], "/b", m.params).at(1), "--json={out}");  // filled in per sample
  doc = valid();
  doc["params"]["out"] = "x";
  EXPECT_NE(error_of(doc).find("params.out: is not a valid parameter name"), std::string::npos);
  doc = valid();
  doc["benchmarks"][0]["format"] = "criterion";
  EXPECT_NO_THROW(parse_manifest(doc.dump(), "/p/abtest.json"));
}

TEST(manifest, syntax_errors_give_the_line) {
  try {
    parse_manifest("{\n  \"project\": \"p\",\n  oops\n}", "/p/abtest.json");
    FAIL();
  } catch (const user_error& e) {
    EXPECT_NE(std::string(e.what()).find("/p/abtest.json:3: not valid JSON"), std::string::npos) << e.what();
  }
}

// --- build systems and toggle kinds (design §3.1) ---------------------------------------------

json cargo_doc() {
  return json::parse(R"({
    "project": "crate",
    "build": {"system": "cargo", "profile": "release", "targets": ["synth"], "args": ["--offline"]},
    "params": {"preset": "small"},
    "toggles": [
      {"id": "A1", "levels": ["0", "1", "2", "4"], "features": {"1": ["cap1"], "2": ["cap2"], "4": ["cap4"]}, "on": "4"},
      {"id": "SLOW", "feature": "planted_slow"},
      {"id": "W", "env": "ZK_MSM_WINDOW", "levels": ["auto", "16"]},
      {"id": "P1", "patch": "patches/p1.diff"}
    ],
    "benchmarks": [{"name": "synth", "format": "json", "command": ["{bin}/synth", "--preset", "{preset}"]}]
  })");
}

TEST(manifest, cargo_projects_take_features_env_and_patch_toggles) {
  const manifest m = parse_manifest(cargo_doc().dump(), "/p/abtest.json");
  EXPECT_EQ(m.build.system, build_system::cargo);
  EXPECT_EQ(m.build.args, std::vector<std::string>{"--offline"});
  EXPECT_EQ(m.toggle("A1").kind, find_toggle_kind("feature"));
  EXPECT_EQ(m.toggle("A1").features.at("2"), std::vector<std::string>{"cap2"});
  EXPECT_FALSE(m.toggle("A1").features.count("0"));  // the off level: no features
  EXPECT_EQ(m.toggle("SLOW").features.at("ON"), std::vector<std::string>{"planted_slow"});
  EXPECT_EQ(m.toggle("W").kind, find_toggle_kind("env"));
  EXPECT_EQ(m.toggle("W").var, "ZK_MSM_WINDOW");
  EXPECT_FALSE(m.toggle("W").changes_build());
  EXPECT_EQ(m.toggle("P1").patch, "/p/patches/p1.diff");
  EXPECT_TRUE(m.toggle("P1").changes_source());
  EXPECT_TRUE(m.needs_worktrees());
}

TEST(manifest, a_kind_the_build_system_cannot_honour_is_an_error) {
  auto doc = valid();
  doc["toggles"][0].erase("option");
  doc["toggles"][0]["feature"] = "smallvec";
  auto e = error_of(doc);
  EXPECT_NE(e.find("toggles[0].feature: a cmake project cannot honour \"feature\""), std::string::npos) << e;
  doc = cargo_doc();
  doc["toggles"][1] = {{"id", "O"}, {"option", "OPT"}};
  e = error_of(doc);
  EXPECT_NE(e.find("a cargo project cannot honour \"option\""), std::string::npos) << e;
  doc = valid();
  doc["toggles"][1]["env"] = "X";
  EXPECT_NE(error_of(doc).find("toggles[1]: has more than one kind key"), std::string::npos);
  doc = valid();
  doc["toggles"][1].erase("option");
  EXPECT_NE(error_of(doc).find("toggles[1]: says nothing about how it reaches the project"), std::string::npos);
}

TEST(manifest, unknown_systems_and_misplaced_build_keys_are_errors) {
  auto doc = valid();
  doc["build"]["system"] = "bazel";
  EXPECT_NE(error_of(doc).find("build.system: unknown build system \"bazel\" — use one of: cmake, cargo, command"),
            std::string::npos);
  doc = cargo_doc();
  doc["build"]["cmake_args"] = json::array();
  EXPECT_NE(error_of(doc).find("build.cmake_args: unknown key"), std::string::npos);
  doc = cargo_doc();
  doc["build"]["args"] = {"--features", "x"};
  EXPECT_NE(error_of(doc).find("\"--features\" is set by abtest"), std::string::npos);
  doc = cargo_doc();
  doc["toggles"][0]["features"]["8"] = {"cap8"};
  EXPECT_NE(error_of(doc).find("toggles[0].features.8: \"8\" is not one of the levels"), std::string::npos);
  doc = cargo_doc();
  doc["toggles"][3]["levels"] = {"OFF", "ON", "MORE"};
  EXPECT_NE(error_of(doc).find("a patch toggle has two levels"), std::string::npos);
}

TEST(manifest, cargo_bench_targets_workspace_members_and_features) {
  auto doc = cargo_doc();
  doc["build"]["targets"] = {"synth", "bench:chain"};
  doc["build"]["packages"] = {"cuzk-bench"};
  doc["build"]["features"] = {"synth-bench", "cuzk-bench/extra"};
  doc["toggles"][1]["feature"] = "cuzk-core?/planted_slow";
  doc["benchmarks"].push_back({{"name", "chain"}, {"format", "json"}, {"command", {"{bin}/chain", "--bench"}}});
  const manifest m = parse_manifest(doc.dump(), "/p/abtest.json");
  EXPECT_EQ(m.build.targets, (std::vector<std::string>{"synth", "bench:chain"}));
  EXPECT_EQ(m.build.packages, std::vector<std::string>{"cuzk-bench"});
  EXPECT_EQ(m.build.features, (std::vector<std::string>{"synth-bench", "cuzk-bench/extra"}));
  EXPECT_EQ(m.toggle("SLOW").features.at("ON"), std::vector<std::string>{"cuzk-core?/planted_slow"});
  // {bin}/chain is the bench target's program.
  EXPECT_EQ(benchmark_programs(m), (std::vector<std::string>{"synth", "chain"}));
  EXPECT_EQ(program_of_target("bench:chain"), "chain");
  EXPECT_EQ(program_of_target("synth"), "synth");
}

TEST(manifest, bad_cargo_bench_targets_packages_and_features_are_errors) {
  auto doc = cargo_doc();
  doc["build"]["targets"] = {"synth", "bench:synth"};
  EXPECT_NE(error_of(doc).find("build.targets[1]: \"bench:synth\" makes the program {bin}/synth that another target makes"),
            std::string::npos);
  doc = cargo_doc();
  doc["build"]["targets"] = {"bench:"};
  EXPECT_NE(error_of(doc).find("\"bench:\" is not a Cargo bench target — write \"bench:NAME\""), std::string::npos);
  doc = valid();  // cmake
  doc["build"]["targets"] = {"bench:bench"};
  EXPECT_NE(error_of(doc).find("only a cargo build has bench targets"), std::string::npos);
  doc = cargo_doc();  // {bin}/synth names no target; the fix names the bench form
  doc["build"]["targets"] = {"bench:other"};
  EXPECT_NE(error_of(doc).find("add \"synth\" to build.targets (\"bench:synth\" for a bench target)"), std::string::npos);
  doc = cargo_doc();
  doc["build"]["packages"] = {"a b"};
  EXPECT_NE(error_of(doc).find("build.packages[0]: \"a b\" is not a Cargo package name"), std::string::npos);
  doc = cargo_doc();
  doc["build"]["features"] = {"a/b/c"};
  EXPECT_NE(error_of(doc).find("build.features[0]: \"a/b/c\" is not a Cargo feature name"), std::string::npos);
  for (const char* arg : {"--bench", "-p", "--package=x", "--bins"}) {
    doc = cargo_doc();
    doc["build"]["args"] = {arg};
    EXPECT_NE(error_of(doc).find("name the programs in build.targets"), std::string::npos) << arg;
  }
  doc = valid();  // packages and features are Cargo's keys
  doc["build"]["packages"] = {"x"};
  EXPECT_NE(error_of(doc).find("build.packages: unknown key"), std::string::npos);
}

TEST(manifest, command_builds_take_var_toggles_as_placeholders) {
  const json doc = json::parse(R"({
    "project": "make",
    "build": {"system": "command", "command": ["make", "-j2", "OPT={OPT}", "OUT={build_dir}"], "bin": "out", "targets": ["bench"]},
    "toggles": [{"id": "OPT", "var": "OPT", "levels": ["-O2", "-O3"]}],
    "benchmarks": [{"name": "b", "format": "json", "command": ["{bin}/bench"]}]
  })");
  const manifest m = parse_manifest(doc.dump(), "/p/abtest.json");
  EXPECT_EQ(m.build.system, build_system::command);
  EXPECT_EQ(m.build.bin, "out");
  EXPECT_EQ(m.toggle("OPT").var, "OPT");
  auto bad = doc;
  bad["build"]["command"][2] = "OPT={OPTS}";
  EXPECT_NE(error_of(bad).find("build.command[2]: placeholder {OPTS} is not defined"), std::string::npos);
  bad = doc;
  bad["build"]["bin"] = "../elsewhere";
  EXPECT_NE(error_of(bad).find("build.bin: \"../elsewhere\" leaves the worktree"), std::string::npos);
}

TEST(manifest, values_hand_the_build_or_the_environment_anything_a_level_name_cannot_spell) {
  auto doc = valid();
  doc["toggles"].push_back(json::parse(R"({"id": "O3", "option": "CMAKE_C_FLAGS", "levels": ["O2", "O3", "native"],
      "values": {"O2": "-O2", "O3": "-O3 -march=native", "native": ""}})"));
  doc["toggles"].push_back(json::parse(R"({"id": "TRACE", "env": "ZK_TRACE", "levels": ["unset", "on"], "values": {"unset": null}})"));
  const manifest m = parse_manifest(doc.dump(), "/p/abtest.json");
  EXPECT_EQ(m.toggle("O3").value_of("O3"), "-O3 -march=native");
  EXPECT_EQ(m.toggle("O3").value_of("native"), "");  // set, and empty
  EXPECT_EQ(m.toggle("TRACE").value_of("unset"), std::nullopt);
  EXPECT_EQ(m.toggle("TRACE").value_of("on"), "on");  // no entry: the level's own name, as before
  EXPECT_EQ(m.toggle("A1").value_of("4"), "4");
  EXPECT_EQ(m.toggle("O3").levels, (std::vector<std::string>{"O2", "O3", "native"}));  // variants keep the names
}

TEST(manifest, bad_values_name_the_key_and_the_fix) {
  const auto with = [](const char* toggle, build_system system = build_system::cmake) {
    auto doc = system == build_system::cargo ? cargo_doc() : valid();
    doc["toggles"].push_back(json::parse(toggle));
    return error_of(doc);
  };
  auto e = with(R"({"id": "O3", "option": "CMAKE_C_FLAGS", "levels": ["O2", "O3"], "values": {"X": "-O1"}})");
  EXPECT_NE(e.find("/p/abtest.json: toggles[2].values.X: \"X\" is not one of the levels [O2, O3] — key each value by one of the levels"),
            std::string::npos) << e;
  e = with(R"({"id": "O3", "option": "CMAKE_C_FLAGS", "levels": ["O2", "O3"], "values": {"O3": 3}})");
  EXPECT_NE(e.find("toggles[2].values.O3: must be a string, found number — quote the value"), std::string::npos) << e;
  e = with(R"({"id": "O3", "option": "CMAKE_C_FLAGS", "levels": ["O2", "O3"], "values": {"O2": null}})");
  EXPECT_NE(e.find("toggles[2].values.O2: must be a string, found null — null (the variable unset) is for env toggles"),
            std::string::npos) << e;
  e = with(R"({"id": "W", "env": "ZK_W", "levels": ["a", "b"], "values": {"a": ["1"]}})");
  EXPECT_NE(e.find("toggles[2].values.a: must be a string or null (unset), found array"), std::string::npos) << e;
  e = with(R"({"id": "W", "env": "ZK_W", "levels": ["a", "b"], "values": ["1", "2"]})");
  EXPECT_NE(e.find("toggles[2].values: must be an object of level → value"), std::string::npos) << e;
  e = with(R"({"id": "P", "patch": "p.diff", "values": {"ON": "1"}})");
  EXPECT_NE(e.find("toggles[2].values: a patch toggle takes no values — remove it"), std::string::npos) << e;
  e = with(R"({"id": "F", "feature": "simd", "values": {"ON": "1"}})", build_system::cargo);
  EXPECT_NE(e.find("toggles[4].values: a feature toggle takes no values — remove it: \"features\" maps"), std::string::npos) << e;
  e = with("{\"id\": \"W\", \"env\": \"ZK_W\", \"values\": {\"ON\": \"a\\u0000b\"}}");
  EXPECT_NE(e.find("toggles[2].values.ON: holds a NUL character"), std::string::npos) << e;
}

TEST(manifest, ok_exit_codes_are_checked) {
  auto doc = valid();
  EXPECT_EQ(parse_manifest(doc.dump(), "/p/abtest.json").benchmarks[0].ok_exit_codes, std::vector<int>{0});
  doc["benchmarks"][0]["ok_exit_codes"] = {0, 4};
  EXPECT_EQ(parse_manifest(doc.dump(), "/p/abtest.json").benchmarks[0].ok_exit_codes, (std::vector<int>{0, 4}));
  doc["benchmarks"][0]["ok_exit_codes"] = {0, 300};
  EXPECT_NE(error_of(doc).find("300 is not an exit code"), std::string::npos);
}

TEST(manifest, counts_default_to_the_run_and_take_params_region_args_rename) {
  auto doc = valid();
  const manifest plain = parse_manifest(doc.dump(), "/p/abtest.json");
  EXPECT_TRUE(plain.benchmarks[0].counts.enabled);
  EXPECT_TRUE(plain.benchmarks[0].counts.params.empty());
  EXPECT_TRUE(plain.benchmarks[0].counts.region.empty());
  EXPECT_EQ(plain.benchmarks[0].counts.timeout_s, 50 * 600);
  doc["benchmarks"][0]["counts"] = json::parse(R"({"params": {"preset": "tiny"}, "region": "zk::bench::run*",
      "args": ["--iterations={n}"], "rename": [["<[0-9]+ul>", "<N>"]], "timeout_s": 900})");
  const counts_spec c = parse_manifest(doc.dump(), "/p/abtest.json").benchmarks[0].counts;
  EXPECT_EQ(c.params, (std::map<std::string, std::string>{{"preset", "tiny"}}));
  EXPECT_EQ(c.region, "zk::bench::run*");
  EXPECT_EQ(c.args, std::vector<std::string>{"--iterations={n}"});
  ASSERT_EQ(c.rename.size(), 1u);
  EXPECT_EQ(c.rename[0].second, "<N>");
  EXPECT_EQ(c.timeout_s, 900);
  doc["benchmarks"][0]["counts"] = false;
  EXPECT_FALSE(parse_manifest(doc.dump(), "/p/abtest.json").benchmarks[0].counts.enabled);
}

TEST(manifest, bad_counts_name_the_key_and_the_fix) {
  const auto with = [](const char* counts) {
    auto doc = valid();
    doc["benchmarks"][0]["counts"] = json::parse(counts);
    return error_of(doc);
  };
  EXPECT_NE(with(R"({"param": {}})").find("benchmarks[0].counts.param: unknown key"), std::string::npos);
  EXPECT_NE(with(R"({"params": {"size": "tiny"}})").find("benchmarks[0].counts.params.size: is not a key of \"params\""),
            std::string::npos);
  EXPECT_NE(with(R"({"args": ["--x={nope}"]})").find("benchmarks[0].counts.args[0]: placeholder {nope} is not defined"),
            std::string::npos);
  EXPECT_NE(with(R"({"region": "a b"})").find("is not a function pattern"), std::string::npos);
  EXPECT_NE(with(R"({"rename": [["(", "x"]]})").find("counts.rename[0]: is not a valid ECMAScript"), std::string::npos);
  EXPECT_NE(with(R"({"rename": [["a"]]})").find("must be a [pattern, replacement] pair"), std::string::npos);
  EXPECT_NE(with(R"("tiny")").find("benchmarks[0].counts: must be an object or false"), std::string::npos);
  EXPECT_NE(with(R"({"timeout_s": 0})").find("counts.timeout_s: must be a positive number"), std::string::npos);
}

TEST(manifest, a_wrapped_program_is_still_a_program_of_the_build) {
  auto doc = valid();
  doc["benchmarks"][0]["command"] = {"taskset", "-c", "1", "{bin}/bench", "{bin}/data.bin"};
  const manifest m = parse_manifest(doc.dump(), "/p/abtest.json");
  EXPECT_EQ(benchmark_programs(m), std::vector<std::string>{"bench"});  // data.bin is not a target
  EXPECT_EQ(expand_command(m.benchmarks[0], "/b", m.params, {{"bench", "/b/tools/bench"}}),
            (std::vector<std::string>{"taskset", "-c", "1", "/b/tools/bench", "/b/data.bin"}));
}

TEST(manifest, programs_found_by_the_build_replace_bin_slash_name) {
  const manifest m = parse_manifest(valid().dump(), "/p/abtest.json");
  EXPECT_EQ(expand_command(m.benchmarks[0], "/b/base", m.params, {{"bench", "/b/base/tools/bench"}}),
            (std::vector<std::string>{"/b/base/tools/bench", "--preset=small", "3"}));
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
