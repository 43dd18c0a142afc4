// The nightly series `abtest history` runs its detectors on: one point per night (an experiment, or
// the shards of one group), its value ln median — or ln(median / canary) with a frozen canary.
//
//   night_index nights(store);                                   // shared by every series of a run
//   const night_series s = nights_of(store, nights, "A1=4", "proof.total_s", db::experiment_kind::nightly, "canary");
//   changepoint::analyze_series(values_of(s), options);
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "db/results_store.hpp"

namespace abtest {

// A night: one experiment, or the experiments of one group (the shards of a matrix run across
// machines, `matrix --group`), named by its first experiment.
struct night_point {
  std::string experiment;               // the first (oldest) experiment of the night
  std::vector<std::string> experiments;
  db::time_point started_at{};
  double median = 0;                    // geometric mean of the experiments' medians (raw seconds)
  double value = 0;                     // what the detectors see: ln median, or ln(median / canary)
};

struct night_series {
  std::vector<night_point> nights;  // oldest first
  bool normalized = false;          // divided by the canary (it has a series of its own)
};

// The night of an experiment — itself, or "group <g>" — looked up once per experiment.
class night_index {
 public:
  explicit night_index(db::results_store& store) : store_(store) {}
  const std::string& of(const std::string& experiment);

 private:
  db::results_store& store_;
  std::map<std::string, std::string> night_;
};

// The series of one (variant, metric) by night, of experiments of `kind` (any when nullopt), each
// experiment's value from the first arm running the variant. With a canary (`canary_variant` has a
// series), each experiment is divided by the canary measured in that same experiment — the same
// machine and rounds, which is what cancels a machine's drift — before the experiments of a night
// are averaged (on the log scale); an experiment without the canary is left out.
night_series nights_of(db::results_store& store, night_index& nights, const std::string& variant, const std::string& metric,
                       std::optional<db::experiment_kind> kind, const std::string& canary_variant);

}  // namespace abtest
