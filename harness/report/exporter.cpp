// Format selection and the number formatting every exporter shares.
#include "harness/report/exporter.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "harness/report/html_exporter.hpp"
#include "harness/report/json_exporter.hpp"
#include "harness/report/markdown_exporter.hpp"
#include "harness/report/metric_policy_text.hpp"
#include "harness/report/render.hpp"
#include "harness/stats/verdict.hpp"

namespace abtest::report {

format parse_format(std::string_view text) {
  if (text == "md" || text == "markdown") return format::markdown;
  if (text == "json") return format::json;
  if (text == "html") return format::html;
  throw std::invalid_argument(fmt::format("unknown report format \"{}\" — use md, json or html", text));
}

std::unique_ptr<exporter> make_exporter(format f) {
  switch (f) {
    case format::markdown:
    case format::terminal: return std::make_unique<markdown_exporter>();
    case format::json: return std::make_unique<json_exporter>();
    case format::html: return std::make_unique<html_exporter>();
  }
  throw std::invalid_argument("unknown report format");
}

std::string render(const report_data& r, format f) { return make_exporter(f)->render(r); }

std::string format_number(const std::optional<double>& v) { return v ? fmt::format("{:.4g}", *v) : "—"; }

std::string format_change(double ratio) { return fmt::format("{:+.2f}%", 100 * (ratio - 1)); }

std::string verdict_label(const db::verdict_record& v) {
  const auto kind = stats::parse_verdict(db::to_string(v.verdict));
  const stats::metric_policy policy = policy_of(v);
  const std::string label = kind ? stats::verdict_label(v.metric, *kind, policy.direction) : std::string(db::to_string(v.verdict));
  return label + (v.immaterial ? " (immaterial)" : "") + policy_note(policy);
}

std::string format_ci(const db::verdict_record& v) {
  return v.ci_low && v.ci_high ? fmt::format("[{}, {}]", format_change(*v.ci_low), format_change(*v.ci_high)) : "—";
}

std::vector<std::string> design_remarks(const report_data& r) {
  std::vector<std::string> out;
  if (r.layouts > 0)
    out.push_back(fmt::format("Layouts: each variant was linked {} times, its code sections in a seeded order (--layouts {}); each "
                              "interval holds the variance between layouts, and the Layouts table says how much of it.",
                              r.layouts, r.layouts));
  if (r.duet)
    out.push_back("Duet: baseline and candidate ran at the same time, one core each (--duet); the cores swapped every "
                  "round and the start order every two, and the interval is adjusted for both.");
  return out;
}

namespace {

// A layout split's sd (ln scale: 0.01 ≈ 1%) or share as a percentage; "—" when it is not there.
std::string percent_of(const nlohmann::json& l, const char* key, int decimals = 2) {
  return l.contains(key) && l[key].is_number() ? fmt::format("{:.{}f}%", 100 * l[key].get<double>(), decimals)
                                               : std::string("—");
}

}  // namespace

std::string layout_summary(const nlohmann::json& l) {
  return fmt::format("{} of the variance · layout sd {} / {} · run sd {}", percent_of(l, "share", 0),
                     percent_of(l, "sd_baseline"), percent_of(l, "sd_candidate"), percent_of(l, "within_sd"));
}

std::optional<text_table> layout_table(const report_data& r) {
  text_table t{{"variant", "metric", "layouts", "layout sd (baseline)", "layout sd (candidate)", "run sd",
                "layouts' share of the variance"},
               {}};
  for (const auto& v : r.verdicts) {
    const auto l = v.details.find("layouts");
    if (l == v.details.end() || !l->is_object()) continue;
    t.rows.push_back({v.variant, v.metric,
                      fmt::format("{} / {}", l->value("baseline", 0), l->value("candidate", 0)), percent_of(*l, "sd_baseline"),
                      percent_of(*l, "sd_candidate"), percent_of(*l, "within_sd"), percent_of(*l, "share", 0)});
  }
  if (t.rows.empty()) return std::nullopt;
  return t;
}

}  // namespace abtest::report
