// prepare_arms (experiment/prepare_arms.hpp) on a real command-built project and on a scenario:
// identical binaries measured once with the note, env-only variants sharing one build, a failed
// build's error with its fix, a scenario's arms and their seeded layouts.
#include "harness/experiment/prepare_arms.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "harness/core/errors.hpp"
#include "tests/harness/experiment/scenario_store.hpp"

namespace abtest {
namespace {

namespace fs = std::filesystem;

// A project whose build copies a script as its one program: V is handed to the build and changes
// nothing in it (a shell comment), E is an env toggle, F=1 fails the build.
constexpr const char* manifest_text = R"({"project": "copy",
  "build": {"system": "command", "command": ["sh", "-c", "test {F} = 0 && mkdir -p out && cp prog.sh out/prog && chmod +x out/prog # {V}"],
            "bin": "out", "targets": ["prog"]},
  "toggles": [{"id": "V", "var": "V", "levels": ["a", "b"]},
              {"id": "F", "var": "F", "levels": ["0", "1"]},
              {"id": "E", "env": "EXTRA", "levels": ["0", "1"]}],
  "benchmarks": [{"name": "prog", "format": "json", "warmups": 0, "command": ["{bin}/prog"]}]})";

class prepare_arms_test : public test::scenario_store {
 protected:
  // The project, committed (a command build runs in the variant's git worktree).
  request_source project() {
    const fs::path proj = dir_ / "proj";
    fs::create_directories(proj);
    std::ofstream(proj / "prog.sh") << "#!/bin/sh\necho '{\"metrics\": {\"x\": 1}}'\n";
    std::ofstream(proj / "abtest.json") << manifest_text;
    const std::string git = "cd '" + proj.string() + "' && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm p";
    EXPECT_EQ(std::system(git.c_str()), 0);
    return load_request_source("", (proj / "abtest.json").string());
  }
  prepared_arms prepared(request_source source, const std::string& candidate, int layouts = 0) {
    request_spec spec;
    spec.variants = {candidate};
    spec.evidence.layouts = layouts;
    const experiment_request q = make_request(std::move(source), {2, 0.01, {}, 11, "", 0}, spec);
    return prepare_arms(q, plan_of(q), *store_, builder(q.m, builder_options{}), ctx_);
  }
};

TEST_F(prepare_arms_test, identical_binaries_are_one_arm_and_a_note) {
  const prepared_arms p = prepared(project(), "V=b");
  ASSERT_EQ(p.plan.arms.size(), 1u);
  EXPECT_EQ(p.plan.arms[0].key, "base");
  EXPECT_FALSE(p.comparable());
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_EQ(p.notes[0], "note: V and base are the same program (identical binaries) — not measured; verdict SAME by construction");
  EXPECT_EQ(p.builds.size(), 2u) << "V is handed to the build: a build of its own";
}

TEST_F(prepare_arms_test, an_env_only_difference_shares_one_build_and_is_measured) {
  const prepared_arms p = prepared(project(), "E=1");
  EXPECT_EQ(p.builds.size(), 1u);
  ASSERT_EQ(p.plan.arms.size(), 2u);
  EXPECT_TRUE(p.comparable());
  EXPECT_EQ(p.plan.arms[0].build_id, p.plan.arms[1].build_id);
  EXPECT_NE(p.plan.arms[0].binaries_digest, p.plan.arms[1].binaries_digest) << "the env is part of what runs";
  EXPECT_EQ(p.plan.arms[1].role, "candidate");
  EXPECT_TRUE(p.notes.empty());
}

TEST_F(prepare_arms_test, a_failed_candidate_build_says_to_fix_it_or_leave_the_toggle_out) {
  try {
    (void)prepared(project(), "F=1");
    FAIL() << "the build of F=1 fails";
  } catch (const user_error& e) {
    EXPECT_EQ(e.code(), exit_code::build_failed);
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("the build of F failed — last lines of ", 0), 0u) << what;
    EXPECT_NE(what.find("(fix the build, or leave the toggle out)"), std::string::npos) << what;
  }
}

TEST_F(prepare_arms_test, a_scenario_stands_each_variant_in_with_its_seeded_layouts) {
  const auto scenario = write_scenario("s", R"({"toggles": [{"id": "A1"}], "metrics": {"proof.total_s": {"base": 1.0}}, "seed": 1})");
  const prepared_arms p = prepared(load_request_source(scenario.string(), ""), "A1", 3);
  ASSERT_EQ(p.plan.arms.size(), 6u);
  EXPECT_TRUE(p.builds.empty()) << "nothing is built";
  EXPECT_EQ(p.plan.arms[0].key, "base");
  EXPECT_EQ(p.plan.arms[3].key, "A1");
  EXPECT_EQ(p.plan.arms[2].layout, 2);
  EXPECT_NE(p.plan.arms[0].layout_seed, p.plan.arms[1].layout_seed);
  EXPECT_EQ(p.plan.arms[3].role, "candidate");
  EXPECT_TRUE(p.comparable());
}

}  // namespace
}  // namespace abtest
