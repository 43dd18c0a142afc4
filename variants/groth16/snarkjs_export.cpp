// snarkjs JSON writer for Groth16 over BLS12-381 (the layout of snarkjs's zkey_export_verificationkey
// and groth16_prove; curve name as ffjavascript's getCurveFromName accepts it).
#include "groth16/snarkjs_export.hpp"

#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace zk::groth16 {
namespace {

using nlohmann::json;

json g1_json(const g1_affine& p) {
  if (p.inf) return json::array({"0", "1", "0"});
  return json::array({p.x.to_decimal(), p.y.to_decimal(), "1"});
}

json g2_json(const g2_affine& p) {
  if (p.inf) return json::array({json::array({"0", "0"}), json::array({"1", "0"}), json::array({"0", "0"})});
  return json::array({json::array({p.x.c0.to_decimal(), p.x.c1.to_decimal()}),
                      json::array({p.y.c0.to_decimal(), p.y.c1.to_decimal()}), json::array({"1", "0"})});
}

void write_file(const std::filesystem::path& file, const std::string& text) {
  std::ofstream out(file);
  out << text << '\n';
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

}  // namespace

std::string snarkjs_verification_key_json(const verifying_key& vk) {
  json ic = json::array();
  for (const auto& p : vk.ic) ic.push_back(g1_json(p));
  const json j = {{"protocol", "groth16"},
                  {"curve", "bls12381"},
                  {"nPublic", vk.ic.size() - 1},
                  {"vk_alpha_1", g1_json(vk.alpha_g1)},
                  {"vk_beta_2", g2_json(vk.beta_g2)},
                  {"vk_gamma_2", g2_json(vk.gamma_g2)},
                  {"vk_delta_2", g2_json(vk.delta_g2)},
                  {"IC", ic}};
  return j.dump(1);
}

std::string snarkjs_proof_json(const proof& pr) {
  const json j = {{"pi_a", g1_json(pr.a)},
                  {"pi_b", g2_json(pr.b)},
                  {"pi_c", g1_json(pr.c)},
                  {"protocol", "groth16"},
                  {"curve", "bls12381"}};
  return j.dump(1);
}

std::string snarkjs_public_json(std::span<const fr> public_inputs) {
  json j = json::array();
  for (const fr& x : public_inputs) j.push_back(x.to_decimal());
  return j.dump(1);
}

void export_snarkjs(const std::filesystem::path& dir, const verifying_key& vk, const proof& pr,
                    std::span<const fr> public_inputs) {
  std::filesystem::create_directories(dir);
  write_file(dir / "verification_key.json", snarkjs_verification_key_json(vk));
  write_file(dir / "proof.json", snarkjs_proof_json(pr));
  write_file(dir / "public.json", snarkjs_public_json(public_inputs));
}

}  // namespace zk::groth16
