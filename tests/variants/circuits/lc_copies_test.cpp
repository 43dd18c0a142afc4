// A1's mechanism in deterministic counts: one SHA-256 compression and one Poseidon hash synthesized
// into proving assignments with A1=0 (std::vector terms) and A1=4 (four inline terms). The gadgets
// build their combinations by value, as bellperson does, so A1=4 must allocate less (no heap block
// per small combination) and copy more terms (every move of an unspilled combination copies its
// inline terms) — the two sides of the +9 % the seed measured. The a/b/c vectors stay identical.
//
// Built with ZK_R1CS_COUNT_TERM_COPIES (indexer.hpp counts copied terms) and with global operator
// new replaced by a counting one — both only in this test program.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <vector>

#include "circuits/poseidon.hpp"
#include "circuits/sha256.hpp"
#include "r1cs/proving_assignment.hpp"

namespace {
size_t heap_allocations = 0;
}  // namespace

void* operator new(size_t n) {
  ++heap_allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
// GCC pairs the replaced new with free() and warns; the pair is malloc/free by construction.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }

namespace zk::circuits {
namespace {

struct counts {
  size_t allocations = 0, term_copies = 0;
  std::vector<fr> a, b, c;
};

template <size_t Cap>
counts synthesize_gadgets() {
  r1cs::proving_assignment<Cap> cs;
  cs.alloc_input(r1cs::detail::no_name, fr::one());
  std::vector<boolean> block;
  for (size_t i = 0; i < 512; ++i) block.push_back(boolean::alloc(cs, (i * 7 + i / 3) % 5 < 2));
  std::array<num, 8> leaves = {num::constant(fr::zero()), num::constant(fr::zero()), num::constant(fr::zero()),
                               num::constant(fr::zero()), num::constant(fr::zero()), num::constant(fr::zero()),
                               num::constant(fr::zero()), num::constant(fr::zero())};
  for (size_t i = 0; i < leaves.size(); ++i) leaves[i] = num::alloc(cs, fr::from_u64(1000 + i));

  const size_t allocations_before = heap_allocations;
  r1cs::term_copies = 0;
  sha256_compression(cs, sha256_iv_gadget(), std::span<const boolean, 512>(block.data(), 512));
  poseidon_hash(cs, std::span<const num>(leaves));
  counts out{heap_allocations - allocations_before, r1cs::term_copies, {}, {}, {}};
  out.a = std::move(cs.a), out.b = std::move(cs.b), out.c = std::move(cs.c);
  return out;
}

TEST(lc_copies, a1_inline_storage_allocates_less_and_copies_more_terms) {
  const counts heap = synthesize_gadgets<0>();
  const counts inline4 = synthesize_gadgets<4>();
  std::printf("A1=0: %zu allocations, %zu terms copied; A1=4: %zu allocations, %zu terms copied\n",
              heap.allocations, heap.term_copies, inline4.allocations, inline4.term_copies);
  EXPECT_EQ(inline4.a, heap.a);
  EXPECT_EQ(inline4.b, heap.b);
  EXPECT_EQ(inline4.c, heap.c);
  EXPECT_GT(heap.a.size(), 20000u) << "one compression and one hash are tens of thousands of rows";
  // Most combinations have at most four terms: inline storage spares their heap blocks…
  EXPECT_LT(inline4.allocations * 2, heap.allocations);
  // …and every by-value `+` on them copies what std::vector would hand over as three pointers.
  EXPECT_GT(inline4.term_copies, 3 * heap.term_copies);
  EXPECT_GT(inline4.term_copies, heap.a.size());
}

}  // namespace
}  // namespace zk::circuits
