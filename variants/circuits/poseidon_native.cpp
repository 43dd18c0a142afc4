// Native Poseidon (HADES design): full rounds S-box every element, partial rounds only element 0.
#include "circuits/poseidon_native.hpp"

#include <vector>

namespace zk::circuits {

fr poseidon_hash(std::span<const fr> inputs) {
  const poseidon_params& p = poseidon_params_for(inputs.size());
  const size_t t = p.width;
  std::vector<fr> state(t), next(t);
  state[0] = p.domain_tag();
  for (size_t i = 0; i < inputs.size(); ++i) state[i + 1] = inputs[i];
  for (size_t r = 0; r < p.rounds(); ++r) {
    for (size_t i = 0; i < t; ++i) state[i] += p.rc(r, i);
    const size_t sboxes = p.is_full_round(r) ? t : 1;
    for (size_t i = 0; i < sboxes; ++i) {
      const fr x2 = state[i].sqr();
      state[i] *= x2.sqr();  // x⁵ = x · (x²)²
    }
    for (size_t i = 0; i < t; ++i) {
      fr acc = fr::zero();
      for (size_t j = 0; j < t; ++j) acc += p.m(i, j) * state[j];
      next[i] = acc;
    }
    state.swap(next);
  }
  return state[1];
}

}  // namespace zk::circuits
