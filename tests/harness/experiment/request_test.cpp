// The experiment request (experiment/request.hpp): every check about a request made in one place,
// each rejected request with the message the commands print (design §9), and its plan.
#include "harness/experiment/request.hpp"

#include <gtest/gtest.h>

#include <string>

#include "harness/core/errors.hpp"
#include "harness/experiment/simulation.hpp"
#include "tests/harness/experiment/scenario_store.hpp"

namespace abtest {
namespace {

constexpr const char* scenario_text = R"({
  "toggles": [{"id": "A1", "levels": ["0", "4"], "on": "4"}, {"id": "A2"}],
  "metrics": {"proof.total_s": {"base": 2.0, "noise_cv": 0.01, "effects": {"A1=4": 0.0953}},
              "verify.total_s": {"base": 0.5, "noise_cv": 0.01}},
  "seed": 5
})";

class request_test : public test::scenario_store {
 protected:
  request_source source() { return load_request_source(write_scenario("s", scenario_text).string(), ""); }
  static measurement rounds(int n) { return {n, 0.01, {}, 7, "", 0}; }
  // The message of the usage error `spec` is rejected with ("" when it is accepted).
  std::string rejected(const request_spec& spec, const measurement& mm = rounds(10)) {
    try {
      (void)make_request(source(), mm, spec);
    } catch (const user_error& e) {
      EXPECT_EQ(e.code(), exit_code::usage) << e.what();
      return e.what();
    }
    return "";
  }
  static request_spec candidate(std::vector<std::string> toggles) {
    request_spec s;
    s.toggles = std::move(toggles);
    return s;
  }
};

TEST_F(request_test, a_scenario_gives_its_manifest_and_nothing_to_build) {
  const request_source s = source();
  ASSERT_TRUE(s.scenario.has_value());
  EXPECT_NE(s.m.find_benchmark("proof"), nullptr);
  EXPECT_NE(s.m.find_toggle("A1"), nullptr);
}

TEST_F(request_test, a_missing_scenario_file_is_a_usage_error) {
  EXPECT_THROW((void)load_request_source((dir_ / "none.json").string(), ""), user_error);
}

TEST_F(request_test, each_rejected_request_says_what_to_give) {
  EXPECT_EQ(rejected(request_spec{}), "nothing to compare — give --toggle ID[=LEVEL] (repeatable) or --variant SPEC");
  request_spec adaptive = candidate({"A1"});
  adaptive.adaptive = true;
  adaptive.max_rounds = 9;
  EXPECT_EQ(rejected(adaptive), "--max-rounds must be at least 10 with --adaptive (the sequence starts at 10)");
  request_spec same = candidate({"A1"});
  same.baseline = "A1=4";
  EXPECT_EQ(rejected(same), "candidate A1 is the baseline itself — pick another --baseline or toggle");
  request_spec bench = candidate({"A1"});
  bench.benchmarks = {"nope"};
  EXPECT_EQ(rejected(bench).rfind("--bench nope: no such benchmark in ", 0), 0u) << rejected(bench);
  request_spec duet = candidate({"A1"});
  duet.variants = {"A2"};
  duet.evidence.duet = true;
  EXPECT_EQ(rejected(duet), "--duet runs a baseline and one candidate side by side — give one candidate (--toggle … or one --variant)");
}

TEST_F(request_test, the_evidence_flags_are_checked_with_the_request) {
  request_spec one_layout = candidate({"A1"});
  one_layout.evidence.layouts = 1;
  EXPECT_EQ(rejected(one_layout), "--layouts 1: give at least 2 layouts per variant (5 is a good start), or leave it out");
  request_spec adaptive_layouts = candidate({"A1"});
  adaptive_layouts.evidence.layouts = 3;
  adaptive_layouts.adaptive = true;
  EXPECT_EQ(rejected(adaptive_layouts),
            "--layouts needs fixed rounds: the always-valid sequence is one-level — give --rounds, not --adaptive");
  request_spec counts = candidate({"A1"});
  counts.evidence.counts = true;
  EXPECT_EQ(rejected(counts), "--counts runs the benchmarks under Valgrind: leave out --simulate");
  request_spec pin = candidate({"A1"});
  pin.evidence.pin = "x";
  EXPECT_EQ(rejected(pin).rfind("--pin x: ", 0), 0u) << rejected(pin);
}

TEST_F(request_test, an_accepted_request_holds_the_variants_in_order_and_every_benchmark) {
  request_spec spec = candidate({"A1"});
  spec.variants = {"A2"};
  const experiment_request q = make_request(source(), rounds(10), spec);
  EXPECT_TRUE(q.baseline.is_base());
  ASSERT_EQ(q.candidates.size(), 2u);
  EXPECT_EQ(q.candidates[0].key(q.m), "A1");
  EXPECT_EQ(q.candidates[1].key(q.m), "A2");
  EXPECT_EQ(q.benchmarks, (std::vector<std::string>{"proof", "verify"}));
}

TEST_F(request_test, the_plan_takes_the_request_rounds_and_a_duet_whole_blocks) {
  request_spec spec = candidate({"A1"});
  spec.benchmarks = {"verify"};
  spec.warmups = 3;
  const run_plan fixed = plan_of(make_request(source(), rounds(7), spec));
  EXPECT_EQ(fixed.rounds, 7);
  EXPECT_EQ(fixed.warmups, 3);
  EXPECT_EQ(fixed.seed, 7u);
  EXPECT_EQ(fixed.benchmarks, (std::vector<std::string>{"verify"}));
  EXPECT_TRUE(fixed.arms.empty()) << "prepare_arms adds the arms";
  spec.adaptive = true;
  spec.max_rounds = 40;
  const run_plan adaptive = plan_of(make_request(source(), rounds(7), spec));
  EXPECT_TRUE(adaptive.adaptive);
  EXPECT_EQ(adaptive.rounds, 40);
  request_spec duet = candidate({"A1"});
  duet.evidence.duet = true;
  const experiment_request q = make_request(source(), rounds(13), duet);
  EXPECT_EQ(plan_of(q).rounds, 16) << "a duet runs whole blocks of four rounds";
  EXPECT_EQ(q.requested_rounds(), 13);
}

}  // namespace
}  // namespace abtest
