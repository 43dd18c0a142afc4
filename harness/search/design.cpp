// Full factorial, resolution-V fractional factorial and one-at-a-time designs.
#include "harness/search/design.hpp"

#include <algorithm>
#include <stdexcept>

namespace abtest::search {

namespace {

// Generator words by k (see design.hpp for the sources): the new factor = product of the listed ones.
std::vector<std::string> generators_for(int k) {
  switch (k) {
    case 5: return {"E=ABCD"};
    case 6: return {"F=ABCDE"};
    case 7: return {"G=ABCDEF"};
    case 8: return {"G=ABCD", "H=ABEF"};
    default: return {};
  }
}

// Bitmask of the letters of a word ("ABCD" → 0b1111).
unsigned letters(const std::string& word) {
  unsigned mask = 0;
  for (char c : word) mask |= 1u << (c - 'A');
  return mask;
}

}  // namespace

int design::resolution() const {
  if (kind == "oat") return -1;
  if (generators.empty()) return 0;
  // The defining relation: every product of the generator words I = <new letter><word>.
  std::vector<unsigned> words;
  for (const std::string& g : generators) words.push_back(letters(g.substr(0, 1)) ^ letters(g.substr(2)));
  int shortest = 64;
  for (unsigned subset = 1; subset < (1u << words.size()); ++subset) {
    unsigned w = 0;
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (subset >> i & 1u) w ^= words[i];
    }
    shortest = std::min(shortest, __builtin_popcount(w));
  }
  return shortest;
}

design full_factorial(int k) {
  if (k < 1 || k > 16) throw std::invalid_argument("error: a full factorial needs 1 ≤ k ≤ 16 factors — use group testing");
  design d{"full", k, {}, {}};
  for (unsigned c = 0; c < (1u << k); ++c) {
    std::vector<int> run(static_cast<std::size_t>(k));
    for (int j = 0; j < k; ++j) run[static_cast<std::size_t>(j)] = static_cast<int>(c >> j & 1u);
    d.runs.push_back(std::move(run));
  }
  return d;
}

design fractional_factorial(int k) {
  if (k >= 1 && k <= 4) return full_factorial(k);
  const std::vector<std::string> gens = generators_for(k);
  if (gens.empty()) {
    throw std::invalid_argument("error: no resolution-V fraction tabulated for k = " + std::to_string(k) +
                                " factors — bisect with group testing (k > 8)");
  }
  const int base = k - static_cast<int>(gens.size());
  design d = full_factorial(base);
  d.kind = "fractional";
  d.k = k;
  d.generators = gens;
  for (std::vector<int>& run : d.runs) {
    // In ±1 coding the generated column is the product of its word's columns: the generated factor is
    // high exactly when an even number of the word's factors are low.
    for (const std::string& g : gens) {
      int low = 0;
      for (char c : g.substr(2)) low += run[static_cast<std::size_t>(c - 'A')] == 0;
      run.push_back(low % 2 == 0 ? 1 : 0);
    }
  }
  return d;
}

design one_at_a_time(int k) {
  if (k < 1) throw std::invalid_argument("error: a design needs at least one factor — nothing differs");
  design d{"oat", k, {}, {}};
  d.runs.emplace_back(static_cast<std::size_t>(k), 0);
  for (int j = 0; j < k; ++j) {
    std::vector<int> run(static_cast<std::size_t>(k), 0);
    run[static_cast<std::size_t>(j)] = 1;
    d.runs.push_back(std::move(run));
  }
  if (k > 1) d.runs.emplace_back(static_cast<std::size_t>(k), 1);
  return d;
}

design make_design(const std::string& name, int k) {
  if (name == "full") return full_factorial(k);
  if (name == "half") return fractional_factorial(k);
  if (name == "oat") return one_at_a_time(k);
  throw std::invalid_argument("error: unknown design '" + name + "' — use full, half or oat");
}

}  // namespace abtest::search
