// One block-level algorithm run on the CPU emulator with an operator chosen at run time. Each
// algorithm is instantiated in a compilation unit of its own (cmake/block_units.cmake generates them
// from the algorithm table, algorithms.def, with emulated_block_impl.hpp), so they compile in parallel.
#pragma once

#include <string_view>

#include "block/block_params.hpp"
#include "core/ops.hpp"
#include "emulator/block_emulator.hpp"

namespace sv {

template <class Algo>
struct EmulatedBlock {
  // Runs Algo with the operator (op, type), over (flag, value) pairs when `segmented`, on `emu`.
  static void run(BlockEmulator& emu, OpKind op, ValueType type, bool segmented, const BlockParams& p);
};

// EmulatedBlock of the algorithm named `algo`; throws std::invalid_argument for an unknown name.
void emulate_block(std::string_view algo, BlockEmulator& emu, OpKind op, ValueType type, bool segmented,
                   const BlockParams& p);

}  // namespace sv
