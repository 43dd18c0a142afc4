// The interface every build system implements (design §3.1): configure when needed, build the
// targets, say where the programs are, and record what it used. One file per system
// (cmake_build.cpp, cargo_build.cpp, command_build.cpp, meson_build.cpp); driver_for() is the one
// registration. The builder around it prepares the sources, runs the compiler cache and hashes the
// programs the same way for every system.
#pragma once

#include <string>
#include <vector>

#include "harness/builder/build_job.hpp"
#include "harness/core/manifest.hpp"

namespace abtest {

class build_system_driver {
 public:
  virtual ~build_system_driver() = default;
  // Configure (when the folder is new or its arguments changed), build `j.targets`, find them.
  virtual system_result build(const build_job& j) const = 0;
  // Whether ccache is put in front of its compilers; false where the system caches by itself
  // (Cargo's shared target folder).
  virtual bool uses_compiler_cache() const { return true; }
  // The configure line for `abtest build --dry-run`; empty where the system has none.
  virtual std::vector<std::string> configure_command(const build_job&) const { return {}; }
};

const build_system_driver& driver_for(build_system s);

// Each system's driver, defined in its own file.
const build_system_driver& cmake_driver();
const build_system_driver& cargo_driver();
const build_system_driver& command_driver();
const build_system_driver& meson_driver();

// A command build's argv and environment for `j` (command_build.cpp; `abtest build --dry-run`).
command_line expand_build_command(const build_job& j);

}  // namespace abtest
