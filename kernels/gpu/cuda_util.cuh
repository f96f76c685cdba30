// CUDA error checking that reports instead of exiting (every call checked), device memory owned
// by a scope, and CUDA events for timing. Shared by the executor and the benchmark.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "block/block_params.hpp"
#include "core/ops.hpp"
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


// Host values <-> the trace's type-erased payloads.
template <class T>
std::vector<T> unpack(const std::vector<Payload>& values) {
  std::vector<T> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = values[i].as<T>();
  return out;
}

template <class T>
std::vector<Payload> pack(const std::vector<T>& values) {
  std::vector<Payload> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = Payload::of(values[i]);
  return out;
}

inline GpuStatus require_gpu() {
  GpuStatus s = probe_gpu();
  if (!s.usable) throw GpuError(s.error);
  return s;
}

// What every traced GPU run does first: check the trace capacity, find the device and name it in
// the trace's executor.
inline GpuStatus begin_gpu_trace(const GpuOptions& options, Trace& trace) {
  if (options.trace_capacity == 0 || options.trace_capacity > kMaxTraceCapacity)
    throw std::invalid_argument("the trace capacity must be 1 to " + std::to_string(kMaxTraceCapacity) + " events, not " +
                                std::to_string(options.trace_capacity));
  const GpuStatus gpu = require_gpu();
  const auto version = [](int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); };
  Executor& x = trace.meta.executor;
  x.kind = "gpu";
  x.device = gpu.name;
  x.compute_capability = std::to_string(gpu.cc_major) + "." + std::to_string(gpu.cc_minor);
  x.sm_count = gpu.sm_count;
  x.driver_version = version(gpu.driver_version);
  return gpu;
}

}  // namespace sv::cuda

