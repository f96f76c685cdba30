// Portability macros so one kernel source compiles with nvcc (device code) and a host compiler.
#pragma once

#if defined(__CUDACC__)
#define SV_HD __host__ __device__
#define SV_FORCEINLINE __forceinline__
#else
#define SV_HD
#define SV_FORCEINLINE inline __attribute__((always_inline))
#endif

// The source line of the caller, taken as a default argument (GCC, Clang and nvcc all provide it).
#define SV_CALLER_LINE __builtin_LINE()
