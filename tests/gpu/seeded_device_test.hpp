// The fixture of the GPU = CPU tests: skipped without a device, else one fresh seed per test,
// recorded as a test property and printed so that a failure can be replayed.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>

#include "gpu/api.hpp"

namespace zk::gpu::testing {

class seeded_device_test : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!device_available(&why)) GTEST_SKIP() << why;
    RecordProperty("seed", std::to_string(seed));
    std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  }
  const uint64_t seed = std::random_device{}();
};

}  // namespace zk::gpu::testing
