// The executor's and the builder's process runner: poll loop over stdout, stderr and the child's
// pidfd.
#include "harness/exec/process.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include <fmt/format.h>

#include "harness/exec/child_process.hpp"
#include "harness/exec/cpu_list.hpp"
#include "harness/exec/proc_text.hpp"

namespace abtest::exec {

namespace {
using steady = std::chrono::steady_clock;

// Poll period used to notice the child's exit on kernels without pidfd_open (< 5.3).
constexpr std::chrono::milliseconds no_pidfd_period{2};
// After the child exits, how long to keep draining pipes that its killed group members held.
constexpr std::chrono::seconds drain_limit{2};
constexpr std::size_t read_chunk = 64u << 10;

void keep(captured_stream& s, const char* data, std::size_t n, std::size_t head_limit,
          std::size_t tail_limit) {
  s.total_bytes += n;
  const std::size_t room = head_limit - std::min(head_limit, s.head.size());
  s.head.append(data, std::min(room, n));
  if (n > room) s.truncated = true;
  s.tail.append(data, n);
  // Trim in batches so that a stream of small reads costs amortised O(1) per byte.
  if (s.tail.size() >= 2 * tail_limit + read_chunk) s.tail.erase(0, s.tail.size() - tail_limit);
}

// One stream cut into lines for process_options::on_line: the part of a line not yet ended.
struct line_splitter {
  std::string pending;
  void feed(const char* data, std::size_t n, const std::function<void(std::string_view)>& on_line) {
    pending.append(data, n);
    std::size_t begin = 0;
    for (std::size_t eol; (eol = pending.find('\n', begin)) != std::string::npos; begin = eol + 1)
      on_line(std::string_view(pending).substr(begin, eol - begin));
    for (; pending.size() - begin >= line_limit; begin += line_limit)  // a line without end: its pieces
      on_line(std::string_view(pending).substr(begin, line_limit));
    pending.erase(0, begin);
  }
  void finish(const std::function<void(std::string_view)>& on_line) {
    if (!pending.empty()) on_line(pending);
    pending.clear();
  }
};

double seconds(const timeval& tv) { return static_cast<double>(tv.tv_sec) + tv.tv_usec * 1e-6; }

int poll_timeout_ms(steady::time_point now, std::optional<steady::time_point> until, bool has_pidfd) {
  auto wait = std::chrono::milliseconds(-1);
  if (until) {
    wait = std::max(std::chrono::milliseconds(0),
                    std::chrono::ceil<std::chrono::milliseconds>(*until - now));
  }
  if (!has_pidfd && (wait.count() < 0 || wait > no_pidfd_period)) wait = no_pidfd_period;
  return static_cast<int>(wait.count());
}
// "Threads:" of /proc/<pid>/status; 0 when it cannot be read (the process is gone).
int thread_count(pid_t pid) {
  const auto status = read_proc_text(fmt::format("/proc/{}/status", pid));
  if (!status) return 0;
  std::istringstream lines(*status);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("Threads:", 0) == 0) return std::atoi(line.c_str() + 8);
  return 0;
}

constexpr std::chrono::milliseconds thread_watch_period{10};

}  // namespace

