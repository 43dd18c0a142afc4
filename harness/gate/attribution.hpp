// The defaults a change flipped, and what putting each back does (design §5): the head built again
// with one flipped toggle at the base's level, timed beside the base and the head in one experiment,
// so that a comment can say "slower 1.08×; reverting FX_X2's default alone gives 1.00×".
//
//   gate::flip_attribution a;                       // filled by `abtest pr` once a change is confirmed
//   a.reverted.push_back({"FX_X2", "OFF", "defaults+FX_X2=OFF@…", {m}});
//   gate::reverted_text(a.reverted[0], head_row(a, m))    // "reverting FX_X2's default alone gives 1.0000× …"
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "harness/builder/resolved_toggles.hpp"
#include "harness/gate/confirmation.hpp"

namespace abtest::gate {

// The head with one flipped toggle put back, measured against the base.
struct reverted_default {
  std::string toggle, level;            // the toggle and the base's level it was built with
  std::string arm;                      // the arm's key; empty when the head did not build so
  std::vector<metric_result> metrics;   // against the base, per confirmed metric
};

struct flip_attribution {
  experiment_outcome experiment;        // its `metrics`: the head against the base, in the same rounds
  std::vector<reverted_default> reverted;
  std::vector<std::string> notes;       // a flip that could not be put back, and why
};

// How much of a confirmed move of `head.metric` (the head against the base) the flip of `r.toggle`
// explains: the head with the old default reads the same as the base (accounts); it is undecided,
// but its CI leaves out the head's ratio on the base's side (most); it still moves (not_alone);
// unknown when the attribution did not measure it or its CI holds the head's ratio too.
enum class flip_share { accounts, most, not_alone, unknown };
flip_share share_of(const reverted_default& r, const metric_result& head);
const char* to_string(flip_share s);

// "reverting FX_X2's default alone gives 1.0000× [0.9990, 1.0010] (SAME): the flip accounts for it"
std::string reverted_text(const reverted_default& r, const metric_result& head);

// The head's row of `metric` in the attribution's own experiment (the same rounds as the reverted
// builds), else `fallback`.
const metric_result& head_row(const flip_attribution& a, const metric_result& fallback);

// `abtest pr --json`'s "attribution" (docs/design.md §9.2); its "defaults_changed" is
// builder/resolved_toggles.hpp's to_json of the flips.
nlohmann::json to_json(const flip_attribution& a);

}  // namespace abtest::gate
