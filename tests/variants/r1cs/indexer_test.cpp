// indexer: terms stay sorted and merged on every insertion path, against a std::map reference.
#include "r1cs/indexer.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace zk::r1cs {
namespace {

template <class T>
class indexer_test : public ::testing::Test {};
using caps = ::testing::Types<std::integral_constant<size_t, 0>, std::integral_constant<size_t, 1>,
                              std::integral_constant<size_t, 2>, std::integral_constant<size_t, 4>>;
TYPED_TEST_SUITE(indexer_test, caps);

TYPED_TEST(indexer_test, matches_a_sorted_map_on_random_insertions) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (int rep = 0; rep < 200; ++rep) {
    indexer<TypeParam::value> ix;
    std::map<uint32_t, fr> ref;
    uint32_t key = static_cast<uint32_t>(rng() % 50);
    const int n = static_cast<int>(rng() % 30);
    for (int i = 0; i < n; ++i) {
      switch (rng() % 3) {  // same key, next key (append), or anywhere
        case 0: break;
        case 1: ++key; break;
        default: key = static_cast<uint32_t>(rng() % 50);
      }
      const fr c = fr::from_u64(rng() % 7);
      ix.add(key, c);
      ref[key] += c;
    }
    ASSERT_EQ(ix.size(), ref.size());
    auto it = ref.begin();
    for (const auto& t : ix) {
      ASSERT_EQ(t.index, it->first);
      ASSERT_EQ(t.coeff, it->second);
      ++it;
    }
  }
}

TEST(indexer, inline_capacity_sets_the_storage_and_its_size) {
  static_assert(std::is_same_v<indexer<0>::storage, std::vector<indexed_term>>);
  static_assert(std::is_same_v<indexer<4>::storage, boost::container::small_vector<indexed_term, 4>>);
  // A1's mechanism: each inline slot is a whole 40-byte term inside every indexer.
  EXPECT_LT(sizeof(indexer<0>), sizeof(indexer<1>));
  EXPECT_LT(sizeof(indexer<1>), sizeof(indexer<2>));
  EXPECT_LT(sizeof(indexer<2>), sizeof(indexer<4>));
  EXPECT_GE(sizeof(indexer<4>) - sizeof(indexer<2>), 2 * sizeof(indexed_term));
}

}  // namespace
}  // namespace zk::r1cs
