// fork/execve of benchmark processes: process group, affinity, environment, exec error reporting.
#include "harness/exec/child_process.hpp"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <utility>

#include <fmt/format.h>

extern char** environ;

namespace abtest::exec {

namespace {
// What failed inside the child between fork and execve, sent to the parent over a CLOEXEC pipe:
// execve closes it on success, so EOF means "started".
enum class child_stage : int { chdir = 1, affinity, exec };
struct child_failure {
  child_stage stage;
  int error;
};

std::string stage_message(const child_failure& f, const spawn_options& o, const std::string& path) {
  switch (f.stage) {
    case child_stage::chdir:
      return fmt::format("cannot enter working directory {}: {} — check that it exists",
                         o.working_dir.string(), std::strerror(f.error));
    case child_stage::affinity:
      return fmt::format("cannot pin to the requested CPUs: {} — pass CPUs that are online and "
                         "allowed (see `taskset -cp $$`)", std::strerror(f.error));
    case child_stage::exec:
      return fmt::format("cannot execute {}: {} — check the benchmark command and that it was built",
                         path, std::strerror(f.error));
  }
  return "child failed before execve";
}

// The harness's environment with `changes` applied: a changed variable's inherited entry is left
// out, and only those set are added back.
std::vector<std::string> merged_environment(const env_changes& changes) {
  std::vector<std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string_view entry(*e);
    const auto eq = entry.find('=');
    if (changes.contains(std::string(entry.substr(0, eq)))) continue;
    env.emplace_back(entry);
  }
  for (const auto& [key, value] : changes)
    if (value) env.push_back(key + "=" + *value);
  return env;
}

std::string find_in_path(const std::string& name, const std::vector<std::string>& env) {
  std::string path_var = "/usr/local/bin:/usr/bin:/bin";
  for (const auto& e : env) {
    if (e.starts_with("PATH=")) path_var = e.substr(5);
  }
  std::string_view rest = path_var;
  while (true) {
    const auto colon = rest.find(':');
    std::string dir(rest.substr(0, colon));
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string_view::npos) return {};
    rest.remove_prefix(colon + 1);
  }
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

[[noreturn]] void report_and_exit(int report_fd, child_stage stage) {
  const child_failure f{stage, errno};
  [[maybe_unused]] auto n = ::write(report_fd, &f, sizeof f);
  ::_exit(127);
}

// Runs in the forked child: only async-signal-safe calls from here to execve.
[[noreturn]] void exec_child(const char* path, char* const* argv, char* const* envp, const char* dir,
                             const cpu_set_t* cpus, int null_fd, int out_fd, int err_fd, int go_fd,
                             int report_fd) {
  ::setpgid(0, 0);
  // If abtest itself dies (SIGKILL), the process it started dies with it instead of running on
  // unowned and disturbing the resumed experiment. (Its own children, e.g. the compilers of a
  // build tool, are not covered: they are in this group but not signalled by the kernel.)
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  // Ignored signals and the blocked mask survive execve: give the benchmark the defaults.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig != SIGKILL && sig != SIGSTOP) ::sigaction(sig, &dfl, nullptr);
  }
  sigset_t none;
  ::sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::dup2(null_fd, STDIN_FILENO);
  ::dup2(out_fd, STDOUT_FILENO);
  ::dup2(err_fd, STDERR_FILENO);
  if (dir != nullptr && ::chdir(dir) != 0) report_and_exit(report_fd, child_stage::chdir);
  if (cpus != nullptr && ::sched_setaffinity(0, sizeof(cpu_set_t), cpus) != 0) report_and_exit(report_fd, child_stage::affinity);
  // Wait until the parent has attached the hardware counters (they start at execve).
  std::uint64_t go = 0;
  while (::read(go_fd, &go, sizeof go) < 0 && errno == EINTR) {
  }
  // Descriptors the harness opened without O_CLOEXEC must not leak into the benchmark.
  ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
  ::execve(path, argv, envp);
  report_and_exit(report_fd, child_stage::exec);
}
}  // namespace

