// The cachegrind output file format, line by line (Valgrind's cg_annotate reads it the same way).
#include "harness/counts/cachegrind_file.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include <fmt/format.h>

namespace abtest::counts {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// The whitespace-separated whole numbers of `s`, or nullopt when one is not a number.
std::optional<std::vector<count>> numbers(std::string_view s) {
  std::vector<count> out;
  while (true) {
    s = trim(s);
    if (s.empty()) return out;
    count v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || (end != s.data() + s.size() && *end != ' ' && *end != '\t')) return std::nullopt;
    out.push_back(v);
    s.remove_prefix(static_cast<std::size_t>(end - s.data()));
  }
}

// A name after `fl=` / `fn=` / …: plain, or compressed as "(id) name" (defines) / "(id)" (refers).
std::optional<std::string> resolve_name(std::string_view text, std::map<count, std::string>& table) {
  text = trim(text);
  if (text.empty() || text.front() != '(') return std::string(text);
  const std::size_t close = text.find(')');
  if (close == std::string_view::npos) return std::string(text);
  const auto id = numbers(text.substr(1, close - 1));
  if (!id || id->size() != 1) return std::string(text);  // a name that merely starts with '('
  const std::string_view rest = trim(text.substr(close + 1));
  if (!rest.empty()) return table[id->front()] = std::string(rest);
  const auto it = table.find(id->front());
  if (it == table.end()) return std::nullopt;
  return it->second;
}

struct function_sums {
  std::vector<count> events;
  std::map<std::string, count> first_event_by_file;  // to name the file that holds most of it
};

cachegrind_profile fail(std::size_t line_no, const std::string& what) {
  cachegrind_profile p;
  p.error = fmt::format("cachegrind output, line {}: {} — the file is not cachegrind's output, or it "
                        "was cut short (did Valgrind run out of disk or get killed?)", line_no, what);
  return p;
}

}  // namespace

