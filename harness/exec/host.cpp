// Host facts from /proc, /sys, /etc/os-release and uname; FNV-1a fingerprint; noise warnings.
#include "harness/exec/host.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "harness/exec/other_load.hpp"
#include "harness/exec/text.hpp"

namespace abtest::exec {

namespace {
namespace fs = std::filesystem;

fs::path under(const fs::path& root, const fs::path& absolute) {
  return root / absolute.relative_path();
}

std::optional<std::string> read_text(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string trim(std::string_view s) { return std::string(detail::trim(s)); }

// Value of the first "key : value" line (cpuinfo / meminfo / nvidia information style).
std::optional<std::string> field(std::string_view text, std::string_view key) {
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    const auto colon = line.find(':');
    if (colon != std::string_view::npos && trim(line.substr(0, colon)) == key)
      return trim(line.substr(colon + 1));
  }
  return std::nullopt;
}

std::string compiler_version() {
#if defined(__clang__)
  return "clang " __clang_version__;
#elif defined(__GNUC__)
  return "gcc " __VERSION__;
#else
  return "unknown compiler";
#endif
}

// FNV-1a, 64-bit (Fowler, Noll, Vo; draft-eastlake-fnv): offset basis 14695981039346656037,
// prime 1099511628211.
std::uint64_t fnv1a64(std::string_view data) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : data) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}
}  // namespace

host_facts collect_host_facts(const fs::path& root) {
  host_facts f;
  utsname u{};
  if (::uname(&u) == 0) {
    f.hostname = u.nodename;
    f.kernel = fmt::format("{} {} {}", u.sysname, u.release, u.machine);
  }
  if (const auto cpuinfo = read_text(under(root, "/proc/cpuinfo"))) {
    for (const char* key : {"model name", "Model", "Hardware", "cpu model", "Processor"}) {
      if (auto v = field(*cpuinfo, key)) {
        f.cpu_model = *v;
        break;
      }
    }
    std::istringstream lines(*cpuinfo);
    for (std::string line; std::getline(lines, line);) {
      if (line.starts_with("processor") && line.find(':') != std::string::npos) ++f.cores;
    }
  }
  if (f.cpu_model.empty()) f.cpu_model = "unknown";
  if (f.cores == 0) f.cores = static_cast<unsigned>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
  if (const auto meminfo = read_text(under(root, "/proc/meminfo"))) {
    if (auto total = field(*meminfo, "MemTotal")) {  // "263921096 kB"
      std::uint64_t kib = 0;
      std::from_chars(total->data(), total->data() + total->size(), kib);
      f.memory_mib = kib / 1024;
    }
  }
  if (const auto os_release = read_text(under(root, "/etc/os-release"))) {
    std::istringstream lines(*os_release);
    for (std::string line; std::getline(lines, line);) {
      if (!line.starts_with("PRETTY_NAME=")) continue;
      std::string v = trim(line.substr(12));
      if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front())
        v = v.substr(1, v.size() - 2);
      f.os = v;
    }
  }
  f.compiler = compiler_version();
  std::error_code ec;
  const fs::path gpus = under(root, "/proc/driver/nvidia/gpus");
  for (const auto& entry : fs::directory_iterator(gpus, ec)) {
    if (const auto info = read_text(entry.path() / "information")) {
      if (auto model = field(*info, "Model")) f.gpus.push_back(*model);
    }
  }
  std::sort(f.gpus.begin(), f.gpus.end());
  f.fingerprint = host_fingerprint(f);
  return f;
}

std::string host_fingerprint(const host_facts& f) {
  const std::string identity =
      fmt::format("hostname={}\ncpu={}\ncores={}\nmemory_gib={}\ngpus={}\n", f.hostname, f.cpu_model,
                  f.cores, (f.memory_mib + 512) / 1024, fmt::join(f.gpus, ";"));
  return fmt::format("{:016x}", fnv1a64(identity));
}

