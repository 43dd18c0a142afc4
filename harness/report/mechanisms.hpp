// The mechanism blocks of an experiment with counts: why a timing verdict moved, in Valgrind's
// exact counts — one model for the terminal, --json, markdown and HTML.
//
//   const auto blocks = report::find_mechanisms({"base", "A1=4"}, store.list_verdicts(id), store.list_counts(id));
//   for (const auto& b : blocks) std::cout << counts::format_terminal(b.block);
#pragma once

#include <string>
#include <vector>

#include "db/records.hpp"
#include "harness/counts/mechanism.hpp"

namespace abtest::report {

// One candidate arm's benchmark whose measurements moved: the verdicts it explains and the diff of
// the arm's counts against the baseline's (labels: the two variant keys).
struct mechanism_entry {
  std::string benchmark;
  std::vector<db::verdict_record> explains;  // the SLOWER / FASTER verdicts (counts excluded), by metric
  counts::mechanism block;
};

// For every candidate arm and benchmark with a SLOWER or FASTER verdict of a measured metric — a
// time, or a size or count the benchmark reports (HIGHER / LOWER), immaterial ones too, never a
// Valgrind count's own row — and stored counts in both that arm and the baseline (arm 0), the mechanism block, diffed
// with the candidate's `rename` rules; in arm, then benchmark order. `arm_variants[i]` is arm i's
// variant key, as the verdicts name it. Rows whose counts failed are left out.
std::vector<mechanism_entry> find_mechanisms(const std::vector<std::string>& arm_variants,
                                             const std::vector<db::verdict_record>& verdicts,
                                             const std::vector<db::counts_record>& counts);

// The block as the reports' tables, cells as text ("1,234,567", "-100", "-8.33%"): the counts that
// moved, the functions by Δ of the ranking count, the allocation sites by Δ bytes; a table without
// rows is left out. Markdown and HTML render the same tables.
struct text_table {
  std::vector<std::string> head;
  std::vector<std::vector<std::string>> rows;
};
std::vector<text_table> mechanism_tables(const counts::mechanism& m);

// The lines around the tables: "counted in zk::bench::run_synthesis*" (or "over the whole
// program"), "unchanged: Bcm", "measured in one arm only: …", and a warning when not comparable.
std::vector<std::string> mechanism_remarks(const counts::mechanism& m);

// "synth.total_s SLOWER, synth.synthesis_s SLOWER (immaterial)": the verdicts a block explains.
std::string explained_verdicts(const mechanism_entry& e);

// The `rename` rules of a counts row's spec ([[pattern, replacement], ...]); none when absent.
std::vector<std::pair<std::string, std::string>> rename_rules(const nlohmann::json& spec);

}  // namespace abtest::report
