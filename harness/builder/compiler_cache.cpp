// ccache as the variant builds' compiler cache: environment, per-build statistics.
#include "harness/builder/compiler_cache.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>


namespace abtest {
namespace fs = std::filesystem;

fs::path find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  const std::string dirs = path ? path : "";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t colon = dirs.find(':', start);
    const fs::path candidate = fs::path(dirs.substr(start, colon - start)) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return {};
}

fs::path common_ancestor(const fs::path& a, const fs::path& b) {
  fs::path out;
  auto ia = a.begin(), ib = b.begin();
  for (; ia != a.end() && ib != b.end() && *ia == *ib; ++ia, ++ib) out /= *ia;
  return out;
}

build_cost parse_ccache_stats_log(const std::string& text) {
  build_cost c;
  c.cache_hits = 0;
  c.cache_misses = 0;
  c.objects_compiled = 0;
  std::istringstream in(text);
  std::string line, source;
  while (std::getline(in, line)) {
    if (line.rfind("# ", 0) == 0) {
      source = line.substr(2);
    } else if (line == "direct_cache_hit" || line == "preprocessed_cache_hit") {
      ++*c.cache_hits;
    } else if (line == "cache_miss") {
      ++*c.cache_misses;
      ++*c.objects_compiled;
      c.compiled.push_back(source);
    } else if (line.rfind("could_not_", 0) == 0 || line.rfind("unsupported_", 0) == 0 || line == "compiler_produced_no_output") {
      ++*c.objects_compiled;  // ran uncached
      c.compiled.push_back(source);
    }
  }
  return c;
}

compiler_cache compiler_cache::ccache_for(const fs::path& build_dir, const fs::path& common_root) {
  compiler_cache c;
  c.program_ = find_on_path("ccache");
  if (c.program_.empty()) return c;
  c.kind_ = kind::ccache;
  c.stats_log_ = build_dir / "abtest-ccache-stats.log";
  c.base_dir_ = common_root;
  return c;
}

std::map<std::string, std::string> compiler_cache::env() const {
  switch (kind_) {
    case kind::ccache:
      // Paths below the base directory are hashed relative to the compiler's working directory, and
      // the working directory itself is not hashed: the same source compiled in two variant folders
      // is one cache entry (ccache manual, "Compiling in different directories").
      return {{"CCACHE_BASEDIR", base_dir_.string()}, {"CCACHE_NOHASHDIR", "true"}, {"CCACHE_STATSLOG", stats_log_.string()}};
    case kind::none:
      break;
  }
  return {};
}

void compiler_cache::begin() {
  if (kind_ == kind::ccache) {
    std::error_code ec;
    fs::remove(stats_log_, ec);
  }
}

build_cost compiler_cache::finish() const {
  build_cost c;
  if (kind_ == kind::ccache) {
    std::ifstream in(stats_log_);
    std::ostringstream text;
    text << in.rdbuf();
    c = parse_ccache_stats_log(text.str());
  } else {
    c.notes.push_back("no ccache on PATH (scripts/setup.sh installs it): every variant compiles everything");
  }
  return c;
}

}  // namespace abtest
