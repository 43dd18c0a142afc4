// Tests of the DHAT JSON parser on a hand-written heap profile.
#include "harness/counts/dhat_file.hpp"

#include <gtest/gtest.h>

namespace abtest::counts {
namespace {

// Four program points: the runtime's start-up pool, two stacks through the same line of main
// (one via operator new), and one whose frames are all Valgrind's.
const char* const sample_file = R"json({"dhatFileVersion": 2, "mode": "heap", "verb": "Allocated", "bklt": true,
 "bkacc": true, "tu": "instrs", "Mtu": "Minstr", "tuth": 500, "cmd": "./prog 100", "pid": 7,
 "te": 1952101, "tg": 1934106,
 "pps": [
  {"tb": 72704, "tbk": 1, "tl": 28121, "mb": 72704, "mbk": 1, "gb": 72704, "gbk": 1, "eb": 0, "ebk": 0,
   "rb": 0, "wb": 16, "fs": [1, 2, 3]},
  {"tb": 1600, "tbk": 100, "tl": 5, "mb": 1600, "mbk": 100, "gb": 1600, "gbk": 100, "eb": 0, "ebk": 0,
   "rb": 0, "wb": 0, "acc": [-16, 0], "fs": [1, 4, 5]},
  {"tb": 400, "tbk": 10, "tl": 5, "mb": 40, "mbk": 1, "gb": 0, "gbk": 0, "eb": 0, "ebk": 0,
   "rb": 0, "wb": 0, "fs": [6, 4]},
  {"tb": 8, "tbk": 1, "tl": 5, "mb": 8, "mbk": 1, "eb": 0, "ebk": 0, "rb": 0, "wb": 0, "fs": [6]}
 ],
 "ftbl": ["[root]",
  "0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_dhat-amd64-linux.so)",
  "0x49027B9: ??? (in /usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30)",
  "0x4004A1D: call_init (dl-init.c:74)",
  "0x109162: main (t.cpp:4)",
  "0x109000: (below main) (libc-start.c:1)",
  "0x4841F2F: operator new(unsigned long) (in /usr/libexec/valgrind/vgpreload_dhat-amd64-linux.so)"]
})json";

TEST(parse_dhat, totals_peak_and_sites) {
  const dhat_profile p = parse_dhat(sample_file);
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.blocks, 112u);
  EXPECT_EQ(p.bytes, 72704u + 1600 + 400 + 8);
  EXPECT_EQ(p.peak_blocks, 101u) << "gbk summed; a point without gb/gbk counts 0";
  EXPECT_EQ(p.peak_bytes, 72704u + 1600);
  EXPECT_EQ(p.command, "./prog 100");
  ASSERT_EQ(p.sites.size(), 3u);
  EXPECT_EQ(p.sites[0].where, "??? (in libstdc++.so.6.0.30)") << "the object's folder left out";
  EXPECT_EQ(p.sites[0].bytes, 72704u);
  EXPECT_EQ(p.sites[1].where, "main (t.cpp:4)") << "malloc and operator new stacks through one line merge";
  EXPECT_EQ(p.sites[1].blocks, 110u);
  EXPECT_EQ(p.sites[1].bytes, 2000u);
  EXPECT_EQ(p.sites[2].where, "[unknown]") << "only Valgrind's frames";
  EXPECT_EQ(p.sites[2].blocks, 1u);
}

TEST(parse_dhat, other_documents_are_errors) {
  const std::pair<const char*, const char*> cases[] = {
      {"not json", "not JSON"},
      {"[1, 2]", "not a JSON object"},
      {R"({"dhatFileVersion": 1, "mode": "heap", "pps": [], "ftbl": []})", "dhatFileVersion is 1"},
      {R"({"dhatFileVersion": 2, "mode": "copy", "pps": [], "ftbl": []})", "mode is \"copy\""},
      {R"({"dhatFileVersion": 2, "mode": "heap"})", "no pps / ftbl"},
      {R"({"dhatFileVersion": 2, "mode": "heap", "pps": [{"tb": 1, "tbk": 1, "fs": [3]}], "ftbl": ["[root]"]})",
       "a program point is malformed"},
  };
  for (const auto& [text, expected] : cases) {
    const dhat_profile p = parse_dhat(text);
    EXPECT_NE(p.error.find(expected), std::string::npos) << text << "\nerror: " << p.error;
    EXPECT_EQ(p.blocks, 0u);
  }
}

}  // namespace
}  // namespace abtest::counts
