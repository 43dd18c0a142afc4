// Export of a verifying key, a proof and public inputs in snarkjs's JSON format (curve bls12381),
// so that `snarkjs groth16 verify verification_key.json public.json proof.json` can check them.
//
// Field elements are decimal strings; G1 points [x, y, "1"], G2 points [[x.c0, x.c1], [y.c0, y.c1],
// ["1", "0"]] (ffjavascript's fromObject), the identity with z = 0.
#pragma once

#include <filesystem>
#include <span>
#include <string>

#include "ff/fr.hpp"
#include "groth16/parameters.hpp"
#include "groth16/proof.hpp"

namespace zk::groth16 {

std::string snarkjs_verification_key_json(const verifying_key& vk);
std::string snarkjs_proof_json(const proof& pr);
std::string snarkjs_public_json(std::span<const fr> public_inputs);

// Writes verification_key.json, proof.json and public.json into dir (created if missing).
// Throws std::runtime_error when a file cannot be written.
void export_snarkjs(const std::filesystem::path& dir, const verifying_key& vk, const proof& pr,
                    std::span<const fr> public_inputs);

}  // namespace zk::groth16
