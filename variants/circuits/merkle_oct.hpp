// Arity-8 Poseidon Merkle path gadget (comm_c, comm_r_last): the running node is inserted among its
// seven siblings at the position given by three index bits, then the eight children are hashed.
#pragma once

#include <array>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "circuits/poseidon.hpp"

namespace zk::circuits {

// children[k] = k == pos ? cur : (k < pos ? sib[k] : sib[k − 1]). With e_k = [pos = k] (12 products
// of the bits) and lt_k = [k < pos] = Σ_{j>k} e_j (linear), child_k = B + e_k(cur − B) + lt_k(A − B)
// for A = sib[k], B = sib[k − 1]: two constraints per child.
template <r1cs::constraint_system CS>
std::array<num, 8> insert_8(CS& cs, const num& cur, std::span<const num, 7> sib, std::span<const boolean, 3> pos) {
  using lc = typename CS::lc;
  const auto lit = [](const boolean& b, bool v) { return v ? b : !b; };
  std::array<boolean, 4> low;
  for (size_t v = 0; v < 4; ++v) low[v] = boolean::and_(cs, lit(pos[0], v & 1), lit(pos[1], v & 2));
  std::array<boolean, 8> e;
  for (size_t k = 0; k < 8; ++k) e[k] = boolean::and_(cs, low[k & 3], lit(pos[2], k & 4));
  const size_t p = pos[0].value() + 2 * pos[1].value() + 4 * pos[2].value();
  const num zero = num::constant(fr::zero());
  std::array<num, 8> children = {zero, zero, zero, zero, zero, zero, zero, zero};
  for (size_t k = 0; k < 8; ++k) {
    const num& a = k < 7 ? sib[k] : zero;
    const num& b = k > 0 ? sib[k - 1] : zero;
    const fr uv = e[k].value() ? cur.value() - b.value() : fr::zero();
    const variable u = cs.alloc([] { return "u"; }, uv);
    r1cs::enforce(
        cs, [] { return "u"; }, [&](lc z) { return std::move(z) + cur.lc<lc>() - b.lc<lc>(); },
        [&](lc z) { return std::move(z) + e[k].lc<lc>(fr::one()); }, [&](lc z) { return std::move(z) + u; });
    lc lt = lc::zero();
    for (size_t j = k + 1; j < 8; ++j) lt = std::move(lt) + e[j].lc<lc>(fr::one());
    const fr cv = k == p ? cur.value() : (k < p ? a.value() : b.value());
    const num child = num::alloc(cs, cv);
    r1cs::enforce(
        cs, [] { return "child"; }, [&](lc) { return std::move(lt); },
        [&](lc z) { return std::move(z) + a.lc<lc>() - b.lc<lc>(); },
        [&](lc z) { return std::move(z) + child.lc<lc>() - b.lc<lc>() - u; });
    children[k] = child;
  }
  return children;
}

// The root; index_bits holds three bits per level, least significant first.
template <r1cs::constraint_system CS>
num oct_merkle_root(CS& cs, const num& leaf, const std::vector<std::vector<fr>>& siblings,
                    std::span<const boolean> index_bits) {
  num cur = leaf;
  for (size_t level = 0; level < siblings.size(); ++level) {
    r1cs::namespace_guard ns(cs, [level] { return "oct level " + std::to_string(level); });
    std::array<num, 7> sib = {cur, cur, cur, cur, cur, cur, cur};
    for (size_t k = 0; k < 7; ++k) sib[k] = num::alloc(cs, siblings[level][k]);
    const auto children = insert_8(cs, cur, std::span<const num, 7>(sib),
                                   std::span<const boolean, 3>(index_bits.subspan(3 * level, 3)));
    cur = poseidon_hash(cs, std::span<const num>(children));
  }
  return cur;
}

}  // namespace zk::circuits
