// The arms of an experiment from its builds: the arm that measures a built variant, the digest that
// makes two arms the same program, and its seeded layouts, relinked and recorded (design §6).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "db/results_store.hpp"
#include "harness/builder/builder.hpp"
#include "harness/core/plan.hpp"
#include "harness/experiment/build_record.hpp"
#include "harness/experiment/context.hpp"

namespace abtest {

// The arm that measures `v` from its build: {bin}, the programs where the build put them, the
// environment of its `env` toggles, and the digest that makes two arms the same program.
arm_plan arm_for(const manifest& m, const variant& v, const recorded_build& b, std::string role = {});

// The digest of the programs an arm runs, as the build computes it over its binaries: each of the
// manifest's benchmark programs the arm has, `target=sha256`, then the arm's env (program_digest).
// `hashed`: sha256 of files already read, by path (a relinked program's is also its build row's).
std::string programs_digest(const manifest& m, const arm_plan& arm,
                            const std::map<std::filesystem::path, std::string>& hashed = {});

// `k` copies of `arm`, one per layout, with its index and seed (layout_seed of the experiment's seed
// and the arm's key): what a simulated run measures as layouts, and what layout_arms relinks.
std::vector<arm_plan> seeded_layouts(const arm_plan& arm, std::uint64_t experiment_seed, int k);

// Layout randomization (design §5, `--layouts`): `arm` (built by `o`) linked again `k` times with seeded section
// orders (harness/builder/layouts.hpp) — only the link repeats — as `k` arms of the same key whose
// programs are the relinked ones, each with its layout index and seed (from plan.seed and the key)
// and its own digest. The programs go to <build folder>/layouts/<seed of layout 0>/<k>/, so a resumed
// experiment finds them. Each layout is recorded in `store` as a build of its own (a link: its
// programs and hashes, `details.layout` = {of_build, index, seed}), which the arm then names, so the
// seeds are stored with the builds. Reports the links to `ctx`; throws user_error (exit 2) with what
// to do when the build cannot be relinked (no lld, not Ninja, no link step).
std::vector<arm_plan> layout_arms(const manifest& m, const run_plan& plan, const arm_plan& arm, const build_outcome& o,
                                  int k, db::results_store& store, const experiment_context& ctx);

// The layout arms of the arms one search built, linked once per (arm key, seed) through layout_arms:
// the relinker that bisect's arm providers (variant_arms, and commit_arms for commits) hand
// experiment_oracle, so that every comparison a variant is in reuses its links.
class relink_cache {
 public:
  relink_cache(db::results_store& store, experiment_context ctx) : store_(store), ctx_(std::move(ctx)) {}
  // What the arm keyed `key` was built from; `m` must outlive the cache.
  void built(const std::string& key, const manifest& m, build_outcome o);
  // The `k` layout arms of `arm` (built(arm.key, …) first): linked on the first call for
  // (arm.key, plan.seed), the same arms after. Throws std::logic_error for an arm never built.
  std::vector<arm_plan> layouts(const run_plan& plan, const arm_plan& arm, int k);

 private:
  db::results_store& store_;
  experiment_context ctx_;
  std::map<std::string, std::pair<const manifest*, build_outcome>> built_;
  std::map<std::pair<std::string, std::uint64_t>, std::vector<arm_plan>> links_;
};

}  // namespace abtest
