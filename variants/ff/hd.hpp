// ZK_HD marks functions that run on both CPU and GPU; empty in a plain C++ build (sppark's pattern).
#pragma once

#ifdef __CUDACC__
#define ZK_HD __host__ __device__
#else
#define ZK_HD
#endif