child_process::child_process(child_process&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      reaped_(std::exchange(other.reaped_, true)),
      out_(std::move(other.out_)),
      err_(std::move(other.err_)),
      pidfd_(std::move(other.pidfd_)),
      counters_(std::move(other.counters_)) {}

child_process& child_process::operator=(child_process&& other) noexcept {
  if (this != &other) {
    kill_and_reap();
    pid_ = std::exchange(other.pid_, -1);
    reaped_ = std::exchange(other.reaped_, true);
    out_ = std::move(other.out_);
    err_ = std::move(other.err_);
    pidfd_ = std::move(other.pidfd_);
    counters_ = std::move(other.counters_);
  }
  return *this;
}

child_process::~child_process() { kill_and_reap(); }

void child_process::kill_and_reap() noexcept {
  if (!reaped_ && pid_ > 0) {
    signal_group(SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    reaped_ = true;
  }
}

std::optional<child_process> child_process::start(const spawn_options& options, std::string& error) {
  if (options.argv.empty() || options.argv.front().empty()) {
    error = "empty benchmark command — give the benchmark a `command` in the manifest";
    return std::nullopt;
  }
  std::vector<std::string> env = merged_environment(options.env);
  std::string path = options.argv.front();
  if (path.find('/') == std::string::npos) {
    path = find_in_path(path, env);
    if (path.empty()) {
      error = fmt::format("command not found: {} — give its path or add its folder to PATH",
                          options.argv.front());
      return std::nullopt;
    }
  }
  std::vector<std::string> argv = options.argv;
  std::vector<char*> argv_c = c_strings(argv);
  std::vector<char*> envp_c = c_strings(env);
  const std::string dir = options.working_dir.string();
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  for (int cpu : options.cpus) CPU_SET(cpu, &cpus);

  int out_pipe[2], err_pipe[2], report_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    error = fmt::format("pipe: {} — raise the open-file limit (ulimit -n)", std::strerror(errno));
    return std::nullopt;
  }
  unique_fd out_read(out_pipe[0]), out_write(out_pipe[1]);
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    error = fmt::format("pipe: {} — raise the open-file limit (ulimit -n)", std::strerror(errno));
    return std::nullopt;
  }
  unique_fd err_read(err_pipe[0]), err_write(err_pipe[1]);
  if (::pipe2(report_pipe, O_CLOEXEC) != 0) {
    error = fmt::format("pipe: {} — raise the open-file limit (ulimit -n)", std::strerror(errno));
    return std::nullopt;
  }
  unique_fd report_read(report_pipe[0]), report_write(report_pipe[1]);
  unique_fd go(::eventfd(0, EFD_CLOEXEC));
  unique_fd null_fd(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (!go || !null_fd) {
    error = fmt::format("eventfd or /dev/null: {} — raise the open-file limit (ulimit -n)",
                        std::strerror(errno));
    return std::nullopt;
  }

  const pid_t pid = ::fork();
  if (pid < 0) {
    error = fmt::format("fork: {} — too many processes or not enough memory", std::strerror(errno));
    return std::nullopt;
  }
  if (pid == 0) {
    exec_child(path.c_str(), argv_c.data(), envp_c.data(), dir.empty() ? nullptr : dir.c_str(),
               options.cpus.empty() ? nullptr : &cpus, null_fd.get(), out_write.get(),
               err_write.get(), go.get(), report_write.get());
  }

  child_process child;
  child.pid_ = pid;
  child.reaped_ = false;
  // Also set here, so the group exists before the parent ever signals it (no race with the child).
  ::setpgid(pid, pid);
  out_write.reset();
  err_write.reset();
  report_write.reset();
  child.out_ = std::move(out_read);
  child.err_ = std::move(err_read);
  child.pidfd_.reset(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
  if (!options.counters.empty()) child.counters_.attach(pid, options.counters);

  const std::uint64_t one = 1;
  [[maybe_unused]] auto written = ::write(go.get(), &one, sizeof one);
  child_failure failure{};
  ssize_t n;
  while ((n = ::read(report_read.get(), &failure, sizeof failure)) < 0 && errno == EINTR) {
  }
  if (n == static_cast<ssize_t>(sizeof failure)) {
    error = stage_message(failure, options, path);
    child.reap();
    return std::nullopt;
  }
  return child;
}

bool child_process::exited() const {
  if (reaped_) return true;
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0) return true;
  return info.si_pid == pid_;
}

void child_process::signal_group(int sig) const {
  if (pid_ > 0 && !reaped_) ::kill(-pid_, sig);
}

child_process::exit_info child_process::reap() {
  exit_info info;
  if (reaped_) return info;
  while (::wait4(pid_, &info.status, 0, &info.usage) < 0 && errno == EINTR) {
  }
  reaped_ = true;
  return info;
}

}  // namespace abtest::exec
