// Test helper: a build row as the builder records it, for tests that price or pick recorded builds.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "db/records.hpp"

namespace abtest::test {

// `configured`: the build configured a fresh folder (details.configured), as a new variant's does.
inline db::build_record build_row(const std::filesystem::path& dir, const std::string& key, double seconds,
                                  db::build_status status, std::int64_t machine, bool configured) {
  db::build_record b;
  b.variant = key;
  b.source_dir = dir.string();
  b.build_dir = (dir / key).string();
  b.duration_s = seconds;
  b.status = status;
  b.machine_id = machine;
  if (configured) b.details["configured"] = true;
  return b;
}

}  // namespace abtest::test
