// The bundle `--bundle DIR` wrote, for the terminal and --json (bundle_output.hpp).
#include "harness/report/bundle_output.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace abtest::report {

std::string render(const bundle_written& b, format f) {
  if (f == format::json)
    return nlohmann::json({{"bundle", b.folder}, {"experiment", b.experiment}, {"arms", b.arms}, {"benchmarks", b.benchmarks},
                           {"rounds", b.rounds}, {"warmups", b.warmups}, {"seed", b.seed}, {"programs", b.programs},
                           {"libraries", b.libraries}, {"bytes", b.bytes}, {"notes", b.notes}})
               .dump(2) + "\n";
  if (f != format::terminal) throw std::invalid_argument("a bundle has no markdown or HTML output — its README.txt says what it holds");
  std::string out;
  for (const auto& n : b.notes) out += n + "\n";
  out += fmt::format("bundle {}: experiment {}, {} arms ({}) × {} benchmark(s), {} warm-up + {} rounds, seed {}\n", b.folder,
                     b.experiment, b.arms.size(), fmt::join(b.arms, ", "), b.benchmarks.size(), b.warmups, b.rounds, b.seed);
  out += fmt::format("  {} program(s), {} shared librar{} beside them, {:.1f} MiB in all\n", b.programs, b.libraries,
                     b.libraries == 1 ? "y" : "ies", static_cast<double>(b.bytes) / (1 << 20));
  out += fmt::format("  on the host that measures: {}/run --check, then {}/run --out OUT\n", b.folder, b.folder);
  out += "  back here: abtest import OUT (README.txt in the folder says more)\n";
  return out;
}

}  // namespace abtest::report
