// SIGINT/SIGTERM while an experiment measures: a flag the schedule reads between samples, so that a
// stop ends the experiment after the sample in flight (design §6), and the old handlers restored after.
#pragma once

#include <signal.h>

namespace abtest {

// Installs SIGINT/SIGTERM handlers for the duration of a schedule and restores the old ones.
class stop_signals {
 public:
  stop_signals();
  ~stop_signals();
  stop_signals(const stop_signals&) = delete;
  stop_signals& operator=(const stop_signals&) = delete;

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

// True once SIGINT or SIGTERM arrived since the current stop_signals was installed.
bool stop_requested();

}  // namespace abtest
