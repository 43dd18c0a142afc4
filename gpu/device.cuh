// Device discovery shared by the CUDA entry points.
#pragma once

#include "gpu/api.hpp"

namespace zk::gpu::detail {

// ok when a device of compute capability ≥ 8.0 can run the kernels; else no_device with the reason.
status probe_device();

}  // namespace zk::gpu::detail
