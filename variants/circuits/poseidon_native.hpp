// Native Poseidon hash over Fr (arities 2, 8, 11): the reference for the gadget and the input trees.
#pragma once

#include <span>

#include "circuits/poseidon_params.hpp"
#include "ff/fr.hpp"

namespace zk::circuits {

// The permutation on [domain tag, inputs...]; the digest is state element 1 (neptune's convention).
fr poseidon_hash(std::span<const fr> inputs);

}  // namespace zk::circuits
