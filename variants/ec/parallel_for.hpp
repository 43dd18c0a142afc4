// parallel_for: the host thread fan-out shared by the MSM, the NTT and the prover.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace zk {

// Threads to use when the caller asks for 0 ("all of them").
inline unsigned resolve_threads(unsigned nthreads) {
  if (nthreads != 0) return nthreads;
  return std::max(1u, std::thread::hardware_concurrency());
}

// Calls fn(i) for every i in [0, n) on up to `nthreads` threads (0 = all cores), the calling
// thread included; tasks are taken in order from a shared counter. The first exception thrown by
// a task is rethrown here after all threads have stopped.
template <class Fn>
void parallel_for(size_t n, unsigned nthreads, Fn&& fn) {
  const size_t nworkers = std::min<size_t>(resolve_threads(nthreads), n);
  if (nworkers <= 1) {
    for (size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&] {
    try {
      for (size_t i; (i = next.fetch_add(1)) < n;) fn(i);
    } catch (...) {
      std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
      next = n;
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(nworkers - 1);
  for (size_t t = 1; t < nworkers; ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace zk
