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

flip_share share_of(const reverted_default& r, const metric_result& head) {
  const metric_result* m = find_metric(r.metrics, head.metric);
  if (!m || m->verdict == stats::verdict::invalid) return flip_share::unknown;
  if (moved(*m)) return flip_share::not_alone;
  if (m->verdict != stats::verdict::inconclusive) return flip_share::accounts;
  // Undecided against the base, yet clearly apart from the head: the head's ratio lies outside the
  // reverted build's CI, on the far side from 1.
  const double h = head.estimate.ratio();
  if (m->estimate.has_ci && ((h > 1 && h > m->estimate.ratio_high()) || (h < 1 && h < m->estimate.ratio_low())))
    return flip_share::most;
  return flip_share::unknown;
}

const char* to_string(flip_share s) {
  static constexpr const char* names[] = {"accounts", "most", "not_alone", "unknown"};  // in the enum's order
  return names[static_cast<int>(s)];
}

const metric_result& head_row(const flip_attribution& a, const metric_result& fallback) {
  const metric_result* m = find_metric(a.experiment.metrics, fallback.metric);
  return m ? *m : fallback;
}

std::string reverted_text(const reverted_default& r, const metric_result& head) {
  const metric_result* m = find_metric(r.metrics, head.metric);
  if (r.arm.empty()) return fmt::format("the head does not build with {}={}", r.toggle, r.level);
  if (!m) return fmt::format("reverting {}'s default was not measured on this metric", r.toggle);
  const std::string ratio = m->estimate.has_ci ? fmt::format("{:.4f}× [{:.4f}, {:.4f}]", m->estimate.ratio(), m->estimate.ratio_low(),
                                                             m->estimate.ratio_high())
                                               : fmt::format("{:.4f}×", m->estimate.ratio());
  const flip_share share = share_of(r, head);
  const std::string why = share == flip_share::accounts    ? "the flip accounts for it"
                          : share == flip_share::most      ? fmt::format("the flip accounts for most of it (the head reads {:.4f}× in the "
                                                                         "same rounds, outside this CI)", head.estimate.ratio())
                          : share == flip_share::not_alone ? "not the flip alone: the rest of the change moves it too"
                                                           : "undecided at this noise (more rounds, --max-rounds, would tell)";
  return fmt::format("reverting {}'s default alone gives {} ({}): {}", r.toggle, ratio, stats::verdict_label(m->metric, m->verdict), why);
}

nlohmann::json to_json(const flip_attribution& a) {
  nlohmann::json reverted = nlohmann::json::array();
  for (const auto& r : a.reverted) {
    nlohmann::json metrics = nlohmann::json::array();
    for (const auto& m : r.metrics) {
      auto row = to_json(m);
      row["share"] = to_string(share_of(r, head_row(a, m)));
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
