// A Groth16 proof: A, C in G1 and B in G2.
#pragma once

#include "ec/curves.hpp"

namespace zk::groth16 {

struct proof {
  g1_affine a;
  g2_affine b;
  g1_affine c;
};

}  // namespace zk::groth16
