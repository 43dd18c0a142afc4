// The verdict rows of the --json contract (see verdict_json.hpp).
#include "harness/report/verdict_json.hpp"

#include "harness/counts/mechanism_format.hpp"
#include "harness/report/metric_policy_text.hpp"

namespace abtest::report {
namespace {

nlohmann::json or_null(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

}  // namespace

nlohmann::json to_json(const db::verdict_record& v) {
  nlohmann::json j = {{"variant", v.variant},
                      {"baseline", v.baseline},
                      {"metric", v.metric},
                      {"n", v.n},
                      {"baseline_median", or_null(v.baseline_median)},
                      {"candidate_median", or_null(v.candidate_median)},
                      {"ratio", or_null(v.ratio)},
                      {"ci_low", or_null(v.ci_low)},
                      {"ci_high", or_null(v.ci_high)},
                      {"p_value", or_null(v.p_value)},
                      {"p_adjusted", or_null(v.p_adjusted)},
                      {"verdict", db::to_string(v.verdict)},
                      {"immaterial", v.immaterial}};
  if (v.hl_ratio) j["hodges_lehmann"] = {{"ratio", *v.hl_ratio}, {"ci_low", or_null(v.hl_low)}, {"ci_high", or_null(v.hl_high)}};
  if (v.note) j["note"] = *v.note;
  if (const auto l = v.details.find("layouts"); l != v.details.end()) j["layouts"] = *l;
  j.update(policy_json(policy_of(v)));  // better, better_from, margin, margin_from (design §4)
  return j;
}

nlohmann::json to_json(const mechanism_entry& m) {
  nlohmann::json explains = nlohmann::json::array();
  for (const auto& v : m.explains)
    explains.push_back({{"metric", v.metric}, {"verdict", db::to_string(v.verdict)}, {"ratio", or_null(v.ratio)}});
  nlohmann::json j = {{"benchmark", m.benchmark}, {"explains", std::move(explains)}};
  j.update(counts::to_json(m.block));
  return j;
}

nlohmann::json to_json(const experiment_result& r) {
  nlohmann::json verdicts = nlohmann::json::array();
  for (const auto& v : r.verdicts) verdicts.push_back(to_json(v));
  nlohmann::json j = {{"experiment", r.experiment.empty() ? nlohmann::json() : nlohmann::json(r.experiment)},
                      {"baseline", r.baseline},
                      {"verdicts", std::move(verdicts)}};
  if (r.mechanisms) {
    j["mechanisms"] = nlohmann::json::array();
    for (const auto& m : *r.mechanisms) j["mechanisms"].push_back(to_json(m));
  }
  return j;
}

}  // namespace abtest::report
