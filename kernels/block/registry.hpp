// The block-level algorithms' dispatch from a name to the algorithm's kernel type, both read from the
// algorithm table (algorithms.def). The types are only declared here, so a file that dispatches by
// name does not compile every algorithm's source; cmake/block_units.cmake reads the same rows and
// generates each algorithm's compilation units, which include its header (KoggeStoneDoubleBuffer:
// block/kogge_stone_double_buffer.hpp).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace sv {

#define SCANVIZ_BLOCK_ALGORITHM(name, Type, ...) struct Type;
#define SCANVIZ_DEVICE_ALGORITHM(...)
#include "algorithms.def"
#undef SCANVIZ_BLOCK_ALGORITHM
#undef SCANVIZ_DEVICE_ALGORITHM

// What with_block_algorithm hands its callback: `type` is the algorithm's kernel type.
template <class Algo>
struct BlockAlgorithmTag {
  using type = Algo;
};

// Calls f(BlockAlgorithmTag<Algo>{}) for the algorithm named `name`; throws std::invalid_argument
// for an unknown name. The algorithms' switches and closed forms are in algorithms.hpp.
template <class F>
void with_block_algorithm(std::string_view name, F&& f) {
#define SCANVIZ_BLOCK_ALGORITHM(name_, Type, ...) \
  if (name == name_) {                            \
    f(BlockAlgorithmTag<Type>{});                 \
    return;                                       \
  }
#define SCANVIZ_DEVICE_ALGORITHM(...)
#include "algorithms.def"
#undef SCANVIZ_BLOCK_ALGORITHM
#undef SCANVIZ_DEVICE_ALGORITHM
  throw std::invalid_argument("algorithm: unknown block algorithm '" + std::string(name) + "'");
}

}  // namespace sv
