// Flipped defaults and their attribution: the words and the JSON of the one-toggle A/B on the head.
#include "harness/gate/attribution.hpp"

#include "harness/gate/pr_report.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace abtest::gate {
namespace {

const metric_result* find_metric(const std::vector<metric_result>& ms, const std::string& metric) {
  const auto it = std::find_if(ms.begin(), ms.end(), [&](const metric_result& m) { return m.metric == metric; });
  return it == ms.end() ? nullptr : &*it;
}

}  // namespace

flip_share share_of(const reverted_default& r, const std::string& metric) {
  const metric_result* m = find_metric(r.metrics, metric);
  if (!m || m->verdict == stats::verdict::inconclusive || m->verdict == stats::verdict::invalid) return flip_share::unknown;
  return moved(*m) ? flip_share::not_alone : flip_share::accounts;
}

const char* to_string(flip_share s) {
  static constexpr const char* names[] = {"accounts", "not_alone", "unknown"};  // in the enum's order
  return names[static_cast<int>(s)];
}

std::string reverted_text(const reverted_default& r, const std::string& metric) {
  const metric_result* m = find_metric(r.metrics, metric);
  if (r.arm.empty()) return fmt::format("the head does not build with {}={}", r.toggle, r.level);
  if (!m) return fmt::format("reverting {}'s default was not measured on this metric", r.toggle);
  const std::string ratio = m->estimate.has_ci ? fmt::format("{:.4f}× [{:.4f}, {:.4f}]", m->estimate.ratio(), m->estimate.ratio_low(),
                                                             m->estimate.ratio_high())
                                               : fmt::format("{:.4f}×", m->estimate.ratio());
  static constexpr const char* why[] = {"the flip accounts for it", "not the flip alone: the rest of the change moves it too",
                                        "undecided at this noise (more rounds, --max-rounds, would tell)"};
  return fmt::format("reverting {}'s default alone gives {} ({}): {}", r.toggle, ratio, stats::verdict_label(m->metric, m->verdict),
                     why[static_cast<int>(share_of(r, metric))]);
}

nlohmann::json to_json(const std::vector<default_flip>& flips) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : flips) out.push_back({{"toggle", f.toggle}, {"from", f.from}, {"to", f.to}, {"text", to_text(f)}});
  return out;
}

nlohmann::json to_json(const flip_attribution& a) {
  nlohmann::json reverted = nlohmann::json::array();
  for (const auto& r : a.reverted) {
    nlohmann::json metrics = nlohmann::json::array();
    for (const auto& m : r.metrics) {
      auto row = to_json(m);
      row["share"] = to_string(share_of(r, m.metric));
      metrics.push_back(std::move(row));
    }
    reverted.push_back({{"toggle", r.toggle}, {"level", r.level}, {"arm", r.arm.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.arm)},
                        {"metrics", metrics}});
  }
  nlohmann::json head = nlohmann::json::array();
  for (const auto& m : a.experiment.metrics)
    head.push_back({{"metric", m.metric}, {"verdict", stats::to_string(m.verdict)}, {"ratio", m.estimate.ratio()}});
  return {{"experiment", a.experiment.id.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.experiment.id)},
          {"seed", a.experiment.seed},
          {"rounds", a.experiment.rounds},
          {"head", head},
          {"reverted", reverted},
          {"notes", a.notes}};
}

}  // namespace abtest::gate
