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

// One pass over a cachegrind (or callgrind) file: the state its lines build up, a method per kind of
// line. Each method returns the error of a malformed line, or nothing.
class cachegrind_reader {
 public:
  std::optional<std::string> line(std::string_view l) {
    if (const char c = l.front(); (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*') return count_line(l);
    if (l.starts_with("calls=")) {
      inclusive_call_cost_ = true;
      return std::nullopt;
    }
    if (l.starts_with("cfn=")) return refer(l, l.substr(4), fn_names_, "function");
    if (l.starts_with("cfi=") || l.starts_with("cfl=")) return refer(l, l.substr(4), file_names_, "file");
    if (l.starts_with("ob=") || l.starts_with("cob=")) {
      resolve_name(l.substr(l.find('=') + 1), object_names_);  // kept only to resolve later ids
      return std::nullopt;
    }
    if (l.starts_with("fl=") || l.starts_with("fi=") || l.starts_with("fe=")) {
      const auto name = resolve_name(l.substr(3), file_names_);
      if (!name) return fmt::format("'{}' refers to a file id never defined", l);
      file_ = *name;
      return std::nullopt;
    }
    if (l.starts_with("fn=")) return function_line(l);
    return header_line(l);
  }

  // The profile once every line is read: the summary checked against the lines' sums.
  cachegrind_profile finish(std::size_t line_no) {
    if (p_.events.empty()) return fail(line_no, "no events: line");
    if (!summary_) return fail(line_no, "no summary: line");
    for (std::size_t i = 0; i < p_.events.size(); ++i) {
      if ((*summary_)[i] != line_total_[i])
        return fail(line_no, fmt::format("the counts of event {} add up to {}, but the summary says {}",
                                         p_.events[i], line_total_[i], (*summary_)[i]));
      p_.totals[p_.events[i]] = (*summary_)[i];
    }
    add_derived_events(p_.totals);
    for (auto& [name, s] : sums_) {
      // Callers that appear only for their calls= lines (callgrind) have no cost of their own.
      if (std::all_of(s.events.begin(), s.events.end(), [](count n) { return n == 0; })) continue;
      function_counts f{name, "???", {}};
      for (std::size_t i = 0; i < p_.events.size(); ++i) f.events[p_.events[i]] = s.events[i];
      add_derived_events(f.events);
      const std::string* most = nullptr;  // ties: the first file in name order
      for (const auto& [fl, n] : s.first_event_by_file)
        if (!most || n > s.first_event_by_file.at(*most)) most = &fl;
      if (most) f.file = *most;
      p_.functions.emplace(name, std::move(f));
    }
    for (std::size_t i = 0; i < desc_.size(); ++i) p_.cache_config += (i ? "; " : "") + desc_[i];
    return std::move(p_);
  }

 private:
  // "<position> <count>...": a line number, or callgrind's relative "+3" / "-2" / "*" (same line).
  std::optional<std::string> count_line(std::string_view l) {
    if (p_.events.empty()) return "a count line before the events: line";
    if (!current_) return "a count line before any fn= line";
    const std::size_t end = std::min(l.find_first_of(" \t"), l.size());
    std::string_view position = l.substr(0, end);
    if (l.front() == '+' || l.front() == '-') position.remove_prefix(1);
    const auto line_number = numbers(position);
    const auto v = numbers(l.substr(end));
    if (!v || !(position == "*" || (line_number && line_number->size() == 1)))
      return fmt::format("'{}' is not a line number followed by counts", l);
    if (v->size() > p_.events.size()) return fmt::format("{} counts for {} events", v->size(), p_.events.size());
    if (inclusive_call_cost_) {  // the cost of a call, already counted in the callee's own lines
      inclusive_call_cost_ = false;
      return std::nullopt;
    }
    for (std::size_t i = 0; i < v->size(); ++i) {
      current_->events[i] += (*v)[i];
      line_total_[i] += (*v)[i];
    }
    if (!v->empty()) current_->first_event_by_file[file_] += v->front();
    return std::nullopt;
  }

  static std::optional<std::string> refer(std::string_view l, std::string_view name, std::map<count, std::string>& table,
                                          std::string_view what) {
    if (resolve_name(name, table)) return std::nullopt;
    return fmt::format("'{}' refers to a {} id never defined", l, what);
  }

  std::optional<std::string> function_line(std::string_view l) {
    if (p_.events.empty()) return "an fn= line before the events: line";
    const auto name = resolve_name(l.substr(3), fn_names_);
    if (!name) return fmt::format("'{}' refers to a function id never defined", l);
    current_ = &sums_[*name];
    current_->events.resize(p_.events.size());
    return std::nullopt;
  }

  // `key: value` lines: events, summary, desc, cmd, positions; others carry no counts.
  std::optional<std::string> header_line(std::string_view l) {
    if (l.starts_with("events:")) return events_line(trim(l.substr(7)));
    if (l.starts_with("summary:") || l.starts_with("totals:")) {
      summary_ = numbers(l.substr(l.find(':') + 1));
      if (!summary_ || summary_->size() > p_.events.size())
        return fmt::format("'{}' does not hold one count per event", l);
      summary_->resize(p_.events.size());
    } else if (l.starts_with("desc:")) {
      std::string d(trim(l.substr(5)));
      // "I1 cache:         32768 B, 64 B, 8-way associative" → "I1 cache: 32768 B, 64 B, 8-way associative"
      for (std::size_t at; (at = d.find("  ")) != std::string::npos;) d.erase(at, 1);
      if (d.find(" cache:") != std::string::npos) desc_.push_back(std::move(d));  // not callgrind's Timerange / Trigger
    } else if (l.starts_with("cmd:")) {
      p_.command = std::string(trim(l.substr(4)));
    } else if (l.starts_with("positions:")) {
      if (trim(l.substr(10)) != "line") return fmt::format("'{}': only line positions are supported", l);
    } else if (l.find(':') == std::string_view::npos && l.find('=') == std::string_view::npos) {
      return fmt::format("unrecognised line '{}'", l);
    }
    // Other `key: value` / `key=value` lines (callgrind's `creator:`, `cob=`, …) carry no counts.
    return std::nullopt;
  }

  std::optional<std::string> events_line(std::string_view rest) {
    if (!p_.events.empty()) return "a second events: line";
    while (!rest.empty()) {
      const std::size_t sp = rest.find_first_of(" \t");
      p_.events.emplace_back(rest.substr(0, sp));
      rest = trim(rest.substr(sp == std::string_view::npos ? rest.size() : sp));
    }
    if (p_.events.empty()) return "an events: line without events";
    line_total_.assign(p_.events.size(), 0);
    return std::nullopt;
  }

  cachegrind_profile p_;
  std::map<count, std::string> file_names_, fn_names_, object_names_;
  bool inclusive_call_cost_ = false;  // the next count line follows a calls= line
  std::map<std::string, function_sums> sums_;
  std::vector<count> line_total_;
  std::optional<std::vector<count>> summary_;
  std::string file_ = "???";
  function_sums* current_ = nullptr;
  std::vector<std::string> desc_;
};

}  // namespace

cachegrind_profile parse_cachegrind(std::string_view text) {
  cachegrind_reader reader;
  std::size_t line_no = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view line = trim(text.substr(0, nl));
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++line_no;
    if (line.empty() || line.front() == '#') continue;
    if (auto error = reader.line(line)) return fail(line_no, *error);
  }
  return reader.finish(line_no);
}

}  // namespace abtest::counts
