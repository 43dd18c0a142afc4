// The standard BLS12-381 generators of G1 and G2 (IETF draft-irtf-cfrg-pairing-friendly-curves §4.2.1).
#include <cstdint>
#include <string_view>

#include "ec/curves.hpp"

namespace zk {
namespace {

// 96 hex digits, big-endian → fp.
fp fp_from_hex(std::string_view hex) {
  uint64_t c[6] = {};
  for (size_t i = 0; i < hex.size(); ++i) {
    const char ch = hex[hex.size() - 1 - i];
    const uint64_t d = ch <= '9' ? static_cast<uint64_t>(ch - '0') : static_cast<uint64_t>(ch - 'a' + 10);
    c[i / 16] |= d << (4 * (i % 16));
  }
  return fp::from_canonical(c);
}

}  // namespace

g1_affine g1_generator() {
  static const g1_affine g{
      fp_from_hex("17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"),
      fp_from_hex("08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1"),
      false};
  return g;
}

g2_affine g2_generator() {
  static const g2_affine g{
      fp2{fp_from_hex("024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"),
          fp_from_hex("13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e")},
      fp2{fp_from_hex("0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801"),
          fp_from_hex("0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be")},
      false};
  return g;
}

}  // namespace zk
