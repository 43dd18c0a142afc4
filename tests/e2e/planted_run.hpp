// What the end-to-end tests of `abtest run` on the planted fixture share: the run itself (on the
// warm shared copy, a private database, --json, the `planted` benchmark) and reading its verdicts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tests/hardening/abtest_cli.hpp"
#include "tests/hardening/planted_copy.hpp"

namespace abtest::test {

// `abtest --json run --bench planted --seed SEED -j 2 ARGS…` on the fixture copy, database in `tmp`.
inline cli_result run_planted(const temp_dir& tmp, const std::vector<std::string>& args, std::uint64_t seed = 11) {
  std::vector<std::string> all{"--manifest", planted_manifest().string(), "--db", (tmp / "results.db").string(), "--json",
                               "run", "--bench", "planted", "--seed", std::to_string(seed), "-j", "2"};
  all.insert(all.end(), args.begin(), args.end());
  return run_cli(all);
}

// The verdict row of `variant` on `metric` in a --json document; nullptr when there is none.
inline const nlohmann::json* find_verdict(const nlohmann::json& j, const std::string& variant, const std::string& metric) {
  if (!j.contains("verdicts")) return nullptr;
  for (const auto& v : j["verdicts"])
    if (v.value("variant", "") == variant && v.value("metric", "") == metric) return &v;
  return nullptr;
}

}  // namespace abtest::test
