// A working copy of tests/fixtures/planted for tests that build it through `abtest`, so the source
// tree is never written. The copy persists in the test build folder, so variant builds stay warm
// between test processes (tests using it share a ctest RESOURCE_LOCK).
#pragma once

#include <filesystem>

namespace abtest::test {

// Copies the fixture (only files newer than the copy's, so unchanged sources keep their mtimes
// and the variant builds stay incremental) and returns the copy's manifest.
inline std::filesystem::path planted_manifest() {
  namespace fs = std::filesystem;
  const fs::path source = ABTEST_PLANTED_SOURCE_DIR;
  const fs::path copy = ABTEST_PLANTED_WORK_DIR;
  fs::create_directories(copy);
  fs::copy(source, copy, fs::copy_options::recursive | fs::copy_options::update_existing);
  return copy / "abtest.json";
}

}  // namespace abtest::test
