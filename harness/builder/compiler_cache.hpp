// The compiler cache a variant build goes through (ccache for C, C++ and CUDA), set up so that
// variants share every object whose preprocessed source is equal, and counted per build. (Cargo
// builds share one target folder instead: see build_cargo.)
//
//   compiler_cache cache = compiler_cache::for_build(build_dir, common_root);
//   opts.env = cache.env();                  // CCACHE_BASEDIR, CCACHE_NOHASHDIR, a per-build stats log
//   cache.begin();  run the build;  build_cost c = cache.finish();   // c.cache_hits, c.cache_misses
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace abtest {

// What one build cost and why (design §5; the build record stores it).
struct build_cost {
  std::optional<int> objects_compiled;  // compiler runs that produced an object (cache misses + uncached)
  std::optional<int> cache_hits;
  std::optional<int> cache_misses;
  std::optional<int> links;             // executables and libraries linked or archived
  std::vector<std::string> compiled;    // the sources that were compiled (cache misses), for tests and `show`
  std::vector<std::string> notes;       // e.g. "no compiler cache on PATH", "CUDA kernels not built: no device"
};

class compiler_cache {
 public:
  enum class kind { none, ccache };

  // ccache when on PATH (C, C++, CUDA), its base directory at `common_root` so that absolute paths
  // below it (the variant's own build folder, its worktree) become relative and equal across variants.
  static compiler_cache ccache_for(const std::filesystem::path& build_dir, const std::filesystem::path& common_root);

  kind which() const { return kind_; }
  const std::filesystem::path& program() const { return program_; }
  std::map<std::string, std::string> env() const;
  void begin();                 // clears the per-build statistics
  build_cost finish() const;    // reads them back

 private:
  kind kind_ = kind::none;
  std::filesystem::path program_, stats_log_, base_dir_;
};

// Counts from a ccache stats log (CCACHE_STATSLOG): one "# <source>" line per compilation, then
// its counters (direct_cache_hit, preprocessed_cache_hit, cache_miss, ...).
build_cost parse_ccache_stats_log(const std::string& text);

// The first `name` on $PATH, or empty.
std::filesystem::path find_on_path(const std::string& name);

// The deepest folder that holds both paths (both absolute).
std::filesystem::path common_ancestor(const std::filesystem::path& a, const std::filesystem::path& b);

}  // namespace abtest
