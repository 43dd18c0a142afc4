// The RMIT loop: one slot at a time, recorded as it completes, so a killed run loses at most the
// invocation in flight and --resume replays the same seeded order from there.
#include "harness/core/scheduler.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <tuple>
#include <utility>

namespace abtest {
namespace {

std::string format_eta(double seconds) {
  if (!(seconds >= 0)) return "?";
  const int s = static_cast<int>(seconds + 0.5);
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
  if (s >= 60) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

}  // namespace

std::vector<std::string> default_monitor_metrics(const run_plan& plan, const std::vector<sample>& samples) {
  std::vector<std::string> out;
  for (const auto& bench : plan.benchmarks) {
    std::set<std::string> names;
    for (const auto& s : samples)
      if (s.benchmark == bench && s.status == sample_status::ok)
        for (const auto& [name, _] : s.metrics) names.insert(name);
    if (names.count(bench + ".total_s")) {
      out.push_back(bench + ".total_s");
      continue;
    }
    for (const auto& name : names) {
      const bool seconds = name.size() > 2 && name.compare(name.size() - 2, 2, "_s") == 0;
      if (seconds && !is_auxiliary_metric(name) && name != bench + ".wall_s") out.push_back(name);
    }
    if (names.count(bench + ".wall_s") && out.empty()) out.push_back(bench + ".wall_s");
  }
  return out;
}

bool adaptive_decisive(const run_plan& plan, const std::vector<sample>& samples) {
  const auto analysis = analyze(plan, samples);
  const auto monitored = plan.monitor_metrics.empty() ? default_monitor_metrics(plan, samples) : plan.monitor_metrics;
  if (monitored.empty()) return false;
  for (int arm = 1; arm < static_cast<int>(plan.arms.size()); ++arm) {
    if (!analysis.arms[arm].invalid_reason.empty()) continue;  // no speed verdict will ever come
    for (const auto& metric : monitored) {
      bool decisive = false;
      for (const auto& row : analysis.rows)
        if (row.arm == arm && row.metric == metric)
          decisive = row.n >= plan.min_rounds && row.verdict != stats::verdict::inconclusive;
      if (!decisive) return false;
    }
  }
  return true;
}

schedule_result run_schedule(const manifest& m, const run_plan& plan, sample_source& source,
                             std::vector<sample>& samples, const scheduler_hooks& hooks) {
  schedule_result result;
  std::set<std::tuple<int, std::string, int, bool>> done;
  for (const auto& s : samples) done.insert(s.slot_key());

  const int per_round = static_cast<int>(plan.arms.size() * plan.benchmarks.size());
  const int total_slots = per_round * (plan.warmups + plan.rounds);
  int slot_index = 0, ran = 0;
  double spent_s = 0;

  auto report = [&](const slot& s, int round, bool warmup) {
    const double eta = spent_s / ran * (total_slots - slot_index);
    hooks.progress(fmt::format("{} {}/{} · {} · {} · {}/{} · ETA {}", warmup ? "warm-up" : "round", round,
                               warmup ? plan.warmups : plan.rounds, plan.arms[s.arm].key, s.benchmark, slot_index,
                               total_slots, format_eta(eta)));
  };
  auto keep = [&](const slot& at, sample&& ran) {
    static_cast<slot&>(ran) = at;
    hooks.record(ran);
    done.insert(ran.slot_key());
    samples.push_back(std::move(ran));
  };
  auto run_round = [&](int round, bool warmup) -> bool {
    const auto slots = round_slots(plan, round, warmup);
    for (const auto& s : slots) {
      ++slot_index;
      if (done.count(s.slot_key())) continue;
      if (hooks.should_stop()) {
        result.interrupted = true;
        return false;
      }
      const benchmark_spec* bench = m.find_benchmark(s.benchmark);
      if (!bench && plan.simulate.empty()) throw std::runtime_error("benchmark " + s.benchmark + " vanished from the manifest");
      static const benchmark_spec simulated;
      const auto t0 = std::chrono::steady_clock::now();
      if (plan.duet && !warmup) {
        // The partner runs beside this slot's arm, at the same moment; its own slot then finds it done.
        // Warm-ups run one at a time and unpinned: the source checks there that each uses one core.
        const int partner = duet_partner(plan, s.arm);
        const auto other = std::find_if(slots.begin(), slots.end(),
                                        [&](const slot& o) { return o.arm == partner && o.benchmark == s.benchmark; });
        // Who goes first to run_pair (which starts first, and whose cores swap with the round's
        // parity) follows the balanced schedule of plan.hpp, whichever slot the round meets first.
        const bool this_first = (s.arm < partner) == duet_baseline_starts_first(round);
        auto [first, second] = source.run_pair(plan.arms[this_first ? s.arm : partner], plan.arms[this_first ? partner : s.arm],
                                               bench ? *bench : simulated, round, warmup);
        auto& mine = this_first ? first : second;
        auto& theirs = this_first ? second : first;
        spent_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        ran += 2;
        // Positions say who started first: the round's two slots of the pair, the earlier to that arm.
        slot me = s, partner_slot = *other;
        std::tie(me.position, partner_slot.position) =
            this_first ? std::pair{std::min(s.position, other->position), std::max(s.position, other->position)}
                       : std::pair{std::max(s.position, other->position), std::min(s.position, other->position)};
        keep(me, std::move(mine));
        // Resumed after a kill between the two records: the pair ran again, the stored one stays.
        if (!done.count(other->slot_key())) keep(partner_slot, std::move(theirs));
        report(s, round, warmup);
        continue;
      }
      sample outcome = source.run(plan.arms[s.arm], bench ? *bench : simulated, round, warmup);
      spent_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      ++ran;
      keep(s, std::move(outcome));
      report(s, round, warmup);
    }
    return true;
  };

  for (int w = 1; w <= plan.warmups; ++w)
    if (!run_round(w, true)) return result;
  for (int r = 1; r <= plan.rounds; ++r) {
    if (!run_round(r, false)) return result;
    result.rounds_done = r;
    if (plan.adaptive && r >= plan.min_rounds && r < plan.rounds && adaptive_decisive(plan, samples)) {
      result.stopped_early = true;
      break;
    }
  }
  return result;
}

}  // namespace abtest
