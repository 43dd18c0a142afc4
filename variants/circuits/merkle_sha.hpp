// Binary SHA-256 Merkle path gadget (comm_d): conditional swap by the index bit, then SHA-256 of
// left ‖ right (two compressions) truncated to 254 bits, per level.
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "circuits/domain_bits.hpp"
#include "circuits/sha256.hpp"

namespace zk::circuits {

// (left, right) = bit ? (y, x) : (x, y), two constraints per pair: (y − x)·b = l − x, (x − y)·b = r − y.
template <r1cs::constraint_system CS>
std::pair<std::vector<boolean>, std::vector<boolean>> conditional_swap(CS& cs, const boolean& bit,
                                                                       std::span<const boolean> x,
                                                                       std::span<const boolean> y) {
  using lc = typename CS::lc;
  std::vector<boolean> left(x.size()), right(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i].is_constant() && y[i].is_constant() && x[i].value() == y[i].value()) {
      left[i] = right[i] = x[i];
      continue;
    }
    const bool lv = bit.value() ? y[i].value() : x[i].value();
    const bool rv = bit.value() ? x[i].value() : y[i].value();
    const lc xl = x[i].template lc<lc>(fr::one()), yl = y[i].template lc<lc>(fr::one());
    const variable l = cs.alloc([] { return "left"; }, lv ? fr::one() : fr::zero());
    r1cs::enforce(
        cs, [] { return "left"; }, [&](lc z) { return std::move(z) + yl - xl; },
        [&](lc z) { return std::move(z) + bit.lc<lc>(fr::one()); }, [&](lc z) { return std::move(z) + l - xl; });
    const variable r = cs.alloc([] { return "right"; }, rv ? fr::one() : fr::zero());
    r1cs::enforce(
        cs, [] { return "right"; }, [&](lc z) { return std::move(z) + xl - yl; },
        [&](lc z) { return std::move(z) + bit.lc<lc>(fr::one()); }, [&](lc z) { return std::move(z) + r - yl; });
    left[i] = boolean::is({l, lv});
    right[i] = boolean::is({r, rv});
  }
  return {std::move(left), std::move(right)};
}

// The root's 256 SHA-order bits; index_bits[level] = 1 when the running node is a right child.
template <r1cs::constraint_system CS>
std::vector<boolean> sha_merkle_root(CS& cs, std::vector<boolean> leaf, std::span<const fr> siblings,
                                     std::span<const boolean> index_bits) {
  std::vector<boolean> cur = std::move(leaf);
  for (size_t level = 0; level < siblings.size(); ++level) {
    r1cs::namespace_guard ns(cs, [level] { return "sha level " + std::to_string(level); });
    const std::vector<boolean> sib = alloc_domain_bits(cs, siblings[level]);
    auto [left, right] = conditional_swap(cs, index_bits[level], cur, sib);
    left.insert(left.end(), right.begin(), right.end());
    cur = truncate_digest(sha256(cs, left));
  }
  return cur;
}

}  // namespace zk::circuits
