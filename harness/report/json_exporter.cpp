// JSON report (see json_exporter.hpp).
#include "harness/report/json_exporter.hpp"

#include "harness/report/alerts.hpp"
#include "harness/report/verdict_json.hpp"

namespace abtest::report {
namespace {

nlohmann::json opt(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

// "A1=4*B1" → ["A1=4", "B1"].
std::vector<std::string> split_term(const std::string& term) {
  std::vector<std::string> out;
  for (std::size_t start = 0;;) {
    const std::size_t star = term.find('*', start);
    out.push_back(term.substr(start, star == std::string::npos ? std::string::npos : star - start));
    if (star == std::string::npos) return out;
    start = star + 1;
  }
}

}  // namespace

nlohmann::json json_exporter::to_json(const report_data& r) {
  // The contract's experiment / baseline / verdicts (design §9), then the report's own keys.
  nlohmann::json j = report::to_json(experiment_result{r.experiment, r.baseline, r.verdicts, r.mechanisms});
  j.update({{"title", r.title}, {"kind", r.kind}, {"status", r.status}, {"started_at", r.started_at},
            {"headline_metric", r.headline_metric}, {"duet", r.duet}});
  if (r.layouts > 0) j["layouts"] = r.layouts;  // as `run --json` prints them
  j["effects"] = nlohmann::json::array();
  for (const auto& e : r.effects) {
    j["effects"].push_back({{"metric", e.metric}, {"term", e.term}, {"effect", e.estimate}, {"ci_low", opt(e.ci_low)},
                            {"ci_high", opt(e.ci_high)}, {"p_adjusted", opt(e.p_adjusted)}});
    if (e.role.empty()) continue;
    // A bisection's terms also in the shape of `bisect --json` (design §9): culprits, offsets, rejected.
    j["effects"].back()["role"] = e.role;
    const std::string list = e.role == "culprit" ? "culprits" : e.role == "offset" ? "offsets" : "rejected";
    if (!j.contains(list)) j[list] = nlohmann::json::array();
    j[list].push_back({{"toggles", split_term(e.term)}, {"effect", e.estimate}, {"ci_low", opt(e.ci_low)}, {"ci_high", opt(e.ci_high)}});
  }
  j["distributions"] = nlohmann::json::array();
  for (const auto& d : r.distributions) j["distributions"].push_back({{"variant", d.variant}, {"values", d.values}});
  j["phases"] = nlohmann::json::array();
  for (const auto& p : r.phases) j["phases"].push_back({{"variant", p.variant}, {"median_s", p.phases}});
  j["changepoints"] = nlohmann::json::array();
  for (const auto& c : r.changepoints)
    j["changepoints"].push_back({{"id", c.id}, {"variant", c.variant}, {"metric", c.metric}, {"experiment", c.experiment},
                                 {"at", c.at}, {"magnitude", c.magnitude}, {"p_value", opt(c.p_value)}, {"state", c.state}});
  j["alerts"] = nlohmann::json::array();
  for (const auto& a : r.alerts) j["alerts"].push_back(alert_json(a));
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
