// The dispatch from an algorithm's name to its emulated runs (emulator/emulated_block.hpp).
#include "emulator/emulated_block.hpp"

#include "block/registry.hpp"

namespace sv {

void emulate_block(std::string_view algo, BlockEmulator& emu, OpKind op, ValueType type, bool segmented,
                   const BlockParams& p) {
  with_block_algorithm(algo, [&](auto a) { EmulatedBlock<typename decltype(a)::type>::run(emu, op, type, segmented, p); });
}

}  // namespace sv
