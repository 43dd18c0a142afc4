// A benchmark stand-in for the executor tests: each mode is one behaviour (exit, crash, hang, spew).
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {
void burn_ms(double ms) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double, std::milli>(ms);
  volatile unsigned long x = 0;
  while (std::chrono::steady_clock::now() < until) x = x + 1;
}

void sleep_s(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

int usage() {
  std::fputs("usage: exec_test_child MODE [ARGS]\n"
             "  args ...          print each argument followed by a NUL byte\n"
             "  env NAME          print $NAME or <unset>\n"
             "  cwd               print the working directory\n"
             "  affinity          print the CPUs this process may run on, comma-separated\n"
             "  print TEXT        print TEXT on stdout;  eprint TEXT: on stderr\n"
             "  exit N            exit with code N\n"
             "  crash | abort     SIGSEGV | SIGABRT\n"
             "  sleep S           sleep S seconds\n"
             "  ignore-term S     ignore SIGTERM, then sleep S seconds\n"
             "  fork-sleep S      fork a child that sleeps S; print its pid; sleep S\n"
             "  fork-linger S     fork a child that sleeps S holding stdout; print its pid; exit 0\n"
             "  spew MB           write MB MiB of 'x' lines on stdout\n"
             "  burn MS           spin on the CPU for MS milliseconds\n"
             "  burn-cpu MS       burn MS ms, then print `cpu N` (the CPU it ran on)\n",
             stderr);
  return 2;
}

pid_t fork_sleeper(double s) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    sleep_s(s);
    ::_exit(0);
  }
  std::printf("%d\n", static_cast<int>(pid));
  std::fflush(stdout);
  return pid;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string_view mode = argv[1];
  const double arg = argc > 2 ? std::atof(argv[2]) : 0.0;
  if (mode == "args") {
    for (int i = 2; i < argc; ++i) std::fwrite(argv[i], 1, std::strlen(argv[i]) + 1, stdout);
  } else if (mode == "env" && argc > 2) {
    const char* v = std::getenv(argv[2]);
    std::fputs(v != nullptr ? v : "<unset>", stdout);
  } else if (mode == "cwd") {
    char buf[4096];
    if (::getcwd(buf, sizeof buf) != nullptr) std::fputs(buf, stdout);
  } else if (mode == "affinity") {
    cpu_set_t set;
    CPU_ZERO(&set);
    ::sched_getaffinity(0, sizeof set, &set);
    std::string out;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &set)) out += (out.empty() ? "" : ",") + std::to_string(cpu);
    }
    std::fputs(out.c_str(), stdout);
  } else if (mode == "print" && argc > 2) {
    std::fputs(argv[2], stdout);
  } else if (mode == "eprint" && argc > 2) {
    std::fputs(argv[2], stderr);
  } else if (mode == "exit") {
    return static_cast<int>(arg);
  } else if (mode == "crash") {
    ::signal(SIGSEGV, SIG_DFL);  // a sanitizer build of this helper would otherwise catch it and exit 1
    ::raise(SIGSEGV);
  } else if (mode == "abort") {
    std::abort();
  } else if (mode == "sleep") {
    sleep_s(arg);
  } else if (mode == "ignore-term") {
    ::signal(SIGTERM, SIG_IGN);
    std::puts("ready");
    std::fflush(stdout);
    sleep_s(arg);
  } else if (mode == "fork-sleep") {
    fork_sleeper(arg);
    sleep_s(arg);
  } else if (mode == "fork-linger") {
    fork_sleeper(arg);
  } else if (mode == "spew") {
    const std::string line(1023, 'x');
    const long lines = static_cast<long>(arg * 1024);
    for (long i = 0; i < lines; ++i) std::printf("%s\n", line.c_str());
  } else if (mode == "burn") {
    burn_ms(arg);
  } else if (mode == "burn-cpu") {
    burn_ms(arg);
    std::printf("cpu %d\n", sched_getcpu());
  } else {
    return usage();
  }
  return 0;
}
