// db ids: random UUIDs and the short, sortable experiment ids ("r-20261202-154501-3f2a").
#pragma once

#include <string>

#include "db/records.hpp"

namespace abtest::db {

/// A random (version 4) UUID in its usual 36-character text form.
std::string new_uuid();

/// "<k>-<YYYYMMDD>-<HHMMSS>-<4 hex>" in UTC, k = r(un), m(atrix), b(isect), n(ightly),
/// f (noise-floor), c(heck): short enough to type, sorts by time, random tail against collisions.
std::string new_experiment_id(experiment_kind kind, time_point started_at);

}  // namespace abtest::db
