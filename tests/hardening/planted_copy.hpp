// A working copy of tests/fixtures/planted for tests that build it through `abtest`, so the source
// tree is never written. The shared copy persists in the test build folder, so variant builds stay
// warm between test processes (tests using it share a ctest RESOURCE_LOCK).
#pragma once

#include <filesystem>

namespace abtest::test {

// Copies the fixture's sources into `dest`, leaving out any `.abtest/` state folder a run from the
// source tree left behind (its build folders belong to that path). `update_existing` copies only
// files newer than the copy's, so unchanged sources keep their mtimes and builds stay incremental.
inline void copy_planted_sources(const std::filesystem::path& dest) {
  namespace fs = std::filesystem;
  fs::create_directories(dest);
  for (const auto& entry : fs::directory_iterator(ABTEST_PLANTED_SOURCE_DIR)) {
    if (entry.path().filename() == ".abtest") continue;
    fs::copy(entry.path(), dest / entry.path().filename(),
             fs::copy_options::recursive | fs::copy_options::update_existing);
  }
}

// The shared, warm copy's manifest.
inline std::filesystem::path planted_manifest() {
  copy_planted_sources(ABTEST_PLANTED_WORK_DIR);
  return std::filesystem::path(ABTEST_PLANTED_WORK_DIR) / "abtest.json";
}

}  // namespace abtest::test