cachegrind_profile parse_cachegrind(std::string_view text) {
  cachegrind_profile p;
  std::map<count, std::string> file_names, fn_names, object_names;
  bool inclusive_call_cost = false;  // the next count line follows a calls= line
  std::map<std::string, function_sums> sums;
  std::vector<count> line_total;
  std::optional<std::vector<count>> summary;
  std::string file = "???";
  function_sums* current = nullptr;
  std::vector<std::string> desc;

  std::size_t line_no = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view line = trim(text.substr(0, nl));
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++line_no;
    if (line.empty() || line.front() == '#') continue;

    if (const char c = line.front(); (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*') {
      if (p.events.empty()) return fail(line_no, "a count line before the events: line");
      if (!current) return fail(line_no, "a count line before any fn= line");
      // The position: a line number, or callgrind's relative "+3" / "-2" / "*" (same line).
      const std::size_t end = std::min(line.find_first_of(" \t"), line.size());
      std::string_view position = line.substr(0, end);
      if (c == '+' || c == '-') position.remove_prefix(1);
      const auto line_number = numbers(position);
      const auto v = numbers(line.substr(end));
      if (!v || !(position == "*" || (line_number && line_number->size() == 1)))
        return fail(line_no, fmt::format("'{}' is not a line number followed by counts", line));
      if (v->size() > p.events.size())
        return fail(line_no, fmt::format("{} counts for {} events", v->size(), p.events.size()));
      if (inclusive_call_cost) {  // the cost of a call, already counted in the callee's own lines
        inclusive_call_cost = false;
        continue;
      }
      for (std::size_t i = 0; i < v->size(); ++i) {
        current->events[i] += (*v)[i];
        line_total[i] += (*v)[i];
      }
      if (!v->empty()) current->first_event_by_file[file] += v->front();
    } else if (line.starts_with("calls=")) {
      inclusive_call_cost = true;
    } else if (line.starts_with("cfn=")) {
      if (!resolve_name(line.substr(4), fn_names))
        return fail(line_no, fmt::format("'{}' refers to a function id never defined", line));
    } else if (line.starts_with("cfi=") || line.starts_with("cfl=")) {
      if (!resolve_name(line.substr(4), file_names))
        return fail(line_no, fmt::format("'{}' refers to a file id never defined", line));
    } else if (line.starts_with("ob=") || line.starts_with("cob=")) {
      resolve_name(line.substr(line.find('=') + 1), object_names);  // kept only to resolve later ids
    } else if (line.starts_with("fl=") || line.starts_with("fi=") || line.starts_with("fe=")) {
      const auto name = resolve_name(line.substr(3), file_names);
      if (!name) return fail(line_no, fmt::format("'{}' refers to a file id never defined", line));
      file = *name;
    } else if (line.starts_with("fn=")) {
      if (p.events.empty()) return fail(line_no, "an fn= line before the events: line");
      const auto name = resolve_name(line.substr(3), fn_names);
      if (!name) return fail(line_no, fmt::format("'{}' refers to a function id never defined", line));
      current = &sums[*name];
      current->events.resize(p.events.size());
    } else if (line.starts_with("events:")) {
      if (!p.events.empty()) return fail(line_no, "a second events: line");
      std::string_view rest = trim(line.substr(7));
      while (!rest.empty()) {
        const std::size_t sp = rest.find_first_of(" \t");
        p.events.emplace_back(rest.substr(0, sp));
        rest = trim(rest.substr(sp == std::string_view::npos ? rest.size() : sp));
      }
      if (p.events.empty()) return fail(line_no, "an events: line without events");
      line_total.assign(p.events.size(), 0);
    } else if (line.starts_with("summary:") || line.starts_with("totals:")) {
      summary = numbers(line.substr(line.find(':') + 1));
      if (!summary || summary->size() > p.events.size())
        return fail(line_no, fmt::format("'{}' does not hold one count per event", line));
      summary->resize(p.events.size());
    } else if (line.starts_with("desc:")) {
      std::string d(trim(line.substr(5)));
      // "I1 cache:         32768 B, 64 B, 8-way associative" → "I1 cache: 32768 B, 64 B, 8-way associative"
      for (std::size_t at; (at = d.find("  ")) != std::string::npos;) d.erase(at, 1);
      if (d.find(" cache:") != std::string::npos) desc.push_back(std::move(d));  // not callgrind's Timerange / Trigger
    } else if (line.starts_with("cmd:")) {
      p.command = std::string(trim(line.substr(4)));
    } else if (line.starts_with("positions:")) {
      if (trim(line.substr(10)) != "line")
        return fail(line_no, fmt::format("'{}': only line positions are supported", line));
    } else if (line.find(':') == std::string_view::npos && line.find('=') == std::string_view::npos) {
      return fail(line_no, fmt::format("unrecognised line '{}'", line));
    }
    // Other `key: value` / `key=value` lines (callgrind's `creator:`, `cob=`, …) carry no counts.
  }

  if (p.events.empty()) return fail(line_no, "no events: line");
  if (!summary) return fail(line_no, "no summary: line");
  for (std::size_t i = 0; i < p.events.size(); ++i) {
    if ((*summary)[i] != line_total[i])
      return fail(line_no, fmt::format("the counts of event {} add up to {}, but the summary says {}",
                                       p.events[i], line_total[i], (*summary)[i]));
    p.totals[p.events[i]] = (*summary)[i];
  }
  add_derived_events(p.totals);
  for (auto& [name, s] : sums) {
    // Callers that appear only for their calls= lines (callgrind) have no cost of their own.
    if (std::all_of(s.events.begin(), s.events.end(), [](count n) { return n == 0; })) continue;
    function_counts f{name, "???", {}};
    for (std::size_t i = 0; i < p.events.size(); ++i) f.events[p.events[i]] = s.events[i];
    add_derived_events(f.events);
    const std::string* most = nullptr;  // ties: the first file in name order
    for (const auto& [fl, n] : s.first_event_by_file)
      if (!most || n > s.first_event_by_file.at(*most)) most = &fl;
    if (most) f.file = *most;
    p.functions.emplace(name, std::move(f));
  }
  for (std::size_t i = 0; i < desc.size(); ++i) p.cache_config += (i ? "; " : "") + desc[i];
  return p;
}

}  // namespace abtest::counts
