// When a regressed metric is back where it was (design §9.1).
#include "harness/alerts/recovery.hpp"

#include <cmath>

namespace abtest::alerts {

bool at_old_level(double before, double after, double now) {
  if (!(before > 0) || !(after > 0) || !(now > 0) || before == after) return false;
  const double x = std::log(now), b = std::log(before), a = std::log(after);
  return std::abs(x - b) < std::abs(x - a);
}

bool recovered(double before, double after, std::span<const double> latest) {
  if (latest.size() < static_cast<std::size_t>(recovery_nights)) return false;
  for (std::size_t i = latest.size() - recovery_nights; i < latest.size(); ++i)
    if (!at_old_level(before, after, latest[i])) return false;
  return true;
}

}  // namespace abtest::alerts
