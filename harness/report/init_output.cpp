// The drafted manifest as `abtest init` describes it, for the terminal and --json.
#include "harness/report/init_output.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace abtest::report {
namespace {

// Each toggle id of the draft → what it sets: "option PLANTED_SIZE (levels 1, 2, 4)", "feature simd".
nlohmann::ordered_json toggle_sources(const nlohmann::ordered_json& manifest) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& t : manifest["toggles"]) {
    std::string source;
    for (const char* kind : {"option", "feature"})
      if (t.contains(kind)) source = fmt::format("{} {}", kind, t[kind].get<std::string>());
    if (t.contains("levels")) source += fmt::format(" (levels {})", fmt::join(t["levels"].get<std::vector<std::string>>(), ", "));
    out[t["id"].get<std::string>()] = source;
  }
  return out;
}

// "\nheading:\n  - line\n…", nothing for no lines.
std::string bullet_list(const std::string& heading, const std::vector<std::string>& lines) {
  if (lines.empty()) return "";
  std::string out = fmt::format("\n{}:\n", heading);
  for (const auto& s : lines) out += fmt::format("  - {}\n", s);
  return out;
}

// The ids are short (variant keys spell them): say which option or feature each stands for.
std::string toggles_text(const nlohmann::ordered_json& manifest) {
  if (manifest["toggles"].empty()) return "";
  std::string out = "\ntoggles (id: what it sets):\n";
  std::size_t width = 0;
  for (const auto& t : manifest["toggles"]) width = std::max(width, t["id"].get<std::string>().size());
  const auto sources = toggle_sources(manifest);
  for (const auto& [id, source] : sources.items()) out += fmt::format("  {:<{}}  {}\n", id, width, source.get<std::string>());
  return out;
}

// Name one benchmark: a project whose every test links Google Benchmark gets many, and a plain
// `abtest build` would build them all. One read through its harness's own format before a "json"
// guess (a Cargo bin or custom bench whose output is still to check).
std::string next_text(const nlohmann::ordered_json& manifest) {
  const auto& benches = manifest["benchmarks"];
  const auto known = std::find_if(benches.begin(), benches.end(), [](const auto& b) { return b["format"] != "json"; });
  const std::string bench = known != benches.end() ? (*known)["name"].get<std::string>()
                            : benches.empty()     ? std::string("NAME")
                                                  : benches[0]["name"].get<std::string>();
  return fmt::format("\nnext: abtest build --bench {0}   (then abtest run --toggle {1} --bench {0} --rounds 10)\n", bench,
                     manifest["toggles"].empty() ? "ID" : manifest["toggles"][0]["id"].get<std::string>());
}

std::string init_text(const init_result& r) {
  const auto& m = r.draft.manifest;
  std::string out = fmt::format("wrote {} ({} build, {} toggle(s), {} benchmark(s))\n", r.manifest.string(),
                                m["build"]["system"].get<std::string>(), m["toggles"].size(), m["benchmarks"].size());
  out += toggles_text(m);
  out += bullet_list("left out (not toggles or benchmarks)", r.draft.left_out);
  out += fmt::format("\nwhat it read or guessed:\n");
  for (const auto& s : r.draft.guessed) out += fmt::format("  - {}\n", s);
  out += bullet_list("still to do", r.draft.to_do);
  if (r.invalid.empty()) out += next_text(m);
  return out;
}

}  // namespace

std::string render(const init_result& r, format f) {
  if (f == format::json)
    return nlohmann::json({{"manifest", r.manifest.string()}, {"toggles", toggle_sources(r.draft.manifest)}, {"guessed", r.draft.guessed},
                           {"left_out", r.draft.left_out}, {"to_do", r.draft.to_do}, {"valid", r.invalid.empty()}, {"error", r.invalid}})
               .dump(2) +
           "\n";
  if (f == format::terminal) return init_text(r);
  throw std::invalid_argument("init has no markdown or HTML output — the manifest it writes is the document");
}

}  // namespace abtest::report
