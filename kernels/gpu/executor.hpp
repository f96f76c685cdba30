// The GPU executor: runs the block-level kernels on a CUDA device, traced (into the same Trace the
// emulator records) or untraced. Host-only header: no CUDA types, so the app includes it either way;
// a build without nvcc links executor_none.cpp, which reports that there is no GPU support.
#pragma once

#include <cstdint>
#include <map>
#include <vector>
#include <stdexcept>
#include <string>

#include "tile_times.hpp"
#include "run/config.hpp"
#include "trace/trace.hpp"

namespace sv {

struct GpuError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct GpuStatus {
  bool usable = false;
  std::string error;  // why not, one line, e.g. "cudaGetDeviceCount: no CUDA-capable device is detected"
  std::string name;
  int cc_major = 0, cc_minor = 0, sm_count = 0;
  int shared_per_block = 0;  // the bytes of shared memory a block may opt in to (227 KB on sm_90)
  int driver_version = 0, runtime_version = 0;  // CUDA's encoding: 1000 * major + 10 * minor
  int memory_clock_khz = 0, memory_bus_bits = 0;  // the DRAM's peak clock and bus width (0: not reported)
};

// Never throws. Looks at device 0.
GpuStatus probe_gpu();
bool gpu_support_built();

inline constexpr std::uint64_t kMaxTraceCapacity = std::uint64_t{1} << 27;  // 12.9 GB of events

struct GpuOptions {
  std::uint64_t trace_capacity = 1u << 20;  // events the device buffer holds
  std::uint64_t amplify_seed = 0;           // race amplifier (0 = off)
};

// Runs config's algorithm traced on device 0. Throws std::invalid_argument for a configuration that
// cannot run and GpuError for any CUDA failure, a trace buffer too small (naming the capacity and
// the size needed) or a kernel fault (out-of-bounds access).
Trace record_block_scan_gpu(const BlockRunConfig& config, const GpuOptions& options = {});

// Runs a device-wide algorithm (hierarchical, reduce-then-scan, chained, decoupled-lookback) traced
// on device 0: the tile-level trace (tile ids, descriptor publishes and inspections, waits, %globaltimer
// time and SM) and a snapshot of every global buffer after every launch. n up to kMaxTracedDeviceN.
// A spin wait that runs out of its bound throws GpuError naming the tile.
Trace record_device_scan_gpu(const BlockRunConfig& config, const GpuOptions& options = {});

// Untraced device-wide scan of n elements generated on the device (int32 sum, any n up to
// kMaxDeviceN), checked against a sequential reference on the host. Returns the mismatches (0 when
// correct). Throws GpuError on any CUDA failure or a spin wait that ran out.
struct DeviceCheck {
  std::int64_t n = 0;
  std::int64_t mismatches = 0;
  std::int64_t first_mismatch = -1;
};
DeviceCheck verify_device_scan_gpu_i32(const std::string& algorithm, const std::map<std::string, std::string>& options,
                                       std::int64_t n, bool exclusive, std::uint64_t seed);

// One scanner (decoupled look-back's int32 inclusive sum under `options`, as the benchmark and the
// timing panel keep one) run on each step's input in turn, for tests of what it keeps from run to
// run (gpu/single_pass_state.cuh). A step may first stall a tile of its run (nanoseconds; the tile
// kernel's stall switch), first set the epoch the run takes (when > 0), or after its run put the
// host's count of tile ids off by `skew` (as a kernel that took other than the host counted would).
// Each result holds the output, the epoch the run took, and what the scanner's check() threw ("" if
// nothing). Throws GpuError for a CUDA failure outside check().
struct ScannerStep {
  std::vector<std::int32_t> input;
  std::int64_t stall_tile = -1, stall_ns = 0;
  unsigned long long start_epoch = 0;
  long long skew = 0;
};
struct ScannerResult {
  std::vector<std::int32_t> output;
  long long epoch = -1;
  std::string error;
};
std::vector<ScannerResult> run_scanner_gpu(const std::map<std::string, std::string>& options,
                                           const std::vector<ScannerStep>& steps);

// Decoupled look-back's sum of `type` (numeric) under every tile policy built for it (the default,
// which keeps its descriptors from run to run under epochs and on sm_90 hands large n to the
// pipelined kernel, and the measured alternatives: int32 and int64 many, float and double the
// pipelined ones and the default's tile kernel alone where the device runs them): one scanner per
// policy, run at each of `sizes` in turn (exclusive at odd positions), so a run finds the
// descriptors and counters the runs before it left; every output checked. `options`: decoupled
// look-back's switches (e.g. tile-ids=static, which persistent policies run as one tile a block; the
// pipelined policies, which take none, run only without them). `offset` (0..15): input and output
// start that many elements past an aligned allocation (1: neither is 16-byte aligned). Throws
// GpuError as above, std::invalid_argument for the interval type, a bad n or offset.
struct PolicyCheck {
  std::string policy;
  std::string ran;  // the policy that ran at n: `policy`, or what the default takes there (DeviceScanSum::policy_at)
  std::int64_t n = 0;
  bool exclusive = false;
  std::int64_t mismatches = 0;
};
std::vector<PolicyCheck> verify_tile_policies_gpu(ValueType type, const std::vector<std::int64_t>& sizes, std::uint64_t seed,
                                                  const std::map<std::string, std::string>& options = {},
                                                  std::int64_t offset = 0);

// Decoupled look-back's inclusive sum of `type` (int64 or double: the types whose descriptors are
// one 16-byte word, gpu/tile_descriptors.cuh) on one scanner under the default policy, `runs` times
// at n, run r on new values (seed + r): every descriptor a run reads held another value in the run
// before, so a torn read (this run's flag word with the last run's value word) shows as a wrong
// output. Returns each run's check. Throws GpuError as above, std::invalid_argument for another
// type, a bad n or run count.
std::vector<DeviceCheck> stress_descriptors_gpu(ValueType type, std::int64_t n, int runs, std::uint64_t seed);

// Decoupled look-back's int32 inclusive sum of n seeded small values under the default policy and
// `options` (its switches, e.g. window=16), run `runs` times in a row on one scratch (descriptors
// kept under epochs, as the benchmark runs it), its blocks noting three times a tile
// (gpu/tile_recorders.cuh TileClock): the last run's times in tile order (0 where a tile never got
// there; tile_times.hpp tile_phase_stats) and its output checked against the reference.
// Throws GpuError as above, std::invalid_argument for a bad n, run count or switch.
struct ClockedRun {
  std::vector<TileTimes> tiles;
  DeviceCheck check;
};
ClockedRun clock_decoupled_lookback_gpu(std::int64_t n, std::uint64_t seed, int runs = 5,
                                        const std::map<std::string, std::string>& options = {});

// A device-wide sum (config's algorithm, switches, type, input and exclusive; the default tile)
// run untraced `runs` times on one input on device 0, as `scanviz repeat` and the GPU tests of
// deterministic=on run it: run 0's outputs, and for each later run how many outputs' bits differ
// from run 0's and the first of them. Throws std::invalid_argument for another operator, a
// segmented scan, an input not of n values or fewer than one run; GpuError as above.
struct RepeatedRuns {
  std::vector<Payload> first;
  std::vector<std::int64_t> differing;         // runs 1, 2, ...: outputs whose bits differ from run 0's
  std::vector<std::int64_t> first_difference;  // ... the first of them (-1: none)
};
RepeatedRuns repeat_device_sum_gpu(const BlockRunConfig& config, int runs);

// Runs the untraced kernel `runs` times on the same input and counts the wrong outputs. With an
// amplify seed S != 0, run r uses seed S + r.
struct WrongCount {
  int runs = 0;
  int wrong = 0;
  double median_kernel_us = 0;
};
WrongCount count_wrong_outputs_gpu(const BlockRunConfig& config, int runs, std::uint64_t amplify_seed);

}  // namespace sv
