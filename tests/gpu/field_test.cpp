// The device's Fp (gpu/ff/mont32.hpp) on the device: the PTX product equals the portable one there,
// and every operation equals the host's 64-bit path (field_self_test); skipped without a device.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "gpu/api.hpp"

namespace zk::gpu {
namespace {

TEST(gpu_field, ptx_and_portable_products_equal_the_host_on_the_device) {
  std::string why;
  if (!device_available(&why)) GTEST_SKIP() << why;
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  field_check_report rep;
  const status st = field_self_test(1 << 16, seed, &rep);
  ASSERT_TRUE(st.ok()) << to_string(st.code) << ": " << st.message;
  EXPECT_GT(rep.inputs, size_t{1} << 16) << "the random pairs and the edge values";
  EXPECT_EQ(rep.mismatches, 0u) << rep.first;
}

TEST(gpu_field, bench_times_both_fields_and_both_operations) {
  std::string why;
  if (!device_available(&why)) GTEST_SKIP() << why;
  std::vector<field_bench_row> rows;
  const status st = field_bench(&rows);
  ASSERT_TRUE(st.ok()) << to_string(st.code) << ": " << st.message;
  ASSERT_EQ(rows.size(), 4u);
  for (const field_bench_row& r : rows) {
    EXPECT_TRUE(r.field == "mont32" || r.field == "mont64") << r.field;
    EXPECT_TRUE(r.op == "mul" || r.op == "sqr") << r.op;
    EXPECT_GT(r.ops_per_s, 0) << r.field << " " << r.op;
    EXPECT_GT(r.latency_ns, 0) << r.field << " " << r.op;
  }
}

}  // namespace
}  // namespace zk::gpu
