// The runner's host check: digests, loading, devices.
#include "harness/bundle/host_check.hpp"

#include <elf.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "harness/core/sha256.hpp"
#include "harness/exec/process.hpp"

namespace abtest::bundle {
namespace fs = std::filesystem;

namespace {

// Whether the ELF file asks for a dynamic loader (a PT_INTERP header); false for a static program
// or a file that is not a 64-bit ELF (execve then says what it is).
bool has_interpreter(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  Elf64_Ehdr eh{};
  if (!in.read(reinterpret_cast<char*>(&eh), sizeof eh) || std::string_view(reinterpret_cast<char*>(eh.e_ident), 4) != ELFMAG ||
      eh.e_ident[EI_CLASS] != ELFCLASS64)
    return false;
  for (int i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph{};
    in.seekg(static_cast<std::streamoff>(eh.e_phoff + static_cast<std::uint64_t>(i) * eh.e_phentsize));
    if (!in.read(reinterpret_cast<char*>(&ph), sizeof ph)) return false;
    if (ph.p_type == PT_INTERP) return true;
  }
  return false;
}

}  // namespace

std::string load_problem(const fs::path& program, const fs::path& library_dir) {
  if (::access(program.c_str(), X_OK) != 0) return fmt::format("{} is not executable", program.string());
  if (!has_interpreter(program)) return {};
  exec::process_options o;
  o.argv = {program.string()};
  o.env["LD_TRACE_LOADED_OBJECTS"] = "1";
  const char* inherited = std::getenv("LD_LIBRARY_PATH");
  o.env["LD_LIBRARY_PATH"] = library_dir.string() + (inherited && *inherited ? std::string(":") + inherited : "");
  o.timeout_s = 30;
  o.hardware_counters = false;
  const exec::process_result r = exec::run_process(o);
  if (!r.started) return fmt::format("{} cannot be started: {}", program.string(), r.error);
  std::vector<std::string> missing;
  std::istringstream lines(r.out.head + r.err.head);
  for (std::string line; std::getline(lines, line);)
    if (line.find("not found") != std::string::npos) missing.push_back(line.substr(line.find_first_not_of(" \t")));
  if (!missing.empty()) return fmt::format("{} cannot load: {}", program.string(), fmt::join(missing, "; "));
  if (r.exit_code != 0)
    return fmt::format("{} cannot load (the loader exited {}: {})", program.string(), r.exit_code.value_or(-1),
                       r.err.head.empty() ? r.out.head : r.err.head);
  return {};
}

host_check check_host(const bundle_plan& plan, const fs::path& dir) {
  host_check c;
  int matched = 0, loaded = 0;
  for (const auto& [name, digest] : plan.files) {
    const fs::path file = dir / name;
    if (!fs::exists(file)) {
      c.problems.push_back(fmt::format("{} is missing — copy the whole bundle folder again", file.string()));
      continue;
    }
    if (sha256_file(file) != digest) {
      c.problems.push_back(fmt::format("{} changed since the bundle was made (its sha256 is not the plan's) — a bundle is "
                                       "immutable: copy it again, or make a new one with `abtest … --bundle`",
                                       file.string()));
      continue;
    }
    ++matched;
    if (name.rfind("bin/", 0) != 0) continue;
    if (const std::string why = load_problem(file, dir / "lib"); !why.empty())
      c.problems.push_back(why + " — this host lacks a library the bundle does not carry; install it, or bundle on a host "
                                 "whose C library is not newer than this one's");
    else
      ++loaded;
  }
  c.passed.push_back(fmt::format("{} of {} files match the plan's digests; {} programs load", matched, plan.files.size(), loaded));
  for (const auto& [cap, toggles] : plan.required_caps()) {
    if (cap != "cuda") {
      c.problems.push_back(fmt::format("the plan needs \"{}\" ({}), which this runner cannot check — make the bundle with this "
                                       "runner's abtest", cap, fmt::join(toggles, ", ")));
      continue;
    }
    c.cuda = probe_cuda();
    if (c.cuda.devices == 0)
      c.problems.push_back(fmt::format("this plan needs a CUDA device ({} requires cuda) and none was found: {} — run the "
                                       "bundle on a host with an NVIDIA GPU and its driver", fmt::join(toggles, ", "), c.cuda.why_none));
    else
      c.passed.push_back(fmt::format("cuda: {} device(s), {} (driver {}, CUDA API {})", c.cuda.devices, c.cuda.gpu_name,
                                     c.cuda.driver_version.empty() ? "?" : c.cuda.driver_version, c.cuda.driver_api));
  }
  return c;
}

}  // namespace abtest::bundle
