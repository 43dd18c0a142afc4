// ZK_CUDA_OK: the one checking macro for host CUDA calls, and the boundary that turns its exception into a status.
#pragma once

#include <cuda_runtime.h>

#include <new>
#include <stdexcept>
#include <string>

#include "gpu/api.hpp"

namespace zk::gpu::detail {

// A failed CUDA call; what() = "<cudaError name>: <expr>@<file>:<line>".
struct cuda_error : std::runtime_error {
  cudaError_t code;
  cuda_error(cudaError_t c, const std::string& what) : std::runtime_error(what), code(c) {}
};

[[noreturn]] inline void throw_cuda_error(cudaError_t code, const char* expr, const char* file, int line) {
  throw cuda_error(code, std::string(cudaGetErrorName(code)) + ": " + expr + "@" + file + ":" + std::to_string(line));
}

// Runs fn() and maps what it throws to a status: cuda_error → status_code::cuda_error,
// std::invalid_argument → invalid_argument, std::bad_alloc → cuda_error (host memory).
template <class Fn>
status guarded(Fn&& fn) {
  try {
    fn();
    return {};
  } catch (const cuda_error& e) {
    return {status_code::cuda_error, e.what()};
  } catch (const std::invalid_argument& e) {
    return {status_code::invalid_argument, e.what()};
  } catch (const std::bad_alloc&) {
    return {status_code::cuda_error, "host memory exhausted — use a smaller size"};
  }
}

}  // namespace zk::gpu::detail

// Host only: throws zk::gpu::detail::cuda_error with expr@file:line when `expr` is not cudaSuccess.
#define ZK_CUDA_OK(expr)                                                                       \
  do {                                                                                         \
    const cudaError_t zk_cuda_ok_code = (expr);                                                \
    if (zk_cuda_ok_code != cudaSuccess)                                                        \
      ::zk::gpu::detail::throw_cuda_error(zk_cuda_ok_code, #expr, __FILE__, __LINE__);         \
  } while (0)
