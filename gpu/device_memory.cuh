// RAII for device buffers, streams, events, staging buffers and host registrations (B1); destructors never throw.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <utility>

#include "gpu/cuda_ok.cuh"

namespace zk::gpu::detail {

template <class T>
class device_buffer {
 public:
  explicit device_buffer(size_t n) : n_(n) {
    if (n > 0) ZK_CUDA_OK(cudaMalloc(&ptr_, n * sizeof(T)));
  }
  ~device_buffer() {
    if (ptr_) cudaFree(ptr_);
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;

  T* get() const { return ptr_; }
  size_t size() const { return n_; }

 private:
  T* ptr_ = nullptr;
  size_t n_;
};

class stream {
 public:
  stream() { ZK_CUDA_OK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~stream() { cudaStreamDestroy(s_); }
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;

  cudaStream_t get() const { return s_; }
  void sync() const { ZK_CUDA_OK(cudaStreamSynchronize(s_)); }

 private:
  cudaStream_t s_{};
};

class event {
 public:
  event() { ZK_CUDA_OK(cudaEventCreate(&e_)); }
  ~event() { cudaEventDestroy(e_); }
  event(const event&) = delete;
  event& operator=(const event&) = delete;

  void record(const stream& s) { ZK_CUDA_OK(cudaEventRecord(e_, s.get())); }
  // Work queued on `s` after this waits for the event's last record.
  void wait_on(const stream& s) const { ZK_CUDA_OK(cudaStreamWaitEvent(s.get(), e_, 0)); }
  void sync() const { ZK_CUDA_OK(cudaEventSynchronize(e_)); }
  // Seconds from `start` to this event; both recorded, this one complete.
  double seconds_since(const event& start) const {
    ZK_CUDA_OK(cudaEventSynchronize(e_));
    float ms = 0;
    ZK_CUDA_OK(cudaEventElapsedTime(&ms, start.e_, e_));
    return ms / 1e3;
  }

 private:
  cudaEvent_t e_{};
};

// Page-locked host memory of its own (cudaHostAlloc): the staging buffers pageable copies go through.
class pinned_host_buffer {
 public:
  explicit pinned_host_buffer(size_t bytes) {
    if (bytes > 0) ZK_CUDA_OK(cudaHostAlloc(&ptr_, bytes, cudaHostAllocDefault));
  }
  ~pinned_host_buffer() {
    if (ptr_) cudaFreeHost(ptr_);
  }
  pinned_host_buffer(const pinned_host_buffer&) = delete;
  pinned_host_buffer& operator=(const pinned_host_buffer&) = delete;

  unsigned char* get() const { return static_cast<unsigned char*>(ptr_); }

 private:
  void* ptr_ = nullptr;
};

// B1: pins [ptr, ptr + bytes) with cudaHostRegister for the copies, unpins in release() (timed by
// the caller) or, on an early exit, in the destructor. A range the caller had already registered
// is used as it is and left registered. When cudaHostRegister fails (locked-memory limit, an
// unsupported mapping) the copies run from pageable memory instead and failure() says why: the
// caller records that B1 did not run rather than abort the measurement.
class host_registration {
 public:
  host_registration(const void* ptr, size_t bytes, bool enabled) {
    if (!enabled || bytes == 0) return;
    const cudaError_t err = cudaHostRegister(const_cast<void*>(ptr), bytes, cudaHostRegisterDefault);
    if (err == cudaSuccess) {
      ptr_ = const_cast<void*>(ptr);
      return;
    }
    cudaGetLastError();  // not sticky, but it would stay in cudaGetLastError for a later check
    if (err == cudaErrorHostMemoryAlreadyRegistered) return;
    failure_ = std::string(cudaGetErrorName(err)) + ": cudaHostRegister of " + std::to_string(bytes) +
               " bytes failed; the copies ran from pageable memory";
  }
  ~host_registration() {
    if (ptr_) cudaHostUnregister(ptr_);
  }
  host_registration(const host_registration&) = delete;
  host_registration& operator=(const host_registration&) = delete;

  // Empty when the range is pinned (or B1 is off); else why registration failed.
  const std::string& failure() const { return failure_; }

  void release() {
    if (!ptr_) return;
    void* p = std::exchange(ptr_, nullptr);
    ZK_CUDA_OK(cudaHostUnregister(p));
  }

 private:
  void* ptr_ = nullptr;
  std::string failure_;
};

inline double seconds_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

}  // namespace zk::gpu::detail
