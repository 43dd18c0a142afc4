// Sample-size planning: rounds needed to detect a relative effect.
#pragma once

namespace abtest::stats {

// n = ⌈(z_{1−α/2} + z_{power})² σ_d² / ln(1 + e)²⌉ paired rounds to detect a relative effect e
// (0.03 = 3%) when the per-round log difference has sd σ_d (design §7; the normal-approximation
// sample size of a two-sided one-sample test, e.g. Chow, Shao & Wang 2008 §3.1). At least 2, the
// fewest that give a CI. Throws std::invalid_argument unless e > −1, e ≠ 0, σ_d ≥ 0, α and power in (0, 1).
int rounds_needed(double relative_effect, double sd_d, double alpha = 0.05, double power = 0.8);

// A variance measured on `df` degrees of freedom, at its one-sided upper confidence bound:
// variance · df / χ²_{1−confidence}(df), since the sample variance is σ²·χ²_df/df. Planning from it
// keeps a low draw of a few rounds from leaving a design short of power or a sequence overconfident.
double variance_upper_bound(double variance, double df, double confidence);

}  // namespace abtest::stats
