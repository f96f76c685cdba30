// The device-wide algorithms' switches (`--option key=value`, listed by `scanviz algos`), parsed into
// what the kernels and the emulator's machine model need. Which algorithm takes which switch is its
// row's (algorithms.def); the emulator's machine switches are every algorithm's.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms.hpp"
#include "core/ops.hpp"
#include "device/device_params.hpp"
#include "core/schedule.hpp"

namespace sv {

struct SwitchInfo {
  std::string_view key;
  std::string_view fallback;    // the default value
  bool machine;  // the emulator's machine: every algorithm takes it; else the rows that list it
  bool emulator_only;
  std::string_view help;
  bool gpu_only = false;  // the GPU's pipelined kernel: the emulator cannot run it
};
std::span<const SwitchInfo> device_switches();
// Whether `algo` takes the switch: its row lists it, or it is the emulator's machine's.
bool switch_applies(const SwitchInfo& s, const DeviceAlgorithmInfo& algo);
// The algorithms that list the switch, in the table's order and separated by spaces ("all" for the
// emulator's machine).
std::string switch_algorithms(const SwitchInfo& s);

// stall=TILE:CYCLES[:look-back][,...]: a tile waits that long after taking its id (start), or after
// publishing its aggregate, before it looks back (look-back). The GPU takes one stall, at the start.
struct TileStall {
  enum class At : std::uint8_t { Start, LookBack };
  std::int64_t tile = -1;
  std::int64_t cycles = 0;
  At at = At::Start;
};

// The emulator's machine: simulated multiprocessors, resident blocks, launch order, latencies.
struct EmuMachine {
  std::int32_t sms = 4;
  std::int32_t resident = 2;       // blocks resident on one SM at a time
  Schedule launch;                 // the order blocks are launched in: in-order, reverse, random:SEED
  std::int32_t latency = 400;      // cycles of a global memory round trip
  std::vector<TileStall> stalls;   // the emulator's stalls (DeviceParams::stall_tile is the GPU's one)
  // jitter=SEED (0: off): each of a block's global round trips (its tile id, its tile's loads, a
  // look-back read) takes 0..latency-1 cycles more, drawn from SEED, as a GPU's memory takes longer
  // one time than another: where look-backs stop then changes from seed to seed.
  std::uint64_t jitter = 0;
  // 64-bit values in one 16-byte descriptor whose two 8-byte halves land apart (the flag first): the
  // torn read the GPU kernels assume never happens (gpu/tile_descriptors.cuh).
  bool torn = false;
};

// pipelined=on (GPU, sm_90 on): the pipelined decoupled look-back kernel (gpu/pipeline_exec.cuh),
// which the benchmark's default runs on large inputs, traced per warp role.
struct PipelinedRun {
  bool on = false;
  std::int32_t stages = 9;  // 24 KB tiles a block holds in shared memory
  std::int32_t blocks = 0;  // at most this many blocks (0: every multiprocessor)
};

struct DeviceConfig {
  DeviceParams params;                         // n, tiles and exclusive are filled by the caller
  std::string block_algorithm;                 // hierarchical only
  EmuMachine machine;
  PipelinedRun pipelined;
  std::map<std::string, std::string> options;  // every switch of the algorithm, with its value
};

// The tile policy (threads x items per thread) of the tile-level kernels for a value type.
inline constexpr std::int32_t kTileThreads = 256;
// `segmented`: of the (value, flag) pairs of a segmented scan (8 bytes for int32 and float, 16 for the
// 64-bit types, 24 for the interval), as gpu::tile_items_per_thread sizes them.
std::int32_t default_items_per_thread(ValueType type, bool segmented = false);

// Validates `given` for `algorithm` (unknown keys, bad values, emulator-only switches on the GPU)
// and fills in the defaults; `requested_threads` is --block (0 = the default). Throws
// std::invalid_argument with a one-line reason naming the option.
DeviceConfig parse_device_config(std::string_view algorithm, const std::map<std::string, std::string>& given,
                                 ValueType type, std::int32_t requested_threads, bool on_gpu, bool segmented = false);

// "256 threads x 16 items = 4096 elements per tile"
std::string tile_policy(const DeviceParams& p);

}  // namespace sv
