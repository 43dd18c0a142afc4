// The SIGINT/SIGTERM flag of a measuring experiment (stop_signals.hpp).
#include "harness/experiment/stop_signals.hpp"

#include <atomic>

namespace abtest {
namespace {

std::atomic<bool> g_stop{false};

extern "C" void on_stop_signal(int) { g_stop.store(true); }

}  // namespace

stop_signals::stop_signals() {
  g_stop = false;
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int_);
  sigaction(SIGTERM, &sa, &old_term_);
}

stop_signals::~stop_signals() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

bool stop_requested() { return g_stop.load(); }

}  // namespace abtest
