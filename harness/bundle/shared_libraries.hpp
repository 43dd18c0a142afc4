// The shared libraries a program loads, as the dynamic loader resolves them here (ldd): what a
// bundle copies beside its programs so that the target needs only its C library (and its driver).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace abtest::bundle {

struct shared_library {
  std::string name;             // the soname as the program asks for it, e.g. "libstdc++.so.6"
  std::filesystem::path path;   // where it resolves here
};

// Libraries every Linux host provides, or that must come from the target itself: the C library and
// its loader, libm, libpthread, libdl, librt, libutil, libresolv, the vDSO, and the NVIDIA driver's
// libcuda / libnvidia-* (a copy of the driver would not match the target's kernel module).
bool provided_by_host(const std::string& name);

// The libraries `program` loads, transitively, that the host does not provide (in ldd's order); a
// statically linked program has none. Throws std::runtime_error "… — …" when one is not found here.
std::vector<shared_library> bundled_libraries(const std::filesystem::path& program);

}  // namespace abtest::bundle