process_result run_process(const process_options& options) {
  process_result result;
  spawn_options spawn;
  spawn.argv = options.argv;
  spawn.working_dir = options.working_dir;
  spawn.env = options.env;
  if (!options.hardware_counters) spawn.counters.clear();
  if (!options.pin.empty()) {
    cpu_list_result cpus = parse_cpu_list(options.pin);
    if (!cpus.error.empty()) {
      result.error = cpus.error;
      return result;
    }
    spawn.cpus = std::move(cpus.cpus);
  }

  result.started_at_unix =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  const auto start = steady::now();
  std::optional<child_process> child = child_process::start(spawn, result.error);
  if (!child) return result;
  result.started = true;

  std::optional<steady::time_point> deadline;
  if (options.timeout_s > 0)
    deadline = start + std::chrono::duration_cast<steady::duration>(
                           std::chrono::duration<double>(options.timeout_s));
  std::optional<steady::time_point> kill_at, drain_until;
  std::optional<steady::time_point> exited_at;
  const std::size_t tail_limit = options.tail_limit;
  std::array<char, read_chunk> buf;

  unique_fd* streams[2] = {&child->stdout_pipe(), &child->stderr_pipe()};
  captured_stream* captures[2] = {&result.out, &result.err};
  line_splitter lines[2];
  const std::size_t limits[2] = {options.stdout_limit, options.stderr_limit};
  const bool has_pidfd = static_cast<bool>(child->exit_fd());

  // Until the child has exited and both pipes are at EOF: read whatever is ready, wake for the
  // child's exit (pidfd) or the next deadline (timeout → SIGTERM, grace → SIGKILL, drain limit).
  while (*streams[0] || *streams[1] || !exited_at) {
    const auto now = steady::now();
    if (!exited_at && deadline && now >= *deadline && !result.timed_out) {
      result.timed_out = true;
      child->signal_group(SIGTERM);
      kill_at = now + std::chrono::duration_cast<steady::duration>(
                          std::chrono::duration<double>(options.kill_grace_s));
    }
    if (!exited_at && kill_at && now >= *kill_at) {
      child->signal_group(SIGKILL);
      kill_at.reset();
    }
    if (drain_until && now >= *drain_until) break;  // something outside the group holds a pipe

    std::array<pollfd, 3> fds{};
    nfds_t nfds = 0;
    int index_of[3] = {-1, -1, -1};
    for (int i = 0; i < 2; ++i) {
      if (*streams[i]) {
        index_of[nfds] = i;
        fds[nfds++] = {streams[i]->get(), POLLIN, 0};
      }
    }
    if (!exited_at && has_pidfd) {
      index_of[nfds] = 2;
      fds[nfds++] = {child->exit_fd().get(), POLLIN, 0};
    }
    std::optional<steady::time_point> until =
        exited_at ? drain_until : (kill_at ? kill_at : (result.timed_out ? std::nullopt : deadline));
    int timeout_ms = poll_timeout_ms(now, until, has_pidfd || exited_at.has_value());
    if (options.watch_threads && !exited_at) {
      result.usage.max_threads = std::max(result.usage.max_threads, thread_count(child->pid()));
      if (timeout_ms < 0 || timeout_ms > thread_watch_period.count()) timeout_ms = static_cast<int>(thread_watch_period.count());
    }
    const int ready = ::poll(fds.data(), nfds, timeout_ms);
    if (ready < 0 && errno != EINTR) {
      result.error = fmt::format("poll: {} — the sample was abandoned and its processes killed", std::strerror(errno));
      child->signal_group(SIGKILL);
      break;
    }

    for (nfds_t k = 0; ready > 0 && k < nfds; ++k) {
      if (fds[k].revents == 0 || index_of[k] == 2) continue;
      const int i = index_of[k];
      const ssize_t n = ::read(streams[i]->get(), buf.data(), buf.size());
      if (n > 0) {
        keep(*captures[i], buf.data(), static_cast<std::size_t>(n), limits[i], tail_limit);
        if (options.on_line) lines[i].feed(buf.data(), static_cast<std::size_t>(n), options.on_line);
      } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        streams[i]->reset();
        if (options.on_line) lines[i].finish(options.on_line);
      }
    }
    if (!exited_at && child->exited()) {
      exited_at = steady::now();
      // Whatever the child left running in its group dies with the sample.
      child->signal_group(SIGKILL);
      drain_until = *exited_at + drain_limit;
    }
  }

  if (options.on_line)
    for (line_splitter& l : lines) l.finish(options.on_line);  // streams still open at the drain limit
  const child_process::exit_info info = child->reap();
  result.counters = child->counters().read();
  result.counters_unavailable = child->counters().unavailable_reason();
  if (WIFEXITED(info.status)) result.exit_code = WEXITSTATUS(info.status);
  if (WIFSIGNALED(info.status)) result.signal = WTERMSIG(info.status);
  for (captured_stream* c : captures) {
    if (c->tail.size() > tail_limit) c->tail.erase(0, c->tail.size() - tail_limit);
  }
  result.usage.wall_s = std::chrono::duration<double>(exited_at.value_or(steady::now()) - start).count();
  result.usage.user_s = seconds(info.usage.ru_utime);
  result.usage.sys_s = seconds(info.usage.ru_stime);
  result.usage.maxrss_mib = static_cast<double>(info.usage.ru_maxrss) / 1024.0;  // Linux: KiB
  result.usage.minflt = static_cast<double>(info.usage.ru_minflt);
  result.usage.majflt = static_cast<double>(info.usage.ru_majflt);
  result.usage.nvcsw = static_cast<double>(info.usage.ru_nvcsw);
  result.usage.nivcsw = static_cast<double>(info.usage.ru_nivcsw);
  return result;
}

}  // namespace abtest::exec
