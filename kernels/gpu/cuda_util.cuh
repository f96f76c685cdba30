// CUDA error checking that reports instead of exiting (every call checked), device memory owned
// by a scope, and CUDA events for timing. Shared by the executor and the benchmark.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "gpu/executor.hpp"

namespace sv::cuda {

inline std::string cuda_message(const char* what, cudaError_t err) {
  return std::string(what) + ": " + cudaGetErrorString(err) + " (" + cudaGetErrorName(err) + ")";
}

inline void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw GpuError(cuda_message(what, err));
}

#define SV_CUDA(call) ::sv::cuda::check((call), #call)

// Device memory owned by the host scope that made it.
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t count) : count_(count) {
    if (count_ > SIZE_MAX / sizeof(T)) throw GpuError("cannot allocate " + std::to_string(count_) + " elements on the GPU");
    if (count_) SV_CUDA(cudaMalloc(&ptr_, count_ * sizeof(T)));
  }
  ~DeviceArray() {
    if (ptr_) cudaFree(ptr_);
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return ptr_; }
  void upload(const T* src, std::size_t count) {
    SV_CUDA(cudaMemcpy(ptr_, src, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  void download(T* dst, std::size_t count) const {
    SV_CUDA(cudaMemcpy(dst, ptr_, count * sizeof(T), cudaMemcpyDeviceToHost));
  }

 private:
  std::size_t count_;
  T* ptr_ = nullptr;
};

class DeviceEvents {
 public:
  DeviceEvents() {
    SV_CUDA(cudaEventCreate(&start));
    SV_CUDA(cudaEventCreate(&stop));
  }
  ~DeviceEvents() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  cudaEvent_t start{}, stop{};
};

inline void check_launch(const char* what) {
  check(cudaGetLastError(), what);
  check(cudaDeviceSynchronize(), what);
}

}  // namespace sv::cuda
