// Bisect's step lines: counting steps, estimating how many are left, naming what each one tests.
#include "harness/experiment/bisect_progress.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "harness/experiment/progress.hpp"

namespace abtest {

namespace {

// A toggle's level in a variant: a toggle it does not name is at its off level.
std::string level_of(const search::levels& v, const search::toggle_spec& spec) {
  const auto it = v.find(spec.id);
  return it == v.end() ? spec.off_level() : it->second;
}

// A long set on one line: its first three, an ellipsis, its last and how many ("T01, T02, T03, …,
// T24 (24)").
std::string short_list(const std::vector<std::string>& items) {
  if (items.size() <= 6) return fmt::format("{}", fmt::join(items, ", "));
  return fmt::format("{}, {}, {}, …, {} ({})", items[0], items[1], items[2], items.back(), items.size());
}

// A variant key of many toggles, cut after 40 characters at a '+'.
std::string short_key(const std::string& key) {
  if (key.size() <= 40) return key;
  const auto cut = key.rfind('+', 40);
  return key.substr(0, cut == std::string::npos ? 40 : cut) + "+…";
}

}  // namespace

std::string left_text(const bisect_step_line& l) {
  if (!l.left_s) return "time left not known yet";
  if (l.worst_case) return fmt::format("≤ {} min left", std::max(1, static_cast<int>(std::ceil(*l.left_s / 60.0))));
  return "≈" + format_eta(std::max(0.0, *l.left_s)) + " left";
}

std::string format_step_line(const bisect_step_line& l) {
  const std::string what = l.matrix_configs > 0
                               ? fmt::format("factorial matrix of {} configurations", l.matrix_configs)
                               : fmt::format("testing {{{}}} vs {}", short_list(l.tested), short_key(l.against));
  return fmt::format("step {}/≈{} · {} · culprits so far: {} · {}", l.step, std::max(l.expected, l.step), what,
                     l.culprits.empty() ? "none" : fmt::format("{}", fmt::join(l.culprits, ", ")), left_text(l));
}

int expected_bisect_steps(std::size_t differing, std::size_t culprits, search_shape shape) {
  const int c = static_cast<int>(std::max<std::size_t>(culprits, 1));
  if (differing <= 1) return 1 + 2 * c;
  if (shape == search_shape::factorial) return 2 + 2 * c;
  const int depth = static_cast<int>(std::ceil(std::log2(static_cast<double>(differing))));
  return 1 + c * (2 * depth + 2);
}

bisect_progress::bisect_progress(const experiment_context& ctx, std::vector<search::toggle_spec> specs, std::size_t differing,
                                 search_shape shape)
    : ctx_(ctx), specs_(std::move(specs)), differing_(differing), shape_(shape), t0_(std::chrono::steady_clock::now()) {}

std::vector<std::string> bisect_progress::changes(const search::levels& from, const search::levels& to) const {
  std::vector<std::string> out;
  for (const auto& spec : specs_) {
    const std::string a = level_of(from, spec), b = level_of(to, spec);
    if (a == b) continue;
    out.push_back(b == spec.off_level() ? "-" + spec.term(a) : spec.term(b));
  }
  return out;
}

std::vector<std::string> bisect_progress::culprits() const {
  // The terms the search decided, with their ratios, then those inferred from single-toggle steps.
  std::vector<std::string> out = decided_;
  for (const std::string& c : culprits_)
    if (std::none_of(out.begin(), out.end(), [&](const std::string& d) { return d.rfind(c + " ", 0) == 0; })) out.push_back(c);
  return out;
}

void bisect_progress::starts(bisect_step_line line) {
  line.step = ++step_;
  line.culprits = culprits();
  line.expected = expected_bisect_steps(differing_, line.culprits.size(), shape_);
  if (worst_left_s_) {
    line.left_s = worst_left_s_;
    line.worst_case = true;
  } else if (step_ > 1) {
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    line.left_s = spent / (step_ - 1) * (std::max(line.expected, step_) - step_ + 1);
  }
  ctx_.report(progress::kind::note, format_step_line(line));
}

void bisect_progress::recorded(const search::levels& from, const search::levels& to, const oracle_step& step) {
  const auto v = step.result.verdict;
  if (v != stats::verdict::slower && v != stats::verdict::faster) return;
  if (!direction_) {
    direction_ = v;  // the first measured comparison is the overall one: to vs from
    return;
  }
  const auto changed = changes(from, to);
  if (changed.size() != 1) return;
  // "from + C vs from" the way of the overall verdict, or "to vs to − C" the other way.
  const bool added = changed.front().front() != '-';
  if ((v == *direction_) != added) return;
  // Named as the search names terms ("A1=4", "B1"), whichever way the step turned it.
  for (const auto& spec : specs_) {
    const std::string a = level_of(from, spec), b = level_of(to, spec);
    if (a == b) continue;
    const std::string term = spec.term(added ? b : a);
    if (std::find(culprits_.begin(), culprits_.end(), term) == culprits_.end()) culprits_.push_back(term);
  }
}

oracle_listener bisect_progress::listener() {
  oracle_listener l;
  l.comparing = [this](const search::levels& from, const search::levels& to) {
    matrix_configs_ = 0;
    matrix_rounds_ = 0;
    last_from_ = from;
    last_to_ = to;
    bisect_step_line line;
    line.tested = changes(from, to);
    line.against = search::variant_key(specs_, from);
    starts(std::move(line));
  };
  l.matrix = [this](std::size_t configs, int rounds) {
    if (configs == matrix_configs_ && matrix_rounds_ > 0) {
      const auto c = culprits();
      std::string more = fmt::format("  undecided after {} rounds: {} more", matrix_rounds_, rounds);
      if (!c.empty()) more += fmt::format(" · decided: {}", fmt::join(c, ", "));
      if (worst_left_s_) {
        bisect_step_line worst;
        worst.left_s = worst_left_s_;
        worst.worst_case = true;
        more += " · " + left_text(worst);
      }
      ctx_.report(progress::kind::note, more);
      matrix_rounds_ += rounds;
      return;
    }
    matrix_configs_ = configs;
    matrix_rounds_ = rounds;
    last_from_.clear();
    last_to_.clear();
    bisect_step_line line;
    line.matrix_configs = configs;
    starts(std::move(line));
  };
  l.recorded = [this](const oracle_step& step) { recorded(last_from_, last_to_, step); };
  l.progress = [this](const search::search_progress& p) {
    decided_ = p.decided;
    if (std::isfinite(p.worst_left_s)) worst_left_s_ = p.worst_left_s;
    else worst_left_s_.reset();
  };
  return l;
}

}  // namespace abtest
