// Independent oracles (tests/oracles): snarkjs verifies our exported proof and rejects a tampered
// one; @noble/curves agrees with our G1/G2 operations, encodings and pairing. Skipped without
// tests/oracles/node_modules (install: npm ci --prefix tests/oracles).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include "ec/serialize.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/snarkjs_export.hpp"
#include "pairing/pairing.hpp"
#include "test_circuits.hpp"

namespace zk::groth16 {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const fs::path oracles = ABTEST_ORACLES_DIR;

struct run_result {
  int status;
  std::string output;
};

// Runs a shell command line built only from our own paths; returns exit status and output.
run_result run(const std::string& cmd) {
  run_result r{-1, {}};
  std::FILE* pipe = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  const int st = ::pclose(pipe);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

class oracle_test : public ::testing::Test {
 protected:
  fs::path dir;
  void SetUp() override {
    if (!fs::exists(oracles / "node_modules" / "snarkjs") || !fs::exists(oracles / "node_modules" / "@noble" / "curves"))
      GTEST_SKIP() << "tests/oracles/node_modules is missing — run `npm ci --prefix tests/oracles`";
    if (run("node --version").status != 0) GTEST_SKIP() << "node is not installed";
    dir = fs::temp_directory_path() / ("zk_oracle_" + std::to_string(::getpid()) + "_" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override {
    if (!dir.empty()) fs::remove_all(dir);
  }
  run_result snarkjs_verify(const fs::path& d) {
    return run("node '" + (oracles / "node_modules/snarkjs/build/cli.cjs").string() + "' groth16 verify '" +
               (d / "verification_key.json").string() + "' '" + (d / "public.json").string() + "' '" +
               (d / "proof.json").string() + "'");
  }
};

TEST_F(oracle_test, snarkjs_accepts_our_tiny_proof_and_rejects_a_tampered_one) {
  const testing::chain_circuit c{fr::from_u64(3), 20, 2};
  const parameters p = setup(c, 1);
  const auto pa = testing::synthesize_one(c);
  const assignment_view v = view_of(pa);
  std::mt19937_64 rng(7);
  const proof pr = prove_batch(p, std::span(&v, 1), rng)[0];
  const auto pub = testing::public_of(pa);
  export_snarkjs(dir, p.vk, pr, pub);
  const run_result good = snarkjs_verify(dir);
  EXPECT_EQ(good.status, 0) << good.output;
  EXPECT_NE(good.output.find("OK"), std::string::npos) << good.output;

  // The same proof against a changed public input, and a proof with A and C swapped.
  std::vector<fr> other = pub;
  other[0] += fr::one();
  std::ofstream(dir / "public.json") << snarkjs_public_json(other);
  const run_result bad_input = snarkjs_verify(dir);
  EXPECT_NE(bad_input.status, 0) << bad_input.output;
  std::ofstream(dir / "public.json") << snarkjs_public_json(pub);
  std::ofstream(dir / "proof.json") << snarkjs_proof_json({pr.c, pr.b, pr.a});
  const run_result bad_proof = snarkjs_verify(dir);
  EXPECT_NE(bad_proof.status, 0) << bad_proof.output;
}

template <size_t N>
std::string hex(const std::array<uint8_t, N>& b) {
  static constexpr char digit[] = "0123456789abcdef";
  std::string s;
  for (uint8_t v : b) s += {digit[v >> 4], digit[v & 15]};
  return s;
}

// json::array throughout: a braced list of two-string lists would become an object.
json point_json(const g1_affine& p) { return json::array({p.x.to_decimal(), p.y.to_decimal()}); }
json point_json(const g2_affine& p) {
  return json::array({json::array({p.x.c0.to_decimal(), p.x.c1.to_decimal()}),
                      json::array({p.y.c0.to_decimal(), p.y.c1.to_decimal()})});
}

template <class A, class Encode, class EncodeU>
json group_results(std::mt19937_64& rng, const A& gen, Encode compressed, EncodeU uncompressed) {
  using J = jacobian_t<typename A::field, typename A::curve>;
  const fr a = fr::random(rng), b = fr::random(rng), k = fr::random(rng);
  uint64_t ka[4], kb[4], kk[4];
  a.to_canonical(ka);
  b.to_canonical(kb);
  k.to_canonical(kk);
  const J p = scalar_mul(J::from_affine(gen), ka, 4), q = scalar_mul(J::from_affine(gen), kb, 4);
  return {{"a", a.to_decimal()},
          {"b", b.to_decimal()},
          {"k", k.to_decimal()},
          {"p", point_json(p.to_affine())},
          {"q", point_json(q.to_affine())},
          {"sum", point_json((p + q).to_affine())},
          {"dbl", point_json(p.dbl().to_affine())},
          {"kp", point_json(scalar_mul(p, kk, 4).to_affine())},
          {"p_compressed", hex(compressed(p.to_affine()))},
          {"p_uncompressed", hex(uncompressed(p.to_affine()))}};
}

TEST_F(oracle_test, noble_curves_agrees_on_group_operations_encodings_and_pairing) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  json results;
  results["g1"] = group_results(rng, g1_generator(), g1_to_compressed, g1_to_uncompressed);
  results["g2"] = group_results(rng, g2_generator(), g2_to_compressed, g2_to_uncompressed);
  const fr a = fr::random(rng), b = fr::random(rng);
  uint64_t ka[4], kb[4];
  a.to_canonical(ka);
  b.to_canonical(kb);
  const fp12 e = pairing(scalar_mul(g1_jacobian::from_affine(g1_generator()), ka, 4).to_affine(),
                         scalar_mul(g2_jacobian::from_affine(g2_generator()), kb, 4).to_affine());
  json value = json::array();
  for (const fp6* c6 : {&e.c0, &e.c1})
    for (const fp2* c2 : {&c6->c0, &c6->c1, &c6->c2}) {
      value.push_back(c2->c0.to_decimal());
      value.push_back(c2->c1.to_decimal());
    }
  results["pairing"] = {{"a", a.to_decimal()}, {"b", b.to_decimal()}, {"value", value}};
  std::ofstream(dir / "results.json") << results.dump();

  const run_result r = run("cd '" + oracles.string() + "' && node noble_check.cjs '" + (dir / "results.json").string() + "'");
  EXPECT_EQ(r.status, 0) << r.output;
  const json verdict = json::parse(r.output, nullptr, false);
  ASSERT_FALSE(verdict.is_discarded()) << r.output;
  EXPECT_TRUE(verdict["ok"].get<bool>()) << r.output;
  EXPECT_EQ(verdict["checks"], 15);
  RecordProperty("pairing_relation", verdict["pairing_relation"].get<std::string>());
}

}  // namespace
}  // namespace zk::groth16
