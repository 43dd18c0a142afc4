// Format `divan`: the tree divan prints (`├─ name  fastest │ slowest │ median │ mean │ samples │
// iters`), each bench named with its parents (design §4).
#include <fmt/ranges.h>

#include "harness/exec/parse_support.hpp"
#include "harness/exec/text.hpp"

namespace abtest::exec {

// Named, not anonymous: the unity build puts the formats in one translation unit.
namespace divan_format_detail {

// A line as code points' byte offsets: divan aligns its columns in characters, and its tree and
// column rules (│ ├ ╰ ─) are three bytes each in UTF-8.
std::vector<std::size_t> char_starts(std::string_view line) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < line.size(); ++i)
    if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) starts.push_back(i);
  starts.push_back(line.size());
  return starts;
}

// Characters [from, to) of `line`, by code point (clamped to the line).
std::string_view columns(std::string_view line, const std::vector<std::size_t>& starts, std::size_t from, std::size_t to) {
  const std::size_t n = starts.size() - 1;
  from = std::min(from, n);
  to = std::min(to, n);
  return line.substr(starts[from], starts[to] - starts[from]);
}

constexpr std::string_view rule = "│";

struct header {
  std::string root;                  // the bench target's name, the tree's root
  std::size_t first_value = 0;       // the column where `fastest` starts
  std::vector<std::size_t> rules;    // the columns of the │ between the value columns
  std::size_t median = 0;            // the cell that holds the median (0 = fastest)
};

std::optional<header> read_header(std::string_view line) {
  if (line.find("fastest") == std::string_view::npos || line.find("median") == std::string_view::npos ||
      line.find(rule) == std::string_view::npos)
    return std::nullopt;
  header h;
  const auto starts = char_starts(line);
  for (std::size_t c = 0; c + 1 < starts.size(); ++c) {
    const std::string_view ch = line.substr(starts[c], starts[c + 1] - starts[c]);
    if (ch == rule) h.rules.push_back(c);
    if (h.first_value == 0 && line.substr(starts[c]).starts_with("fastest")) h.first_value = c;
  }
  h.root = std::string(detail::trim(columns(line, starts, 0, h.first_value)));
  for (std::size_t cell = 0; cell <= h.rules.size(); ++cell) {
    const std::size_t from = cell == 0 ? h.first_value : h.rules[cell - 1] + 1;
    const std::size_t to = cell < h.rules.size() ? h.rules[cell] : starts.size() - 1;
    if (detail::trim(columns(line, starts, from, to)) == "median") h.median = cell;
  }
  if (h.median == 0) return std::nullopt;
  return h;
}

bool tree_char(std::string_view ch) { return ch == " " || ch == "│" || ch == "├" || ch == "╰" || ch == "─"; }

parsed_output parse(std::string_view bench, const nlohmann::json&, const format_input& in) {
  std::string all;
  if (std::string error = detail::read_input(in, output_stream::stdout_text, all); !error.empty())
    return detail::bad_output(std::move(error));
  detail::metric_set metrics(bench);
  std::optional<header> h;
  std::vector<std::string> path;  // the names from the root down to the current row
  std::string_view text(all);
  while (!text.empty()) {
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (auto next = read_header(line)) {
      h = std::move(next);
      path = {h->root};
      continue;
    }
    if (!h || line.find(rule) == std::string_view::npos) {
      if (detail::trim(line).empty()) h.reset();  // the table ends at a blank line
      continue;
    }
    const auto starts = char_starts(line);
    // Each level of the tree is three characters ("├─ ", "│  "): the name's column gives its depth.
    std::size_t name_at = 0;
    while (name_at + 1 < starts.size() && name_at < h->first_value &&
           tree_char(line.substr(starts[name_at], starts[name_at + 1] - starts[name_at])))
      ++name_at;
    const std::string name(detail::trim(columns(line, starts, name_at, h->first_value)));
    // Counter rows (`max alloc:`) and throughput rows (no name) belong to the bench above them.
    if (name.empty() || name.back() == ':') continue;
    const std::size_t depth = std::max<std::size_t>(1, name_at / 3);
    path.resize(depth);
    path.push_back(name);
    const std::size_t from = h->rules[h->median - 1] + 1;
    const std::size_t to = h->median < h->rules.size() ? h->rules[h->median] : starts.size() - 1;
    const std::string_view cell = detail::trim(columns(line, starts, from, to));
    if (cell.empty()) continue;  // a group: its children carry the times
    const std::size_t space = cell.rfind(' ');
    if (space == std::string_view::npos) continue;
    const auto value = detail::parse_number(cell.substr(0, space));
    const double scale = detail::seconds_per(detail::trim(cell.substr(space)));
    if (!value || scale == 0) continue;  // a count or a throughput, not a time
    const std::string raw = fmt::format("{}", fmt::join(path, "/"));
    if (!metrics.add(raw, sanitize_metric_name(raw) + "_s", *value * scale)) return detail::bad_output(metrics.error());
  }
  return metrics.finish(parsed_output{}, "no divan table (`name  fastest │ slowest │ median │ …`) on stdout — run the "
                                         "divan bench target itself, e.g. `{bin}/<bench> --bench`");
}
}  // namespace divan_format_detail

const output_format_row& divan_format() {
  static const output_format_row row{"divan", "stdout: divan's tree, each bench's median, named with its parents",
                                     output_stream::stdout_text, "", {}, no_options, divan_format_detail::parse};
  return row;
}

}  // namespace abtest::exec
