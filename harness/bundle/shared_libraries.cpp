// ldd's view of a program's libraries, less those the target host provides itself.
#include "harness/bundle/shared_libraries.hpp"

#include <fmt/format.h>

#include <array>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "harness/exec/process.hpp"

namespace abtest::bundle {

bool provided_by_host(const std::string& name) {
  static const std::array<const char*, 13> prefixes{"linux-vdso.so", "linux-gate.so", "ld-linux",  "libc.so",
                                                    "libm.so",       "libmvec.so",    "libpthread.so", "libdl.so",
                                                    "librt.so",      "libutil.so",    "libresolv.so",  "libcuda.so",
                                                    "libnvidia-"};
  for (const char* p : prefixes)
    if (name.rfind(p, 0) == 0) return true;
  return name.find("/ld-linux") != std::string::npos;  // the loader listed by its path
}

std::vector<shared_library> bundled_libraries(const std::filesystem::path& program) {
  exec::process_options o;
  o.argv = {"ldd", program.string()};
  o.timeout_s = 60;
  o.hardware_counters = false;
  const exec::process_result r = exec::run_process(o);
  if (!r.started) throw std::runtime_error(fmt::format("cannot run ldd on {}: {} — install libc-bin", program.string(), r.error));
  const std::string text = r.out.head + r.err.head;
  if (text.find("not a dynamic executable") != std::string::npos || text.find("statically linked") != std::string::npos) return {};
  if (r.exit_code != 0)
    throw std::runtime_error(fmt::format("ldd {} failed: {} — is it a program of this machine's architecture?", program.string(), text));
  // "\tlibstdc++.so.6 => /lib/x86_64-linux-gnu/libstdc++.so.6 (0x…)", "\tlibfoo.so.1 => not found",
  // "\tlinux-vdso.so.1 (0x…)", "\t/lib64/ld-linux-x86-64.so.2 (0x…)".
  static const std::regex line_re(R"(^\s*(\S+)(?: => (.*?))?(?: \(0x[0-9a-f]+\))?\s*$)");
  std::vector<shared_library> libs;
  std::istringstream lines(r.out.head);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, line_re)) continue;
    const std::string name = m[1], where = m[2];
    if (provided_by_host(name)) continue;
    if (where == "not found")
      throw std::runtime_error(fmt::format("{} needs {}, which the loader does not find here — build it so that it runs here "
                                           "(LD_LIBRARY_PATH, rpath) before bundling it", program.string(), name));
    if (where.empty()) continue;  // no resolution printed: nothing to copy
    libs.push_back({name, where});
  }
  return libs;
}

}  // namespace abtest::bundle
