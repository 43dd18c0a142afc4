// What a configured CMake build folder says about its targets, through the CMake file API
// (cmake-file-api(7), codemodel v2): where each program lands, and what it links.
//
//   request_codemodel(dir);            // before `cmake -S … -B dir`
//   for (const auto& t : read_codemodel(dir)) if (t.type == "EXECUTABLE") use(t.artifact);
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace abtest {

struct cmake_target {
  std::string name;
  std::string type;                    // EXECUTABLE, STATIC_LIBRARY, ...
  std::filesystem::path artifact;      // absolute; empty for targets without one
  std::string link_command;            // the link line's fragments, joined (to spot Google Benchmark)
};

// Writes the query file that makes the next configure of `dir` produce a codemodel reply.
void request_codemodel(const std::filesystem::path& dir);
// The targets of the newest reply in `dir`; empty when there is none or it cannot be read.
std::vector<cmake_target> read_codemodel(const std::filesystem::path& dir);

// One CMake cache entry (CMakeCache.txt): `NAME:TYPE=VALUE`, its help string, and its properties.
struct cmake_cache_entry {
  std::string name, type, value;
  std::string help;                    // as the project wrote it, newlines included (the file spells them \n)
  bool advanced = false;
  std::vector<std::string> strings;    // the STRINGS property (the values a GUI offers)
};
std::map<std::string, cmake_cache_entry> read_cmake_cache(const std::filesystem::path& cache_file);

}  // namespace abtest
