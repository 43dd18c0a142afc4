// Builds, identical-binary checks, inert-toggle notes and layout arms of a request (prepare_arms.hpp).
#include "harness/experiment/prepare_arms.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "harness/core/errors.hpp"
#include "harness/experiment/arms.hpp"
#include "harness/experiment/machine.hpp"

namespace abtest {
namespace {

// The baseline then the candidates, as the arms are ordered.
std::vector<variant> variants_of(const experiment_request& q) {
  std::vector<variant> all{q.baseline};
  all.insert(all.end(), q.candidates.begin(), q.candidates.end());
  return all;
}

void note_inert_toggles(const experiment_request& q, std::vector<std::string>& notes) {
  if (!q.bundle.empty()) return;
  for (const auto& c : q.candidates)
    for (const auto& id : inert_toggles(q.m, c))
      notes.push_back(fmt::format("note: {} is inert on this host (requires {}; none found) — it builds but cannot change what runs",
                                  id, fmt::join(q.m.toggle(id).requires_caps, ", ")));
}

// With a scenario nothing is built: each variant stands in as its arm, or as its seeded layouts.
void simulated_arms(const experiment_request& q, run_plan& plan) {
  const auto all = variants_of(q);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const arm_plan arm{all[i].key(q.m), all[i].levels, i == 0 ? "baseline" : "candidate", {}, {}, std::nullopt, {}, {}};
    if (q.evidence.layouts == 0) plan.arms.push_back(arm);
    for (auto& layout : seeded_layouts(arm, plan.seed, q.evidence.layouts)) plan.arms.push_back(std::move(layout));
  }
}

// Each variant built once per build key; a candidate with the baseline's programs is left out.
// Returns the outcome of each arm kept, by variant key, for its layouts.
std::map<std::string, const build_outcome*> build_variant_arms(const experiment_request& q, prepared_arms& p, db::results_store& store,
                                                       const builder& b, const experiment_context& ctx) {
  std::map<std::string, const build_outcome*> outcomes;
  const auto all = variants_of(q);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const variant part = build_part(all[i], q.m);
    auto found = p.builds.find(part.key(q.m));
    if (found == p.builds.end()) found = p.builds.emplace(part.key(q.m), build_and_record(q.m, all[i], store, b, ctx)).first;
    const recorded_build& built = found->second;
    if (!built.outcome.ok)  // the baseline failing is the project's problem, not a toggle's
      throw_build_failed(q.m, built.outcome, part.is_base() ? "the baseline itself does not build: fix the project's build (or "
                                                              "build.cmake_args / build.args in the manifest) and try `abtest build` "
                                                              "until it passes"
                                                            : "fix the build, or leave the toggle out");
    arm_plan arm = arm_for(q.m, all[i], built, i == 0 ? "baseline" : "candidate");
    if (i > 0 && !arm.binaries_digest.empty() && arm.binaries_digest == p.plan.arms[0].binaries_digest) {
      p.notes.push_back(fmt::format("note: {} and {} are the same program (identical binaries) — not measured; verdict SAME by "
                                    "construction", arm.key, p.plan.arms[0].key));
      continue;
    }
    outcomes[arm.key] = &built.outcome;
    p.plan.arms.push_back(std::move(arm));
  }
  return outcomes;
}

}  // namespace

void throw_build_failed(const manifest& m, const build_outcome& o, const std::string& fix) {
  const std::string what = o.missing_targets.empty()
                               ? fmt::format("the build of {} failed", o.key)
                               : fmt::format("the build of {} failed: {} defines no target {}", o.key, m.source_dir.string(),
                                             fmt::join(o.missing_targets, ", "));
  throw user_error(exit_code::build_failed, fmt::format("{} — last lines of {}:\n{}\n({})", what, o.log_path.string(), o.log_tail, fix));
}

prepared_arms prepare_arms(const experiment_request& q, run_plan plan, db::results_store& store, const builder& b,
                           const experiment_context& ctx) {
  prepared_arms p{std::move(plan), {}, {}};
  note_inert_toggles(q, p.notes);
  if (q.simulated()) {
    simulated_arms(q, p.plan);
    return p;
  }
  const auto outcomes = build_variant_arms(q, p, store, b, ctx);
  if (q.evidence.layouts > 0 && p.plan.arms.size() >= 2) {
    // Each variant that is measured becomes K arms, one per seeded relink of its programs.
    std::vector<arm_plan> arms;
    for (const auto& arm : p.plan.arms)
      for (auto& layout : layout_arms(q.m, p.plan, arm, *outcomes.at(arm.key), q.evidence.layouts, store, ctx))
        arms.push_back(std::move(layout));
    p.plan.arms = std::move(arms);
  }
  return p;
}

}  // namespace abtest
