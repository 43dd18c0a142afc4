// JSON and terminal forms of a mechanism block.
#include "harness/counts/mechanism_format.hpp"

#include <fmt/format.h>

namespace abtest::counts {

namespace {

nlohmann::json optional_number(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

// Cut at `width` code points (names are UTF-8 only in file paths; never split a sequence).
std::string cut(const std::string& s, std::size_t width) {
  std::size_t points = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;
    if (++points > width) return s.substr(0, i) + "…";
  }
  return s;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

std::string format_count(count v) {
  std::string digits = std::to_string(v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string format_delta(std::int64_t v) {
  const std::uint64_t m = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  return (v < 0 ? "-" : "+") + format_count(m);
}

std::string format_relative(const std::optional<double>& r) {
  return r ? fmt::format("{:+.2f}%", *r * 100.0) : std::string("new");
}

nlohmann::json to_json(const mechanism& m) {
  using nlohmann::json;
  json counts = json::array(), functions = json::array(), sites = json::array();
  for (const count_change& c : m.moved)
    counts.push_back({{"name", c.name}, {"base", c.base}, {"candidate", c.candidate}, {"delta", c.delta},
                      {"relative", optional_number(c.relative)}});
  for (const function_change& f : m.functions)
    functions.push_back({{"name", f.name}, {"file", f.file}, {"base", f.base}, {"candidate", f.candidate},
                         {"delta", f.delta}, {"relative", optional_number(f.relative)}, {"deltas", f.event_deltas}});
  for (const site_change& s : m.alloc_sites)
    sites.push_back({{"where", s.where}, {"delta_blocks", s.delta_blocks}, {"delta_bytes", s.delta_bytes},
                     {"base_bytes", s.base_bytes}, {"candidate_bytes", s.candidate_bytes}});
  json j = {{"base", m.base_label},   {"candidate", m.candidate_label}, {"rank_by", m.rank_by}, {"region", m.region},
            {"comparable", m.comparable}, {"counts", std::move(counts)},  {"unchanged", m.unchanged},
            {"missing", m.missing},   {"functions", std::move(functions)}, {"alloc_sites", std::move(sites)}};
  if (!m.comparable) j["incomparable_reason"] = m.incomparable_reason;
  return j;
}

std::string format_terminal(const mechanism& m, const terminal_options& o) {
  const std::string& in = o.indent;
  const std::string where = m.region.empty() ? "" : fmt::format(" in {}", m.region);
  std::string out = fmt::format("mechanism: {} vs {} (Valgrind counts{}, exact)\n", m.candidate_label, m.base_label, where);
  if (!m.comparable) out += fmt::format("{}warning: {} — measure both arms on one host and Valgrind\n", in, m.incomparable_reason);
  if (m.moved.empty()) out += fmt::format("{}no count moved\n", in);
  for (const count_change& c : m.moved)
    out += fmt::format("{}{:<13} {:>15} → {:>15}  {:>14}  {:>8}\n", in, c.name, format_count(c.base), format_count(c.candidate),
                       format_delta(c.delta), format_relative(c.relative));
  if (!m.unchanged.empty()) out += fmt::format("{}unchanged: {}\n", in, joined(m.unchanged));
  if (!m.missing.empty()) out += fmt::format("{}measured in one arm only: {}\n", in, joined(m.missing));
  if (!m.functions.empty()) {
    out += fmt::format("{}functions by Δ {}:\n", in, m.rank_by);
    for (const function_change& f : m.functions) {
      std::string others;
      for (const char* event : {"Ir", "D1mr", "LLmr", "Bcm"}) {
        const auto it = f.event_deltas.find(event);
        if (event != m.rank_by && it != f.event_deltas.end())
          others += fmt::format("{}{} {}", others.empty() ? "" : ", ", event, format_delta(it->second));
      }
      out += fmt::format("{}{}{:>14}  {:>8}  {}{}\n", in, in, format_delta(f.delta), format_relative(f.relative),
                         cut(f.name, o.name_width), others.empty() ? "" : "  [" + others + "]");
    }
  }
  if (!m.alloc_sites.empty()) {
    out += fmt::format("{}allocation sites by Δ bytes:\n", in);
    for (const site_change& s : m.alloc_sites)
      out += fmt::format("{}{}{:>14} B  {:>11} blocks  {}\n", in, in, format_delta(s.delta_bytes),
                         format_delta(s.delta_blocks), cut(s.where, o.name_width));
  }
  return out;
}

}  // namespace abtest::counts
