// Which way a metric is better and what margin judges it (design §4): declared in
// the manifest per benchmark or per metric, else inferred from the metric's name or unit.
//
// Example:
//   std::vector<stats::metric_rule> rules{{"gb.*_items_per_second", stats::better::higher, std::nullopt},
//                                         {"proof.total_s", std::nullopt, 0.03}};
//   const auto p = stats::resolve_policy(rules, "proof.total_s", 0.01);
//   // p.direction == better::lower (inferred), p.margin == 0.03 (manifest)
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace abtest::stats {

// Which way is better: times, sizes and counts lower; rates (items per second, MB/s) higher.
enum class better { lower, higher };

// "lower", "higher" — the manifest's and the --json contract's spelling.
std::string_view to_string(better b);
std::optional<better> parse_better(std::string_view text);

// Where a metric's direction or margin came from: the manifest, the name or unit (direction only),
// or the default (better lower; the run's --margin).
enum class policy_source { manifest, inferred, fallback };

// "manifest", "inferred", "default".
std::string_view to_string(policy_source s);
std::optional<policy_source> parse_policy_source(std::string_view text);

// Higher is better when the metric's unit is a rate, from its name (`<bench>.<name>`) or its unit
// if the format reports one. Words are split on '_', '.', '/' and '-', so `loops_s` is not `ops`:
//   name ends in `_per_s`, `_per_sec`, `_per_second` (Google Benchmark's `items_per_second`,
//   `bytes_per_second`) or `_hz`; or has the word `ops`, `throughput`, `qps` or `iops` (`hash_ops_s`);
//   unit ends in `/s` (`MB/s`, `GiB/s`, `ops/s`, `items/s`), or is `ops`, `Hz` or `qps`.
// nullopt: nothing in the name or unit says so (the metric then defaults to better lower).
std::optional<better> infer_better(std::string_view metric, std::string_view unit = {});

// One declaration of the manifest: a metric name or a glob over `<bench>.<name>` (`*` any run of
// characters, `?` one), and what it sets. A benchmark's own `better` / `margin` is the rule
// `<bench>.*` with `whole_benchmark` set. `margin` is relative (0.03 for the manifest's 3 %).
struct metric_rule {
  std::string pattern;
  std::optional<better> direction;
  std::optional<double> margin;
  bool whole_benchmark = false;
};

// `*` and `?` globbing, the whole text.
bool glob_match(std::string_view pattern, std::string_view text);

// The policy one metric is judged by.
struct metric_policy {
  better direction = better::lower;
  double margin = 0.01;  // relative
  policy_source direction_from = policy_source::fallback;
  policy_source margin_from = policy_source::fallback;
};

// The metrics the harness itself adds to every sample of a benchmark (the process's `wall_s`,
// `user_s`, `sys_s`, `maxrss_mib`, faults, switches, threads, hardware counters) and the counts of
// `run --counts` (`<bench>.counts.<name>`): times, sizes and counts, better lower whatever the
// benchmark's own metrics are.
bool is_harness_metric(std::string_view metric);

// The most specific rule that sets each field wins, per field: an exact name, then the glob with
// the most literal characters (ties: the first in `rules`), then `<bench>.*`. A benchmark's own
// `better` does not reach its harness metrics (is_harness_metric): a rate benchmark's wall_s is
// still a time; its margin does. A direction no rule sets is inferred (infer_better), else lower; a
// margin no rule sets is `default_margin` (--margin).
metric_policy resolve_policy(const std::vector<metric_rule>& rules, std::string_view metric, double default_margin,
                             std::string_view unit = {});

}  // namespace abtest::stats
