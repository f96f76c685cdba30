// The device-wide scans' kernels per value type, declared for device_executor.cu's dispatch: each
// type's are instantiated in a compilation unit of its own (kernels/CMakeLists.txt generates them
// with device_runs_impl.cuh), so they compile in parallel; decoupled look-back's measured tile
// policies and its clocked runs are in device_policies.cu.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/payload.hpp"
#include "gpu/device_launcher.cuh"
#include "gpu/gather_exec.cuh"

namespace sv::gpu {

// Every operator on values of T, traced into `trace`, over (flag, value) pairs when `segmented`
// (record_device_scan_gpu).
template <class T>
struct DeviceTracedRuns {
  static void record(OpKind op, bool segmented, const std::string& algorithm, const DeviceConfig& dc,
                     const GpuOptions& options, Trace& trace);
};

// The sums DeviceScanSum runs, for a numeric T.
template <class T>
struct DeviceSums {
  // `algorithm` (a device-wide scan or tiles-alone) under the type's default tile configuration;
  // static_where_resident: Launcher::static_ids_where_resident.
  static void run(Scratch& scratch, SinglePassState& state, const std::string& algorithm,
                  std::string_view block_algorithm, const DeviceParams& p, TileKnobs knobs, bool reuse,
                  bool static_where_resident, const void* in, void* out);
  // Decoupled look-back pipelined (gpu/pipeline_exec.cuh): `stages` tiles a block.
  static void run_pipelined(Scratch& scratch, SinglePassState& state, const DeviceParams& p, TileKnobs knobs,
                            bool reuse, int stages, const void* in, void* out);
  // The elements the device's blocks of the pipelined sum hold in `stages` stages each; 0 where a
  // block of that many stages does not fit, or the loaded kernel was built before sm_90.
  static std::int64_t pipelined_capacity(int stages);
  // Decoupled look-back's gather kernel (gpu/gather_exec.cuh): tiles of `threads` x `items`, items a
  // multiple of the values in 16 bytes (1, 2 or 4 vectors a thread); the scan or a baseline (GatherRun).
  static void run_gather(SinglePassState& state, std::int64_t n, bool exclusive, std::int32_t threads,
                         std::int32_t items, GatherRun what, const void* in, void* out);
};

extern template struct DeviceTracedRuns<std::int32_t>;
extern template struct DeviceTracedRuns<std::int64_t>;
extern template struct DeviceTracedRuns<float>;
extern template struct DeviceTracedRuns<double>;
extern template struct DeviceTracedRuns<Interval>;
extern template struct DeviceSums<std::int32_t>;
extern template struct DeviceSums<std::int64_t>;
extern template struct DeviceSums<float>;
extern template struct DeviceSums<double>;

// device_policies.cu: whether `t` is one of the tile configurations built for decoupled look-back's
// sum of `type` besides the default (pipelined ones for every numeric type), and a run under it.
bool policy_built_for(const TilePolicy& t, ValueType type);
void run_policy(const TilePolicy& t, ValueType type, Scratch& scratch, SinglePassState& state, const DeviceParams& p,
                TileKnobs knobs, const void* in, void* out);
// Elements per thread of the pipelined kernel's reduce and store warps for a numeric `type`.
std::int32_t pipe_items_of(ValueType type);

}  // namespace sv::gpu
