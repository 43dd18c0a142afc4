// When a regressed metric is back where it was: the rule that closes an alert as fixed (design §9.1).
#pragma once

#include <span>

namespace abtest::alerts {

// How many of the latest nights must read at the old level before an alert closes as fixed: one
// night can be noise (an outlier the screen let through, a busy machine), two in a row rarely are.
inline constexpr int recovery_nights = 2;

// True when `now` is nearer to the level before the change than to the level after it, on the log
// scale (the midpoint rule: a level that has come back more than half-way has come back — a
// regression partly undone stays open). Levels are medians in the metric's unit, all > 0; false
// when one is not, or when before == after (there was no change to undo).
bool at_old_level(double before, double after, double now);

// True when each of the last `recovery_nights` values of `latest` (oldest first, the nights after
// the change) is at the old level; false with fewer nights.
bool recovered(double before, double after, std::span<const double> latest);

}  // namespace abtest::alerts
