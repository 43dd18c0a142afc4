// What `abtest build --matrix` builds and in which order: the variants of a design over the
// manifest's toggles, ordered so that each build changes as little as it can after the last.
//
//   for (const variant& v : reuse_order(design_variants(m, {"A1", "B1"}, "full"))) build(v);
#pragma once

#include <string>
#include <vector>

#include "harness/core/manifest.hpp"
#include "harness/core/variant.hpp"

namespace abtest {

// The variants of design `name` over the toggles `ids` (every toggle that changes the build when
// empty). `full` is every level of every toggle (4 levels of A1 × 2^4 = 64 for this repository's
// manifest); `half` and `oat` are the two-level designs of `abtest matrix` with each toggle at its
// `on` level. Usage errors: an env toggle named (it needs no build), no toggle to build, a design
// that does not fit.
std::vector<variant> design_variants(const manifest& m, const std::vector<std::string>& ids, const std::string& name);

// The number of toggles whose levels differ between two variants (a toggle off in one counts).
int toggle_distance(const variant& a, const variant& b);

// Nearest neighbour from base: each variant after the one it differs from least (ties: the smaller
// variant), so that a build changes as few toggle headers as it can after the last (the compiler
// cache makes any order correct; this one keeps each step's misses to what one toggle touches).
std::vector<variant> reuse_order(std::vector<variant> todo);

}  // namespace abtest