nlohmann::json to_json(const host_facts& f) {
  return {{"hostname", f.hostname}, {"cpu_model", f.cpu_model}, {"cores", f.cores},
          {"memory_mib", f.memory_mib}, {"os", f.os},             {"kernel", f.kernel},
          {"compiler", f.compiler},     {"gpus", f.gpus},         {"fingerprint", f.fingerprint}};
}

std::optional<load_average> read_load_average(const fs::path& root) {
  const auto text = read_text(under(root, "/proc/loadavg"));
  if (!text) return std::nullopt;
  std::istringstream in(*text);
  load_average l;
  if (!(in >> l.one >> l.five >> l.fifteen)) return std::nullopt;
  return l;
}

frequency_policy read_frequency_policy(const fs::path& root) {
  frequency_policy p;
  std::set<std::string> governors;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(under(root, "/sys/devices/system/cpu"), ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("cpu") || name.size() == 3 ||
        name.find_first_not_of("0123456789", 3) != std::string::npos)
      continue;
    if (const auto g = read_text(entry.path() / "cpufreq/scaling_governor")) governors.insert(trim(*g));
  }
  if (!governors.empty()) p.governor = fmt::format("{}", fmt::join(governors, ","));
  const std::pair<const char*, bool> turbo_files[] = {
      {"/sys/devices/system/cpu/intel_pstate/no_turbo", true},
      {"/sys/devices/system/cpu/cpufreq/boost", false},
      {"/sys/devices/system/cpu/cpufreq/policy0/boost", false},
  };
  for (const auto& [file, inverted] : turbo_files) {
    if (const auto v = read_text(under(root, file))) {
      const std::string t = trim(*v);
      if (t != "0" && t != "1") continue;
      p.turbo = (t == "1") != inverted;
      p.turbo_source = file;
      break;
    }
  }
  return p;
}

noise_inputs read_noise_inputs(const std::string& pin, const fs::path& root) {
  noise_inputs in;
  in.cores = static_cast<unsigned>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
  in.load = read_load_average(root);
  in.other_busy = measure_other_busy_cpus(0.5, root);
  in.policy = read_frequency_policy(root);
  in.pin = pin;
  return in;
}

std::vector<std::string> noise_warnings(const noise_inputs& in) {
  std::vector<std::string> warnings;
  const double busy = std::max(0.75, 0.2 * in.cores);
  if (in.other_busy) {
    if (*in.other_busy > busy)
      warnings.push_back(in.pin.empty() ? fmt::format("other processes keep {:.1f} of {} CPUs busy — stop other work or pass --pin",
                                                      *in.other_busy, in.cores)
                                        : fmt::format("other processes keep {:.1f} of {} CPUs busy while pinned to {} — stop other "
                                                      "work, or pin to CPUs nothing else uses", *in.other_busy, in.cores, in.pin));
  } else if (in.load && in.load->one > busy) {
    warnings.push_back(
        in.pin.empty()
            ? fmt::format("load average {:.1f} on {} CPUs — stop other work or pass --pin", in.load->one, in.cores)
            : fmt::format("load average {:.1f} on {} CPUs while pinned to {} — stop other work, or pin to "
                          "CPUs nothing else uses", in.load->one, in.cores, in.pin));
  }
  if (in.policy.governor && *in.policy.governor != "performance") {
    warnings.push_back(fmt::format("CPU frequency governor is '{}' — set it to performance "
                                   "(sudo cpupower frequency-set -g performance) for steadier timings",
                                   *in.policy.governor));
  }
  if (in.policy.turbo.value_or(false)) {
    warnings.push_back(in.policy.turbo_source.find("no_turbo") != std::string::npos
        ? fmt::format("turbo boost is on — timings follow temperature; disable it (echo 1 | sudo tee {}) "
                      "or run more rounds", in.policy.turbo_source)
        : fmt::format("CPU boost is on — timings follow temperature; disable it (echo 0 | sudo tee {}) "
                      "or run more rounds", in.policy.turbo_source));
  }
  return warnings;
}

bool host_has_cuda_device(const std::filesystem::path& root) {
  return std::filesystem::exists(root / "dev/nvidia0") || std::filesystem::exists(root / "proc/driver/nvidia/gpus");
}

}  // namespace abtest::exec
