// What one run of a scan is asked to do (algorithm, n, operator, type, input, schedule, switches),
// resolved: the input drawn, the schedule parsed. Whichever executor runs it (the CPU emulator or the
// GPU) takes this; run/request.hpp is the same run as the user says it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/ops.hpp"
#include "core/payload.hpp"
#include "core/schedule.hpp"
#include "trace/trace.hpp"

namespace sv {

struct BlockRunConfig {
  std::string algorithm;
  std::int64_t n = 8;
  std::int32_t block = 0;  // threads per block; 0 = the smallest that holds n
  std::int32_t warp = 0;   // warp width of the warp-level algorithms; 0 = 32, or the block when smaller
  OpKind op = OpKind::Sum;
  ValueType type = ValueType::I32;
  bool exclusive = false;
  std::vector<Payload> input;    // empty: seeded random input of length n
  std::uint64_t input_seed = 1;  // seed of the random input
  Schedule schedule;
  std::map<std::string, std::string> options;  // device-wide algorithms' switches (--option key=value)
  std::vector<std::uint8_t> flags;  // segmented scan: one flag per element, 1 at a segment's head
  Application application;          // the scan of a compaction or an allocation (trace.hpp)
};

// Traces of device-wide scans snapshot every global buffer after every launch: n is capped for them
// (untraced GPU runs take any n up to 2^30).
inline constexpr std::int64_t kMaxTracedDeviceN = std::int64_t{1} << 22;
inline constexpr std::int64_t kMaxDeviceN = std::int64_t{1} << 30;

}  // namespace sv
