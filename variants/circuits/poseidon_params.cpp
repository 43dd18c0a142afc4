// Generates Poseidon parameters: round numbers from the paper's inequalities, constants, Cauchy MDS.
#include "circuits/poseidon_params.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "circuits/sha256_native.hpp"

namespace zk::circuits {
namespace {

constexpr double security_bits = 128;  // M
constexpr double alpha = 5;            // the S-box x⁵ (gcd(5, r − 1) = 1 for BLS12-381 Fr)
const double field_bits = std::log2(5.2435875175126190479e76);  // log2 r ≈ 254.86

double log_base(double x, double base) { return std::log(x) / std::log(base); }

// Grassi, Khovratovich, Rechberger, Roy, Schofnegger, "Poseidon: A New Hash Function for
// Zero-Knowledge Proof Systems", USENIX Security 2021, §5.5.1–5.5.2 (statistical, interpolation and
// three Gröbner-basis bounds), in the form of the reference script calc_round_numbers.py.
bool is_secure(double t, double rf, double rp) {
  const double m = security_bits;
  const double rf1 = m <= std::floor(field_bits - (alpha - 1) / 2.0) * (t + 1) ? 6 : 10;
  const double rf2 = 1 + std::ceil(log_base(2, alpha) * std::min(m, std::floor(field_bits) + 1)) +
                     std::ceil(log_base(t, alpha)) - rp;
  const double rf3 = log_base(2, alpha) * std::min(m, field_bits) - rp;
  const double rf4 = t - 1 + log_base(2, alpha) * std::min(m / (t + 1), field_bits / 2) - rp;
  const double rf5 = (t - 2 + m / (2 * std::log2(alpha)) - rp) / (t - 1);
  const double need = std::max({std::ceil(rf1), std::ceil(rf2), std::ceil(rf3), std::ceil(rf4), std::ceil(rf5)});
  return rf >= need;
}

// SHA-256(domain ‖ counter) read big-endian with the top bit cleared, until below r.
fr hash_to_fr(const std::string& domain, uint64_t index) {
  for (uint64_t attempt = 0;; ++attempt) {
    std::string msg = domain + "/" + std::to_string(index) + "/" + std::to_string(attempt);
    sha256_digest d = sha256({reinterpret_cast<const uint8_t*>(msg.data()), msg.size()});
    d[0] &= 0x7f;
    if (auto x = fr::from_bytes_be(d)) return *x;
  }
}

poseidon_params generate(size_t arity) {
  poseidon_params p;
  p.width = arity + 1;
  const round_numbers rn = poseidon_round_numbers(p.width);
  p.full_rounds = rn.full;
  p.partial_rounds = rn.partial;
  const std::string domain = "zk-poseidon/bls12-381-fr/x5/t=" + std::to_string(p.width) + "/rc";
  for (size_t k = 0; k < p.rounds() * p.width; ++k) p.round_constants.push_back(hash_to_fr(domain, k));
  // A Cauchy matrix with distinct x_i, distinct y_j and x_i + y_j ≠ 0 is MDS: every square
  // submatrix is again Cauchy, hence invertible (Poseidon paper §2.3).
  for (size_t i = 0; i < p.width; ++i)
    for (size_t j = 0; j < p.width; ++j) p.mds.push_back(fr::from_u64(i + p.width + j).inverse());
  return p;
}

}  // namespace

fr poseidon_params::domain_tag() const { return fr::from_u64((uint64_t{1} << (width - 1)) - 1); }

// The reference script's search: every even R_F ≥ 4 and R_P ≥ 1 that is secure, margin added,
// keeping the fewest S-boxes R_F·t + R_P (ties to the smaller R_F).
round_numbers poseidon_round_numbers(size_t width) {
  const double t = static_cast<double>(width);
  round_numbers best;
  size_t best_cost = SIZE_MAX;
  for (size_t rp = 1; rp < 500; ++rp) {
    for (size_t rf = 4; rf < 100; rf += 2) {
      if (!is_secure(t, static_cast<double>(rf), static_cast<double>(rp))) continue;
      const size_t rf_m = rf + 2;
      const size_t rp_m = static_cast<size_t>(std::ceil(static_cast<double>(rp) * 1.075));
      const size_t cost = rf_m * width + rp_m;
      if (cost < best_cost || (cost == best_cost && rf_m < best.full)) {
        best_cost = cost;
        best = {rf_m, rp_m};
      }
    }
  }
  return best;
}

const poseidon_params& poseidon_params_for(size_t arity) {
  static std::mutex mutex;
  static std::map<size_t, std::unique_ptr<poseidon_params>> cache;
  std::lock_guard lock(mutex);
  auto& slot = cache[arity];
  if (!slot) slot = std::make_unique<poseidon_params>(generate(arity));
  return *slot;
}

}  // namespace zk::circuits
