// Facts about the machine a sample ran on: identity fingerprint, load, frequency policy, noise warnings.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace abtest::exec {

struct host_facts {
  std::string hostname;
  std::string cpu_model;          // /proc/cpuinfo "model name" (or the ARM equivalents)
  unsigned cores = 0;             // logical CPUs online
  std::uint64_t memory_mib = 0;   // /proc/meminfo MemTotal
  std::string os;                 // /etc/os-release PRETTY_NAME
  std::string kernel;             // uname: sysname release machine
  std::string compiler;           // the compiler that built abtest itself
  std::vector<std::string> gpus;  // NVIDIA driver's /proc/driver/nvidia/gpus/*/information "Model"
  // 16 hex digits, FNV-1a 64 of the hardware identity: hostname, CPU model, cores, memory in GiB
  // (MemTotal moves by a few MiB between kernels) and GPU models. OS, kernel and compiler are
  // recorded but left out, so that an upgrade does not split a machine's history.
  std::string fingerprint;
};

// Reads the facts. `root` replaces "/" for every file read (tests point it at a fake tree);
// hostname, kernel and the core-count fallback always come from the running system.
host_facts collect_host_facts(const std::filesystem::path& root = "/");

// An NVIDIA device node or driver entry is present: CUDA kernels can run here.
bool host_has_cuda_device(const std::filesystem::path& root = "/");

// The fingerprint of `facts` as described above (deterministic across runs and machines).
std::string host_fingerprint(const host_facts& facts);

nlohmann::json to_json(const host_facts& facts);

struct load_average {
  double one = 0, five = 0, fifteen = 0;
};
// /proc/loadavg; nullopt when unreadable.
std::optional<load_average> read_load_average(const std::filesystem::path& root = "/");

// CPU frequency scaling as far as it is readable without privileges; absent fields were unreadable.
struct frequency_policy {
  std::optional<std::string> governor;  // cpufreq scaling_governor of every CPU, "a,b" when they differ
  std::optional<bool> turbo;            // intel_pstate/no_turbo inverted, else cpufreq boost
  std::string turbo_source;             // the file `turbo` came from
};
frequency_policy read_frequency_policy(const std::filesystem::path& root = "/");

// Everything noise_warnings looks at, so that it is a pure function of its input.
struct noise_inputs {
  unsigned cores = 0;
  std::optional<load_average> load;
  frequency_policy policy;
  std::string pin;  // the --pin list in force, empty when none
  // The CPUs other work keeps busy now (other_load.hpp: /proc, abtest's own process tree left
  // out); nullopt when /proc could not be read, and the load average is used instead.
  std::optional<double> other_busy;
};
noise_inputs read_noise_inputs(const std::string& pin = {}, const std::filesystem::path& root = "/");

// Actionable warnings about conditions that make timings noisy, e.g.
// "load average 1.9 on 2 CPUs — stop other work or pass --pin". Empty when all looks quiet.
// Heuristics: other work busy on more than max(0.75, 0.2 × cores) CPUs before measuring — read
// from /proc over half a second, so that the load a build of the harness or of a variant left in
// the 1-minute load average does not count (the load average when /proc is unreadable); a
// governor other than `performance`; turbo on.
std::vector<std::string> noise_warnings(const noise_inputs& inputs);

}  // namespace abtest::exec
