// Records a block-level scan on the CPU emulator into a Trace: the entry point of `scanviz trace`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ops.hpp"
#include "core/payload.hpp"
#include "algorithms.hpp"
#include "emulator/schedule.hpp"
#include "trace/trace.hpp"

namespace sv {

struct BlockRunConfig {
  std::string algorithm;
  std::int64_t n = 8;
  std::int32_t block = 0;  // threads per block; 0 = the smallest that holds n
  OpKind op = OpKind::Sum;
  ValueType type = ValueType::I32;
  bool exclusive = false;
  std::vector<Payload> input;    // empty: seeded random input of length n
  std::uint64_t input_seed = 1;  // seed of the random input
  Schedule schedule;
};

// Throws std::invalid_argument for a configuration that cannot run (unknown algorithm, n too large,
// operator and type that don't go together, wrong input length) and EmulationError when the kernel
// does something the emulator cannot continue from.
Trace record_block_scan(const BlockRunConfig& config);

// The parts every executor shares: validate the configuration and fill trace.meta (all but the
// executor) and return the block; then store the output and judge it against the reference.
BlockShape prepare_block_trace(const BlockRunConfig& config, Trace& trace);
void finish_block_trace(Trace& trace, std::vector<Payload> output);

}  // namespace sv
