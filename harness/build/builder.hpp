// Builds one variant in its own CMake build folder: configure once, then incremental (DESIGN §5).
//
//   builder b(m, {.jobs = 2});
//   build_outcome r = b.build(parse_variant_spec("A1=4", m));
//   if (!r.ok) print(r.log_tail);          // never thrown: a failed variant is data (bisect skips it)
//   r.binaries["synth-bench"].sha256       // identical hashes = identical programs
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/manifest.hpp"
#include "harness/core/variant.hpp"

namespace abtest {

struct built_binary {
  std::filesystem::path path;
  std::string sha256;
};

struct source_state {
  std::string commit;   // `git rev-parse HEAD` of the source folder; empty outside git
  bool dirty = false;   // uncommitted changes to tracked files
};

struct build_outcome {
  variant v;
  std::string key;
  std::filesystem::path dir;         // the variant's build folder
  std::filesystem::path log_path;    // configure + build output of the last build
  bool ok = false;
  bool configured_now = false;       // false: the folder was configured before (incremental build)
  std::string log_tail;              // last lines of the log, for the error message
  std::vector<std::string> missing_targets;  // targets the build tool did not know
  std::map<std::string, built_binary> binaries;  // target → file and hash (ok builds only)
  std::string binaries_digest;       // hash over every target's hash: equal ⇔ same programs
  double duration_s = 0;
  double started_at_unix = 0;
  std::string compiler, flags;       // from the build folder's CMakeCache
  source_state source;
};

struct builder_options {
  int jobs = 0;                      // 0: the build tool's default
  std::filesystem::path build_root;  // default: <manifest dir>/.abtest/build
  std::vector<std::string> extra_cmake_args;  // e.g. a layout seed for noise-floor builds
  std::string folder_suffix;         // appended to the variant's folder (noise-floor rebuilds)
  bool verbose = false;              // stream the build tool's output to stderr
};

class builder {
 public:
  builder(const manifest& m, builder_options options = {});

  // Configures (first time, or when the configure arguments changed) and builds the manifest's
  // targets for `v`. Never throws for a failing compiler: the outcome says ok = false.
  build_outcome build(const variant& v) const;
  std::filesystem::path folder(const variant& v) const;

  // The cmake configure command line for `v` (exposed for tests and `abtest show`).
  std::vector<std::string> configure_command(const variant& v) const;

 private:
  const manifest& m_;
  builder_options options_;
};

source_state read_source_state(const std::filesystem::path& dir);

}  // namespace abtest
