// Toggle ids for option and feature names: whole words of the name, at most 16 characters.
//
//   std::vector<std::string> taken;
//   toggle_id_for("WITH_RUNTIME_CPU_DETECTION", "", taken);  // "RUNTIME_DETECT"
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace abtest {

// A toggle id for an option or feature name: upper case, [A-Z0-9_], at most 16 characters. Made of
// whole words of the name, never a word cut in the middle: the common `prefix` (e.g. "LIBDEFLATE_")
// and filler words (WITH, ENABLE, SUPPORT, FOR, …) left out; when still too long, words spelled by
// their usual short form (DETECTION → DETECT, INSTRUCTIONS → INSTR), then words after the first
// left out, the last kept (it often tells two options apart). WITH_NATIVE_INSTRUCTIONS →
// NATIVE_INSTR, LIBDEFLATE_COMPRESSION_SUPPORT → COMPRESSION, VERY_LONG_NAME_FOR_FAST_PATH →
// VERY_FAST_PATH. Unique among `taken`, which it extends (FOO_SUPPORT beside FOO keeps SUPPORT;
// then FOO_2). Only a single word longer than 16 letters is cut.
std::string toggle_id_for(const std::string& name, const std::string& prefix, std::vector<std::string>& taken);

// The words of an option or feature name: its upper-cased runs of letters and digits
// ("with_avx2-fast" → WITH, AVX2, FAST). What toggle ids and option roles are read from.
std::vector<std::string> name_words(const std::string& name);

// A word's entry in a table of (word, value) pairs; empty when it has none.
template <std::size_t N>
std::string_view look_up(const std::array<std::pair<std::string_view, std::string_view>, N>& table, std::string_view word) {
  for (const auto& [key, value] : table)
    if (key == word) return value;
  return {};
}

// The prefix up to the first '_' that every name shares ("LIBZ_"), when there are two names or
// more; empty otherwise.
std::string common_prefix(const std::vector<std::string>& names);

}  // namespace abtest
