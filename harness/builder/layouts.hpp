// Code-layout randomization (design §6): a built program linked again K times, each time with its
// input sections in a seeded order (lld's --shuffle-sections), from the objects the build already
// made. Only the link repeats; with -ffunction-sections in the project's flags the order is per
// function, else per object file. What each layout costs is one link.
//
//   const auto links = relink_layouts({build_dir, "synth-bench", build_dir / "layouts"}, seeds);
//   // links[k].program: the program with layout k, built with links[k].seed
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace abtest {

// The seed of layout k of a variant: from the experiment's seed and the variant's key, so that a
// rerun links the same layouts and two variants never share one. Never 0 or −1 (lld reads those
// as "random" and "reverse").
std::uint64_t layout_seed(std::uint64_t experiment_seed, const std::string& variant_key, int k);

struct layout_request {
  std::filesystem::path build_dir;  // a CMake build folder made with the Ninja generator
  std::string target;               // the executable target to link again
  std::filesystem::path out_dir;    // layout k goes to out_dir/<k>/<the program's file name>
};

struct layout_link {
  int index = 0;
  std::uint64_t seed = 0;
  std::filesystem::path program;
  double link_s = 0;  // wall time of this link
};

// Links `request.target` once per seed. Throws std::runtime_error with what to do when lld is not
// installed, the build folder is not a Ninja one, the target has no link step, or a link fails (its
// own message).
std::vector<layout_link> relink_layouts(const layout_request& request, const std::vector<std::uint64_t>& seeds);

// The link line of `target` as Ninja would run it (for tests and the build log).
std::string link_command(const std::filesystem::path& build_dir, const std::string& target);

}  // namespace abtest
