// Test helper for the manifest suites: the error text a rejected manifest gives.
#pragma once

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "harness/core/errors.hpp"
#include "harness/core/manifest.hpp"

namespace abtest::test {

// Parses `doc` and returns the error text; fails the test when it parses or exits other than usage.
inline std::string manifest_error_of(const nlohmann::json& doc) {
  try {
    parse_manifest(doc.dump(), "/p/abtest.json");
  } catch (const user_error& e) {
    EXPECT_EQ(e.code(), exit_code::usage);
    return e.what();
  }
  ADD_FAILURE() << "manifest was accepted: " << doc.dump();
  return {};
}

}  // namespace abtest::test
