// Other work's CPU use from /proc/stat and /proc/<pid>/stat, abtest's own process tree left out.
#include "harness/exec/other_load.hpp"

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "harness/exec/proc_text.hpp"

namespace abtest::exec {
namespace {
namespace fs = std::filesystem;

double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// /proc/<pid>/stat: "pid (comm) state ppid …", utime and stime the 14th and 15th fields; comm may
// hold spaces and parentheses, so the fields are counted after its last ')'.
std::optional<process_ticks> parse_process_stat(const std::string& text) {
  const auto close = text.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream in(text.substr(close + 1));
  std::string state;
  process_ticks p;
  in >> state >> p.ppid;
  std::uint64_t value = 0, utime = 0, stime = 0;
  for (int field = 5; field <= 15 && in >> value; ++field) {
    if (field == 14) utime = value;
    if (field == 15) stime = value;
  }
  if (!in) return std::nullopt;
  p.ticks = utime + stime;
  return p;
}

}  // namespace

std::optional<cpu_snapshot> read_cpu_snapshot(const fs::path& root) {
  cpu_snapshot s;
  s.at_s = now_s();
  std::ifstream stat(root / "proc/stat");
  std::string label;
  if (!(stat >> label) || label != "cpu") return std::nullopt;
  // user nice system idle iowait irq softirq steal (guest time is inside user already)
  std::uint64_t v[8] = {};
  for (auto& x : v) stat >> x;
  if (!stat) return std::nullopt;
  s.busy_ticks = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
  // Processes come and go while this walks /proc: one gone between listing and reading is skipped.
  std::error_code ec;
  for (fs::directory_iterator it(root / "proc", ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const auto text = read_proc_text(it->path() / "stat");
    if (!text) continue;
    if (const auto p = parse_process_stat(*text)) s.processes[std::stoi(name)] = *p;
  }
  return s;
}

double other_busy_cpus(const cpu_snapshot& a, const cpu_snapshot& b, int self, double ticks_per_s) {
  const double interval = b.at_s - a.at_s;
  if (interval <= 0 || ticks_per_s <= 0 || b.busy_ticks < a.busy_ticks) return 0;
  // self's tree as `b` sees it: a pid belongs when its parent chain reaches `self`.
  std::set<int> tree{self};
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [pid, p] : b.processes)
      if (!tree.count(pid) && tree.count(p.ppid)) grew = tree.insert(pid).second || grew;
  }
  std::uint64_t own = 0;
  for (const int pid : tree) {
    const auto now = b.processes.find(pid);
    if (now == b.processes.end()) continue;
    const auto before = a.processes.find(pid);
    const std::uint64_t start = before == a.processes.end() ? 0 : before->second.ticks;
    if (now->second.ticks > start) own += now->second.ticks - start;
  }
  const double busy = static_cast<double>(b.busy_ticks - a.busy_ticks) - static_cast<double>(own);
  return busy > 0 ? busy / ticks_per_s / interval : 0;
}

std::optional<double> measure_other_busy_cpus(double interval_s, const fs::path& root) {
  const auto a = read_cpu_snapshot(root);
  if (!a) return std::nullopt;
  std::this_thread::sleep_for(std::chrono::duration<double>(interval_s));
  const auto b = read_cpu_snapshot(root);
  if (!b) return std::nullopt;
  return other_busy_cpus(*a, *b, static_cast<int>(::getpid()), static_cast<double>(::sysconf(_SC_CLK_TCK)));
}

}  // namespace abtest::exec
