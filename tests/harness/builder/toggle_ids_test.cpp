// toggle_ids: ids are whole words of the option — prefix and filler words out, usual short forms,
// middle words out — never a word cut in the middle, and unique.
#include "harness/builder/toggle_ids.hpp"

#include <gtest/gtest.h>

namespace abtest {
namespace {

std::string id_of(const std::string& name, const std::string& prefix = "") {
  std::vector<std::string> taken;
  return toggle_id_for(name, prefix, taken);
}

TEST(toggle_ids, long_zlib_ng_names_keep_whole_words) {
  // The ids of the report were MAINTAI_WARNINGS, RUNTI_CPU_DETECT and NATIVE_INSTRUCTI.
  EXPECT_EQ(id_of("WITH_MAINTAINER_WARNINGS"), "MAINT_WARNINGS");
  EXPECT_EQ(id_of("WITH_RUNTIME_CPU_DETECTION"), "RUNTIME_DETECT");
  EXPECT_EQ(id_of("WITH_NATIVE_INSTRUCTIONS"), "NATIVE_INSTR");
  EXPECT_EQ(id_of("WITH_INFLATE_ALLOW_INVALID_DIST"), "INFLATE_DIST");
  EXPECT_EQ(id_of("WITH_AVX2"), "AVX2");  // the filler word WITH goes even when it would fit
  EXPECT_EQ(id_of("ZLIB_COMPAT"), "ZLIB_COMPAT");
}

TEST(toggle_ids, the_common_prefix_and_filler_words_go_first) {
  EXPECT_EQ(id_of("LIBDEFLATE_COMPRESSION_SUPPORT", "LIBDEFLATE_"), "COMPRESSION");
  EXPECT_EQ(id_of("LIBDEFLATE_SIMD_ACCELERATED_DECOMPRESSION", "LIBDEFLATE_"), "SIMD_DECOMPRESS");
  EXPECT_EQ(id_of("LIBZ_VERY_LONG_NAME_FOR_FAST_PATH", "LIBZ_"), "VERY_FAST_PATH");
  EXPECT_EQ(id_of("simd-avx2"), "SIMD_AVX2");
  EXPECT_EQ(id_of("2fast"), "T2FAST");
}

TEST(toggle_ids, no_id_ends_in_a_cut_word) {
  for (const std::string name : {"WITH_MAINTAINER_WARNINGS", "WITH_RUNTIME_CPU_DETECTION", "WITH_NATIVE_INSTRUCTIONS",
                                 "PROJECT_EXTREMELY_LONGWINDED_OPTION_NAME_HERE", "A_B_C_D_E_F_G_H_I_J_K_L_M"}) {
    const std::string id = id_of(name);
    EXPECT_LE(id.size(), 16u) << name;
    // Each word of the id is a word of the name, or the short form of one.
    std::string word;
    for (std::size_t i = 0; i <= id.size(); ++i) {
      if (i < id.size() && id[i] != '_') {
        word += id[i];
        continue;
      }
      const bool whole = name.find("_" + word + "_") != std::string::npos || name.ends_with("_" + word) ||
                         name.starts_with(word + "_") || word == "MAINT" || word == "DETECT" || word == "INSTR";
      EXPECT_TRUE(whole) << name << " → " << id << ": " << word;
      word.clear();
    }
  }
}

TEST(toggle_ids, a_single_word_longer_than_an_id_is_the_only_one_cut) {
  EXPECT_EQ(id_of("WITH_SUPERCALIFRAGILISTICEXPIALIDOCIOUS"), "SUPERCALIFRAGILI");
}

TEST(toggle_ids, ids_are_unique) {
  std::vector<std::string> taken;
  EXPECT_EQ(toggle_id_for("LIBZ_ADLER32_CHECKSUM", "LIBZ_", taken), "ADLER32_CHECKSUM");
  EXPECT_EQ(toggle_id_for("LIBZ_ADLER32_CHECKSUM_SUPPORT", "LIBZ_", taken), "ADLER32_SUPPORT");
  EXPECT_EQ(toggle_id_for("WITH_AVX2", "", taken), "AVX2");
  EXPECT_EQ(toggle_id_for("USE_AVX2", "", taken), "USE_AVX2");
  EXPECT_EQ(toggle_id_for("AVX2", "", taken), "AVX2_2");
}

TEST(toggle_ids, common_prefix_needs_two_names_that_share_it) {
  EXPECT_EQ(common_prefix({"LIBZ_A", "LIBZ_B_C"}), "LIBZ_");
  EXPECT_EQ(common_prefix({"LIBZ_A", "ZLIB_B"}), "");
  EXPECT_EQ(common_prefix({"LIBZ_A"}), "");
}

}  // namespace
}  // namespace abtest
