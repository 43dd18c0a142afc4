// Build steps, ETAs and the progress printer (see progress.hpp).
#include "harness/experiment/progress.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <regex>

namespace abtest {
namespace {

using steady = std::chrono::steady_clock;

double seconds_since(steady::time_point t) { return std::chrono::duration<double>(steady::now() - t).count(); }

// Columns a UTF-8 string takes on a terminal, counting each code point as one ("·", "≤", "µ").
std::size_t columns(std::string_view s) {
  std::size_t n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// The longest prefix of `s` that fits `width` columns, cut between code points.
std::string_view fit(std::string_view s, std::size_t width) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && n++ == width) return s.substr(0, i);
  return s;
}

}  // namespace

std::optional<build_step> parse_build_step(std::string_view line) {
  // Ninja's default NINJA_STATUS is "[%f/%t] " (finished/total); without a terminal it ends each
  // status with a newline instead of rewriting it. CMake's Makefiles print "[ 42%] ".
  static const std::regex ninja(R"(^\[(\d+)/(\d+)\] (.*)$)");
  static const std::regex make(R"(^\[\s*(\d+)%\] (.*)$)");
  static const std::regex cargo(R"(^\s*(Compiling \S+ v\S+.*)$)");
  const std::string text(line.substr(0, line.find_last_not_of("\r\n") + 1));
  std::smatch m;
  if (std::regex_match(text, m, ninja)) return build_step{std::stoi(m[1]), std::stoi(m[2]), false, m[3]};
  if (std::regex_match(text, m, make)) return build_step{std::stoi(m[1]), 100, true, m[2]};
  if (std::regex_match(text, m, cargo)) return build_step{0, 0, false, m[1]};
  return std::nullopt;
}

std::optional<double> build_eta(std::optional<double> last_s, double elapsed_s, int done, int total) {
  if (last_s && elapsed_s < *last_s) return *last_s - elapsed_s;
  if (total > 0 && done > 0 && done <= total) return elapsed_s * (total - done) / done;
  return std::nullopt;
}

std::optional<double> rounds_eta(double spent_s, int ran, int left) {
  if (ran <= 0) return std::nullopt;
  return spent_s / ran * std::max(left, 0);
}

std::string format_eta(std::optional<double> seconds) {
  if (!seconds || !(*seconds >= 0) || !std::isfinite(*seconds)) return "?";
  const long s = std::lround(*seconds);
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
  if (s >= 60) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

// --- builds ---------------------------------------------------------------------------------

build_tracker::build_tracker(const experiment_context& ctx, std::string key, std::optional<double> last_s)
    : ctx_(ctx), key_(std::move(key)), last_s_(last_s), t0_(steady::now()) {}

void build_tracker::line(std::string_view text) {
  if (ctx_.verbose > 0) ctx_.report(progress::kind::output, std::string(text.substr(0, text.find_last_not_of("\r\n") + 1)));
  auto step = parse_build_step(text);
  if (!step) return;
  bool milestone = false;
  std::string count;
  if (step->total > 0) {
    const int tenth = static_cast<int>(10L * std::min(step->done, step->total) / step->total);
    milestone = tenth > last_tenth_ || step->done == step->total;
    last_tenth_ = std::max(last_tenth_, tenth);
    count = step->percent ? fmt::format("[{}%]", step->done) : fmt::format("[{}/{}]", step->done, step->total);
  } else {
    step->done = ++counted_;
    milestone = counted_ == 1 || counted_ % 10 == 0;
    count = fmt::format("[{}]", counted_);
  }
  const auto eta = build_eta(last_s_, seconds_since(t0_), step->done, step->total);
  ctx_.report(progress::kind::build_step,
              fmt::format("building {} {}{} · {}", key_, count, eta ? " · ETA " + format_eta(eta) : "", step->what), milestone);
}

// --- rounds ---------------------------------------------------------------------------------

std::string round_denominator(const run_plan& plan, bool warmup) {
  if (warmup) return std::to_string(plan.warmups);
  if (plan.round_cap > 0) return fmt::format("≤{}", plan.round_cap);
  return fmt::format("{}{}", plan.adaptive ? "≤" : "", plan.rounds);
}

round_tracker::round_tracker(const experiment_context& ctx, const run_plan& plan, int done)
    : ctx_(ctx),
      plan_(plan),
      total_(static_cast<int>(plan.arms.size() * plan.benchmarks.size()) * (plan.warmups + std::max(plan.rounds, plan.round_cap))),
      done_(done),
      last_(steady::now()) {}

void round_tracker::recorded(const slot& s) {
  ++done_;
  ++ran_;
  spent_s_ += seconds_since(last_);
  last_ = steady::now();
  // Adaptive rounds may stop before the cap: the ETA is then an upper bound.
  const std::string eta = ((plan_.adaptive || plan_.round_cap > 0) && !s.warmup ? "≤ " : "") + format_eta(rounds_eta(spent_s_, ran_, total_ - done_));
  const bool first_of_round = std::pair{s.warmup, s.round} != last_round_;
  last_round_ = {s.warmup, s.round};
  ctx_.report(progress::kind::round,
              fmt::format("{} {}/{} · {} · {} · ETA {}", s.warmup ? "warm-up" : "round", s.round, round_denominator(plan_, s.warmup),
                          plan_.arms[static_cast<std::size_t>(s.arm)].key, s.benchmark, eta),
              first_of_round);
}

// --- the printer ----------------------------------------------------------------------------

progress_printer::progress_printer(std::FILE* out, bool terminal, std::size_t width)
    : out_(out), terminal_(terminal), width_(width) {}

progress_printer::~progress_printer() { clear(); }

void progress_printer::show(const progress& p) {
  if (p.what == progress::kind::idle) return clear();
  const bool transient = p.what == progress::kind::build_step || p.what == progress::kind::round;
  if (transient && terminal_) {
    const std::string_view line = fit(p.text, width_);
    const std::size_t n = columns(line);
    fmt::print(out_, "\r{}{}", line, std::string(shown_ > n ? shown_ - n : 0, ' '));
    shown_ = n;
  } else if (!transient || p.milestone) {
    clear();
    fmt::print(out_, "{}\n", p.text);
  }
  std::fflush(out_);
}

void progress_printer::clear() {
  if (shown_ == 0) return;
  fmt::print(out_, "\r{}\r", std::string(shown_, ' '));
  std::fflush(out_);
  shown_ = 0;
}

}  // namespace abtest
