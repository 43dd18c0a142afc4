// JSON report (see json_exporter.hpp).
#include "harness/report/json_exporter.hpp"

namespace abtest::report {
namespace {

nlohmann::json opt(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

}  // namespace

nlohmann::json json_exporter::to_json(const report_data& r) {
  nlohmann::json j{{"title", r.title}, {"experiment", r.experiment}, {"kind", r.kind}, {"status", r.status},
                   {"started_at", r.started_at}, {"headline_metric", r.headline_metric}};
  j["verdicts"] = nlohmann::json::array();
  for (const auto& v : r.verdicts)
    j["verdicts"].push_back({{"variant", v.variant}, {"baseline", v.baseline}, {"metric", v.metric}, {"n", v.n},
                             {"baseline_median", opt(v.baseline_median)}, {"candidate_median", opt(v.candidate_median)},
                             {"ratio", opt(v.ratio)}, {"ci_low", opt(v.ci_low)}, {"ci_high", opt(v.ci_high)},
                             {"p_adjusted", opt(v.p_adjusted)}, {"verdict", v.verdict}, {"immaterial", v.immaterial}});
  j["effects"] = nlohmann::json::array();
  for (const auto& e : r.effects)
    j["effects"].push_back({{"metric", e.metric}, {"term", e.term}, {"effect", e.estimate}, {"ci_low", opt(e.ci_low)},
                            {"ci_high", opt(e.ci_high)}, {"p_adjusted", opt(e.p_adjusted)}});
  j["distributions"] = nlohmann::json::array();
  for (const auto& d : r.distributions) j["distributions"].push_back({{"variant", d.variant}, {"values", d.values}});
  j["phases"] = nlohmann::json::array();
  for (const auto& p : r.phases) j["phases"].push_back({{"variant", p.variant}, {"median_s", p.phases}});
  j["changepoints"] = nlohmann::json::array();
  for (const auto& c : r.changepoints)
    j["changepoints"].push_back({{"id", c.id}, {"variant", c.variant}, {"metric", c.metric}, {"experiment", c.experiment},
                                 {"at", c.at}, {"magnitude", c.magnitude}, {"p_value", opt(c.p_value)}, {"state", c.state}});
  j["trends"] = nlohmann::json::array();
  for (const auto& t : r.trends) {
    nlohmann::json pts = nlohmann::json::array();
    for (const auto& [at, v] : t.points) pts.push_back({{"at", at}, {"median", v}});
    j["trends"].push_back({{"variant", t.variant}, {"metric", t.metric}, {"points", pts}});
  }
  return j;
}

std::string json_exporter::render(const report_data& r) const { return to_json(r).dump(2) + "\n"; }

}  // namespace abtest::report
