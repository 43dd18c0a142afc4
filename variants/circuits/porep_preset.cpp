// The preset table of the PoRep-shaped circuit, with the real Filecoin 32 GiB figures beside it.
#include "circuits/porep_preset.hpp"

#include <stdexcept>
#include <string>

namespace zk::circuits {
namespace {

// Constraints per partition (circuit rows + one per public input) from `porep-bench synth-only
// --count-only --preset P`. porep32g is Filecoin's StackedDrg 32 GiB PoRep C2: 10 partitions × 18
// challenges, 2³⁰ nodes (binary depth 30, octal depth 10), 11 layers, 6 DRG + 8 expander parents,
// labels over 37 parent chunks — ~130.3 M constraints per partition in bellperson. This model's
// gadgets have the same structure (one SHA-256 compression = 26 081 constraints, bellman's ~27 k),
// so the same shape lands near that count; it is listed for the reference figures, never run here.
constexpr porep_preset presets[] = {
    {"tiny", 2, 1, 2, 1, 1, 1, 1, true, "unit tests: 150 076 constraints per partition"},
    {"small", 2, 1, 6, 2, 3, 6, 6, true, "default: 678 219 constraints per partition, 1-3 s"},
    {"medium", 2, 2, 12, 4, 6, 14, 14, true, "4 068 709 constraints per partition, ~1 GiB"},
    {"large", 2, 6, 20, 6, 11, 14, 37, true, "41 202 795 constraints per partition, ~11 GiB"},
    {"porep32g", 10, 18, 30, 10, 11, 14, 37, false, "real 32 GiB PoRep: 10 × ~130.3 M constraints (this model counts 133 055 091)"},
};

}  // namespace

std::span<const porep_preset> porep_presets() { return presets; }

const porep_preset& find_porep_preset(std::string_view name) {
  std::string known;
  for (const auto& p : presets) {
    if (p.name == name) return p;
    known += known.empty() ? "" : ", ";
    known += p.name;
  }
  throw std::invalid_argument("unknown preset '" + std::string(name) + "' — use one of: " + known);
}

}  // namespace zk::circuits
