// Toggle ids from option names, word by word: prefix and filler words out, usual short forms, then
// middle words out; never a word cut in the middle.
#include "harness/builder/toggle_ids.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>
#include <utility>

namespace abtest {
namespace {

constexpr std::size_t id_width = 16;

// Words that say little in an id: LIBDEFLATE_GZIP_SUPPORT is GZIP once the prefix is gone.
bool filler_word(const std::string& w) {
  static constexpr std::array<std::string_view, 12> fillers{"SUPPORT", "ENABLE", "ENABLED", "USE",  "WITH", "HAVE",
                                                            "OPTION",  "FOR",    "THE",     "OF",   "TO",   "AND"};
  return std::find(fillers.begin(), fillers.end(), w) != fillers.end();
}

// The usual short form of a long word, as option names elsewhere spell it; empty when none.
std::string_view short_form(const std::string& w) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 24> forms{{
      {"INSTRUCTIONS", "INSTR"},     {"INSTRUCTION", "INSTR"},      {"DETECTION", "DETECT"},
      {"MAINTAINER", "MAINT"},       {"WARNINGS", "WARN"},          {"OPTIMIZATIONS", "OPT"},
      {"OPTIMIZATION", "OPT"},       {"OPTIMISATIONS", "OPT"},      {"OPTIMISATION", "OPT"},
      {"COMPRESSION", "COMPRESS"},   {"DECOMPRESSION", "DECOMPRESS"}, {"ACCELERATED", "ACCEL"},
      {"ACCELERATION", "ACCEL"},     {"IMPLEMENTATION", "IMPL"},    {"ALLOCATOR", "ALLOC"},
      {"ALLOCATION", "ALLOC"},       {"CONFIGURATION", "CONFIG"},   {"PERFORMANCE", "PERF"},
      {"MEMORY", "MEM"},             {"VECTORIZATION", "VEC"},      {"INTRINSICS", "INTRIN"},
      {"DISTANCE", "DIST"},          {"PARALLEL", "PAR"},           {"EXPERIMENTAL", "EXP"},
  }};
  return look_up(forms, w);
}

std::string joined(const std::vector<std::string>& words) { return fmt::format("{}", fmt::join(words, "_")); }

// The words in at most `width` characters, each whole (see toggle_id_for).
std::string fit_words(std::vector<std::string> words, std::size_t width, bool drop_fillers) {
  if (drop_fillers) {
    std::vector<std::string> kept;
    for (const auto& w : words)
      if (!filler_word(w)) kept.push_back(w);
    if (!kept.empty()) words = kept;
  }
  if (joined(words).size() <= width) return joined(words);
  // Short forms, the longest word first, until it fits.
  while (joined(words).size() > width) {
    auto longest = words.end();
    for (auto it = words.begin(); it != words.end(); ++it)
      if (!short_form(*it).empty() && (longest == words.end() || it->size() > longest->size())) longest = it;
    if (longest == words.end()) break;
    *longest = std::string(short_form(*longest));
  }
  while (joined(words).size() > width && words.size() > 2) words.erase(words.begin() + 1);
  if (joined(words).size() > width && words.size() == 2)
    words = {words.front().size() <= width ? words.front() : words.back()};
  std::string id = joined(words).substr(0, width);  // only a single word over the width is cut
  while (!id.empty() && id.back() == '_') id.pop_back();
  return id;
}

}  // namespace

std::string toggle_id_for(const std::string& name, const std::string& prefix, std::vector<std::string>& taken) {
  const std::string base = !prefix.empty() && name.rfind(prefix, 0) == 0 && name.size() > prefix.size() ? name.substr(prefix.size()) : name;
  std::vector<std::string> words = name_words(base);
  if (words.empty()) words.push_back("T");
  if (!std::isupper(static_cast<unsigned char>(words.front()[0]))) words.front() = "T" + words.front();  // not insert(0, …): GCC 12 warns -Wrestrict there
  const auto is_taken = [&](const std::string& id) { return std::find(taken.begin(), taken.end(), id) != taken.end(); };
  std::string id = fit_words(words, id_width, true);
  // FOO_SUPPORT beside FOO: keep the filler word before falling back to a number.
  if (is_taken(id)) id = fit_words(words, id_width, false);
  for (int n = 2; is_taken(id); ++n) {
    const std::string suffix = fmt::format("_{}", n);
    id = fit_words(words, id_width - suffix.size(), true) + suffix;
  }
  taken.push_back(id);
  return id;
}

std::vector<std::string> name_words(const std::string& name) {
  std::vector<std::string> words{""};
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) words.back() += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    else if (!words.back().empty()) words.emplace_back();
  }
  if (words.back().empty()) words.pop_back();
  return words;
}

std::string common_prefix(const std::vector<std::string>& names) {
  if (names.size() < 2) return {};
  std::string p = names.front().substr(0, names.front().find('_') + 1);
  if (p.empty() || p.back() != '_') return {};
  for (const auto& n : names)
    if (n.rfind(p, 0) != 0) return {};
  return p;
}

}  // namespace abtest