namespace sv::gpu {

// executor.cu: the block-level kernel `algo` (kernels/block/), untraced, on `grid` blocks of
// `threads` threads, asynchronously on the default stream (launch errors are checked).
void launch_block_scan(std::string_view algo, OpKind op, ValueType type, const void* in, void* out,
                       const BlockParams& p, std::int64_t grid, std::int32_t threads);

// device_executor.cu: a tile policy of the tile kernels (threads x items, streaming cache hints);
// the default is the one the scanviz kernels use for 4-byte values. Other policies are built for decoupled
// look-back only, to measure them (scanviz bench with SCANVIZ_BENCH_POLICIES=1).
struct TilePolicy {
  std::int32_t threads = 256;
  std::int32_t items = 24;
  bool streaming = false;             // evict-first loads and stores of the elements
  std::int32_t min_blocks = 2;        // launch bound (of 1024-thread blocks): blocks per SM the registers must allow
  std::int32_t backoff_max_ns = 256;  // the look-back's longest sleep between polls (0: none)
  bool staged = true;                 // tiles staged in shared memory (else held in registers)
  bool prefetch = true;               // L2 prefetch of the block index's tile while the tile id comes
  bool reuse_descriptors = true;      // no memset a run: descriptors kept under a new epoch (TileKnobs)
  bool persistent = false;            // persistent blocks, two tiles each in flight (TileConfig)
  std::int32_t bulk = 0;              // bulk copies (sm_90 on): 1 the loads, 2 loads and stores (TileConfig)
  bool static_ids = false;            // tile ids from the block index (tile-ids=static), no counter
  std::int32_t stages = 0;            // pipelined (sm_90 on; gpu/pipeline_exec.cuh): tiles a block holds, 0: not
  bool l2_last = false;               // the input's L2 lines marked evict-last (a run-time knob, TileKnobs)
  // The default's kernel only: stay on it at every n. Otherwise the default hands large inputs to the
  // pipelined kernel where the device runs it (DeviceScanSum::policy_at).
  bool tiles_only = false;
  // The gather kernel (gpu/gather_exec.cuh): threads x items in 16-byte vectors, static tile ids, every
  // predecessor's aggregate read at once; the other fields unused.
  bool gather = false;
  bool early = false;  // early aggregates: published before the tile is scanned (TileConfig::kEarly)
  // The launch bound's block size: min_blocks blocks of this many threads a multiprocessor (1024:
  // the bound of the default kernels; 256 bounds 256-thread tiles to 5 or 6 a multiprocessor).
  std::int32_t bound_threads = 1024;
  std::string name() const;
  friend bool operator==(const TilePolicy&, const TilePolicy&) = default;
};
// The policies built besides the default for decoupled look-back's sum of `type`: the tile kernel's
// for int32 and int64, the default's with L2last flipped for every type, and on a device that runs
// the pipelined kernel its rows and the default's tile kernel at every n (tiles_only).
std::vector<TilePolicy> experimental_policies(ValueType type);
// The policy the scanviz kernels use for a sum of `type` (DeviceScanSum's default, which a
// default-constructed TilePolicy stands for): TilePolicy{} for 4-byte values. On sm_90 on it runs
// its tile kernel below pipelined_from(type) elements and pipelined_default(type) from there up.
TilePolicy default_policy(ValueType type);
// The gather kernel's shapes, the default's (512 threads of one 16-byte vector: 2048 4-byte values
// a tile, 1024 8-byte ones) first, then 128 to 1024 threads of one to four vectors.
std::vector<TilePolicy> gather_policies(ValueType type);
// The gather kernel the default runs at n: one 16-byte vector a thread, in 256-thread blocks up to
// kGatherSmallTiles of them (2^17 4-byte values, 2^16 8-byte ones), else in 512-thread blocks (the
// first of gather_policies) up to kGatherMaxTiles (2^20 4-byte values, 2^19 8-byte ones); threads 0
// (none) above: where each shape won against the tile kernel and the gather kernel's other shapes
// on the H200 and the H100 (docs/performance.md, "The gather kernel's small shape").
inline constexpr std::int64_t kGatherSmallTiles = 128;
inline constexpr std::int64_t kGatherMaxTiles = 512;
TilePolicy gather_policy_at(std::int64_t n, ValueType type);
// The tile kernel the default runs for 8-byte sums (int64, double) where the device holds all of its
// tiles at once (up to one_wave_up_to): 256 threads x 8 items, 16 KB tiles without the register bound,
// tile ids from the block index; threads 0 (none) for other types. It came closer to CUB than the
// default's 24 KB tiles under the 32-register bound (docs/performance.md, "Tile ids from the block
// index").
TilePolicy one_wave_policy(ValueType type);
// The tile kernels the default runs for 8-byte sums, in turn, while the device holds every tile of
// one at once (each up to one_wave_up_to of it): one_wave_policy, then its tiles bound to 6 of their
// blocks a multiprocessor (40 registers instead of 48 for int64 and 56 for double: 792 tiles on 132
// multiprocessors), then 24 KB tiles (256 x 12) under that bound, up to where the pipelined kernel
// takes over on sm_90. Empty for other types. Chosen over the 24 KB tiles under the 32-register
// bound and the pipelined kernel by their times against CUB there (docs/performance.md, "64-bit
// values in one wave").
std::vector<TilePolicy> one_wave_policies(ValueType type);
// device_policies.cu: the largest n whose tiles of t (one of one_wave_policies(type)) the current
// device holds at once; 0 for other types.
std::int64_t one_wave_up_to(const TilePolicy& t, ValueType type);
// The pipelined policy the default hands large inputs to: 9 stages, the input's L2 lines marked evict-last.
TilePolicy pipelined_default(ValueType type);
// The n from which the default runs pipelined_default(type) on the current device: pipelined_from_tiles
// tiles for each of the device's blocks of it (one a multiprocessor); INT64_MAX where the device
// does not run the pipelined kernel (before sm_90). 4-byte values from 9, so that every stage has a
// tile from the start; 8-byte values from 6, where the tile kernel with ids from the block index
// stopped winning (docs/performance.md, "The pipelined kernel from 9 tiles a multiprocessor" and
// "Tile ids from the block index").
constexpr int pipelined_from_tiles(ValueType type) {
  return type == ValueType::I64 || type == ValueType::F64 ? 6 : 9;
}
std::int64_t pipelined_from(ValueType type);

// device_executor.cu: an untraced device-wide sum (int32, int64, float or double) that keeps its
// scratch buffers (tile sums, descriptors) between runs, so a run is its launches alone: the
// single-pass scans' descriptors are kept under a new epoch (TileKnobs), not zeroed, unless the
// policy says memset. Tile policies other than the default's kernel are built for int32 and int64.
// run() is asynchronous on its stream (set_stream; the default stream unless set), d_in and d_out
// arrays of the type; check() synchronizes and throws GpuError if a spin wait ran out (naming the tile), a launch failed or the
// tile counter disagrees with the launches; the scanner then starts afresh (gpu/single_pass_state.cuh).
// A scanner belongs to one host thread and one stream at a time (set_stream): it must not be shared
// across threads, nor run on two streams at once.
// algorithm "tiles-alone" is the benchmark's baseline, not a scan: decoupled look-back's tiles each
// scanned on its own (no look-back; from the default's switch up on the pipelined kernel, as the
// default runs there), with the extra option hold=NS (each tile held NS nanoseconds before it is
// stored; the tile kernel at every n). algorithm "ordering-floor" is the other baseline, under a gather
// policy only: each tile's input copied to the output once the tile has published its flag and read
// every earlier tile's (GatherRun::ordered, gpu/gather_exec.cuh).
class DeviceScanSum {
 public:
  DeviceScanSum(const std::string& algorithm, const std::map<std::string, std::string>& options, ValueType type,
                TilePolicy policy = {});
  ~DeviceScanSum();
  DeviceScanSum(const DeviceScanSum&) = delete;
  DeviceScanSum& operator=(const DeviceScanSum&) = delete;
  void run(const void* d_in, void* d_out, std::int64_t n, bool exclusive = false);
  void check();
  // The stream later runs go to (0, the default stream, until set). The hierarchical scan's
  // block-level launch stays on the default stream, so only the other algorithms' runs can be
  // captured into a CUDA graph; a captured run of a single-pass scan keeps its epoch in the graph,
  // which must then be launched once (gpu/single_pass_state.cuh).
  void set_stream(cudaStream_t stream);
  // The policy a run of n elements takes: the scanner's, except that the default's (its switches
  // left alone, decoupled-lookback or tiles-alone) is pipelined_default from pipelined_from elements
  // up, gather_policy_at(n, ...) where that is one, decoupled look-back's one_wave_policies where one
  // is one and all its tiles fit on the device at once, and its tile kernel between (with tile ids from
  // the block index where the device holds all the tiles at once: Launcher::static_ids_where_resident). A run with a stall
  // pending for a test takes the tile kernel where it would gather.
  TilePolicy policy_at(std::int64_t n) const;

  // For tests of the single-pass state: the next run stalls `tile` for `ns` nanoseconds (as the
  // stall switch does, on the tile kernel); the next run that keeps its descriptors takes epoch
  // `next`; the host's count of tile ids taken is off by `skew`; the epoch of the last run (-1:
  // the next zeroes the descriptors).
  void stall_next_run_for_test(std::int64_t tile, std::int64_t ns);
  void start_epoch_for_test(unsigned long long next);
  void skew_tile_ids_for_test(long long skew);
  long long epoch() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sv::gpu
