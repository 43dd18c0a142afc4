// The `--pin` CPU list parser (Linux cpulist syntax, as in /sys/devices/system/cpu/online).
#include "harness/exec/cpu_list.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "harness/exec/text.hpp"

namespace abtest::exec {

namespace {
using detail::trim;

// CPU_SETSIZE of glibc: sched_setaffinity with a cpu_set_t cannot name a higher CPU.
constexpr int max_cpus = 1024;

bool parse_index(std::string_view s, int& out) {
  s = trim(s);
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc{} && end == s.data() + s.size() && out >= 0;
}
}  // namespace

cpu_list_result parse_cpu_list(std::string_view text) {
  cpu_list_result result;
  const auto fail = [&](std::string_view item) {
    result.cpus.clear();
    result.error = fmt::format("bad CPU list '{}' at '{}' — write CPUs like 0,2-3 (see `nproc`, lscpu)",
                               text, item);
    return result;
  };
  if (trim(text).empty()) return fail(text);
  std::string_view rest = text;
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view item = trim(rest.substr(0, comma));
    int first = 0, last = 0;
    if (const auto dash = item.find('-'); dash != std::string_view::npos) {
      if (!parse_index(item.substr(0, dash), first) || !parse_index(item.substr(dash + 1), last) ||
          last < first)
        return fail(item);
    } else if (!parse_index(item, first)) {
      return fail(item);
    } else {
      last = first;
    }
    if (last >= max_cpus) return fail(item);
    for (int cpu = first; cpu <= last; ++cpu) result.cpus.push_back(cpu);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  std::sort(result.cpus.begin(), result.cpus.end());
  result.cpus.erase(std::unique(result.cpus.begin(), result.cpus.end()), result.cpus.end());
  return result;
}

}  // namespace abtest::exec
