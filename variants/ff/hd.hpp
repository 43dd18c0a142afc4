// ZK_HD marks functions that run on both CPU and GPU (empty in a plain C++ build, sppark's pattern);
// ZK_UNROLL fully unrolls a fixed-count limb loop on either compiler.
#pragma once

#ifdef __CUDACC__
#define ZK_HD __host__ __device__
#define ZK_UNROLL _Pragma("unroll")
#else
#define ZK_HD
// Fully unrolled limb loops: g++ -O2 does not unroll, and the rolled CIOS loop kept limbs in memory
// (Fr mul 3× slower; measured with field-bench).
#define ZK_UNROLL _Pragma("GCC unroll 16")
#endif
