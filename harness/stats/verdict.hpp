// The speed verdict of a comparison (design §7): SLOWER / FASTER / SAME / INCONCLUSIVE / INVALID.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "harness/stats/estimate.hpp"
#include "harness/stats/metric_policy.hpp"

namespace abtest::stats {

enum class verdict { slower, faster, same, inconclusive, invalid };

// "slower", "faster", "same", "inconclusive", "invalid" — the spelling of the --json contract (§9).
std::string_view to_string(verdict v);
std::optional<verdict> parse_verdict(std::string_view text);

// Default practical margin δ: 1%.
inline constexpr double default_margin = 0.01;

struct verdict_result {
  verdict value = verdict::inconclusive;
  bool immaterial = false;  // slower/faster, but |estimate| < ln(1 + δ)
};

// The rule, on the log-scale CI [low, high] and margin δ (relative, e.g. 0.01):
// SLOWER if low > 0; FASTER if high < 0; SAME if −ln(1+δ) ≤ low and high ≤ ln(1+δ); else INCONCLUSIVE.
// A slower/faster result whose |estimate| < ln(1+δ) is flagged immaterial. An estimate without a CI
// is inconclusive. Never returns verdict::invalid: that is the caller's call when a variant fails its
// correctness checks (design §4), and it then reports no speed verdict at all.
//
// Which way is worse (metric_policy.hpp): times, sizes and counts are better lower; rates (items per
// second, MB/s) are better higher, and for them the rule is mirrored — a rate whose CI lies above 1
// is FASTER (better), one below it SLOWER (worse).
verdict_result decide(const log_estimate& e, double margin = default_margin, better direction = better::lower);

// Which way a metric is better from its name alone (infer_better, design §4), lower when it says
// nothing. The manifest can say otherwise: where a plan is at hand, resolve_policy decides.
better better_for(std::string_view metric);

// The way a verdict points on the log scale: +1 when the candidate's value is higher than the
// baseline's (SLOWER of a time, FASTER of a rate), −1 when lower. SAME, INCONCLUSIVE and INVALID
// point nowhere; for them this is the way of a regression (+1 when better is lower, −1 for a rate),
// the way a bisection looks. A term of a bisection is a culprit when its effect has this sign.
int log_direction(verdict v, better direction);

// How a verdict reads for a metric (design §4): a time (`_s`, better lower) is SLOWER / FASTER; any
// other metric reads as the way it moved and whether that is better: a size (`maxrss_mib`) or count,
// better lower, HIGHER (worse) / LOWER (better); a rate or a metric declared `better: higher`
// (`items_per_second`, MB/s) LOWER (worse) / HIGHER (better). SAME, INCONCLUSIVE and INVALID read as
// they are. The --json `verdict` keeps the contract's spelling (to_string) for every metric.
std::string verdict_label(std::string_view metric, verdict v, better direction);
// The direction from the name alone (better_for): for callers that hold no plan or stored policy.
std::string verdict_label(std::string_view metric, verdict v);

// A deterministic count of `abtest run --counts` (design §6), `<bench>.counts.<name>` (e.g.
// synth.counts.Ir): compared exactly from one Valgrind run per arm — no CI, no p-value — and kept
// out of the Holm family, the regressions and the exit code of the timings.
bool is_count_metric(std::string_view metric);

}  // namespace abtest::stats
