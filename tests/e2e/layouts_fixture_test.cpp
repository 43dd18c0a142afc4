// `abtest run --layouts K` and `noise-floor --layouts K` end to end on the planted fixture with real
// builds (design §6): the relinked programs, the arms they become, the verdicts on the exact work
// count, and the clear refusals. How often layouts change a timing verdict is a matter of rates:
// see tests/harness/experiment/layouts_duet_test.cpp and scripts/bench-layouts-duet.sh.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "tests/hardening/abtest_cli.hpp"
#include "tests/hardening/planted_copy.hpp"
#include "tests/e2e/planted_run.hpp"

namespace abtest::test {
namespace {

namespace fs = std::filesystem;

std::string bytes_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(run_layouts, each_variant_runs_as_k_relinked_arms_and_the_work_verdict_is_exact) {
  temp_dir tmp("e2e-layouts");
  const auto r = run_planted(tmp, {"--toggle", "SLOW", "--layouts", "3", "--rounds", "3"});
  if (r.exit_code == 2 && r.err.find("ld.lld") != std::string::npos) GTEST_SKIP() << "lld is not installed: " << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(j.value("layouts", 0), 3);
  ASSERT_EQ(j["arms"].size(), 6u) << j["arms"].dump();
  std::set<std::uint64_t> seeds;
  for (size_t a = 0; a < 6; ++a) {
    EXPECT_EQ(j["arms"][a]["variant"], a < 3 ? "base" : "SLOW");
    EXPECT_EQ(j["arms"][a]["layout"]["index"], static_cast<int>(a % 3));
    seeds.insert(j["arms"][a]["layout"]["seed"].get<std::uint64_t>());
  }
  EXPECT_EQ(seeds.size(), 6u) << "every layout of every variant has its own seed";

  // The work does not depend on where the code is: the ratio is exact and every layout agrees.
  const auto* work = find_verdict(j, "SLOW", "planted.work_count");
  ASSERT_NE(work, nullptr) << r.out;
  EXPECT_NEAR((*work)["ratio"].get<double>(), 1.3, 1e-9);
  EXPECT_EQ((*work)["verdict"], "slower");
  ASSERT_TRUE(work->contains("layouts")) << work->dump();
  EXPECT_EQ((*work)["layouts"]["candidate"], 3);
  EXPECT_DOUBLE_EQ((*work)["layouts"]["sd_candidate"].get<double>(), 0.0);
  const auto* time = find_verdict(j, "SLOW", "planted.total_s");
  ASSERT_NE(time, nullptr) << r.out;
  ASSERT_TRUE(time->contains("layouts"));
  const double share = (*time)["layouts"]["share"].get<double>();
  EXPECT_TRUE(share >= 0.0 && share <= 1.0) << share;

  // The seeds are stored with the builds: each layout arm names a build row of its own (the relink),
  // whose details carry the layout's index and seed and the build it relinked.
  const fs::path db = tmp / "results.db";
  const std::string id = j["experiment"];
  const std::string arms_and_builds = " FROM arm a JOIN build b ON b.id = a.build_id JOIN experiment e ON e.id = a.experiment_id "
                                      "WHERE a.experiment_id = '" + id + "'";
  EXPECT_EQ(query_int(db, "SELECT count(DISTINCT a.build_id)" + arms_and_builds +
                              " AND json_extract(b.details, '$.layout.of_build') IS NOT NULL"), 6);
  EXPECT_EQ(query_int(db, "SELECT count(*)" + arms_and_builds +
                              " AND json_extract(b.details, '$.layout.seed') = json_extract(e.config, '$.arms[' || a.idx || '].layout.seed')"
                              " AND json_extract(b.details, '$.layout.index') = a.idx % 3 AND b.variant = a.variant"), 6);
  EXPECT_EQ(query_int(db, "SELECT count(*) FROM build b JOIN build_binary bb ON bb.build_id = b.id "
                          "WHERE json_extract(b.details, '$.layout.seed') IS NOT NULL AND bb.path LIKE '%/layouts/%'"), 6)
      << "each relink row lists its relinked program (planted-bench), hashed";
  EXPECT_EQ(query_int(db, "SELECT count(*) FROM arm WHERE experiment_id = '" + id + "' AND role = 'baseline' AND variant = 'base'"), 3)
      << "each of base's layouts is a baseline arm";

  // Three relinked programs per variant, each a different binary (the sections were shuffled).
  for (const char* key : {"base", "SLOW"}) {
    std::set<std::string> programs;
    const fs::path layouts = fs::path(planted_manifest()).parent_path() / ".abtest" / "build" / key / "layouts";
    ASSERT_TRUE(fs::exists(layouts)) << layouts;
    for (const auto& folder : fs::directory_iterator(layouts))
      for (int k = 0; k < 3; ++k)
        if (fs::exists(folder.path() / std::to_string(k) / "planted-bench"))
          programs.insert(bytes_of(folder.path() / std::to_string(k) / "planted-bench"));
    EXPECT_GE(programs.size(), 3u) << key << ": the layouts are not different binaries";
  }
}

TEST(run_layouts, bad_counts_and_adaptive_are_refused_before_building) {
  temp_dir tmp("e2e-layouts-bad");
  const auto one = run_planted(tmp, {"--toggle", "SLOW", "--layouts", "1"});
  EXPECT_EQ(one.exit_code, 2);
  EXPECT_NE(one.err.find("at least 2 layouts"), std::string::npos) << one.err;
  const auto adaptive = run_planted(tmp, {"--toggle", "SLOW", "--layouts", "3", "--adaptive"});
  EXPECT_EQ(adaptive.exit_code, 2);
  EXPECT_NE(adaptive.err.find("--adaptive"), std::string::npos) << adaptive.err;
}

TEST(noise_floor_layouts, reports_the_layout_component_of_each_metric) {
  temp_dir tmp("e2e-floor-layouts");
  const auto r = run_cli({"--manifest", planted_manifest().string(), "--db", (tmp / "results.db").string(), "--json",
                          "noise-floor", "--layouts", "2", "--rounds", "3", "--seed", "5", "-j", "2"});
  if (r.exit_code == 2 && r.err.find("ld.lld") != std::string::npos) GTEST_SKIP() << "lld is not installed: " << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(j.value("layouts", 0), 2);
  bool work = false, time = false;
  for (const auto& row : j["floors"]) {
    if (row["metric"] == "planted.work_count") {
      work = true;  // the work is where the code is not: no layout effect, no floor
      EXPECT_DOUBLE_EQ(row["layout_sd"].get<double>(), 0.0) << row.dump();
      EXPECT_DOUBLE_EQ(row["floor"].get<double>(), 0.0) << row.dump();
    }
    if (row["metric"] == "planted.total_s") {
      time = true;
      EXPECT_GE(row["layout_sd"].get<double>(), 0.0);
      EXPECT_GT(row["within_sd"].get<double>(), 0.0);
    }
  }
  EXPECT_TRUE(work && time) << j.dump(2);
}

}  // namespace
}  // namespace abtest::test
