// The definition behind emulator/emulated_block.hpp, included only by the generated compilation
// units that instantiate one algorithm each.
#pragma once

#include "core/segmented.hpp"
#include "emulator/emulated_block.hpp"

namespace sv {

template <class Algo>
void EmulatedBlock<Algo>::run(BlockEmulator& emu, OpKind op, ValueType type, bool segmented, const BlockParams& p) {
  visit_op_maybe_segmented(op, type, segmented, [&](auto o) { emu.run([&](EmuExec& x) { Algo::run(x, o, p); }); });
}

}  // namespace sv
