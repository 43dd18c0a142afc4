// The largest log2 size the GPU = CPU tests reach: ABTEST_GPU_TEST_MAX_LG (the device pack runs 20,
// the sanitizers 6), else the given default.
#pragma once

#include <cstdlib>
#include <string>

namespace zk::gpu::testing {

inline unsigned max_lg(unsigned fallback) {
  const char* env = std::getenv("ABTEST_GPU_TEST_MAX_LG");
  if (env == nullptr || *env == '\0') return fallback;
  const unsigned long v = std::strtoul(env, nullptr, 10);
  return v > 26 ? 26u : static_cast<unsigned>(v);
}

}  // namespace zk::gpu::testing
