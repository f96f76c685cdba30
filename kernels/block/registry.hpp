// The block-level algorithms' registry: the dispatch from a registry name to the algorithm's kernel
// type. The types are only declared here, so a file that dispatches by name does not compile every
// algorithm's source; cmake/block_units.cmake reads the lines below and generates each algorithm's
// compilation units, which include its header (KoggeStoneDoubleBuffer: kogge_stone_double_buffer.hpp).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace sv {

struct Blelloch;
struct BrentKung;
struct KoggeStone;
struct KoggeStoneDoubleBuffer;
struct KoggeStoneRacy;
struct Sklansky;
struct WarpBrentKung;
struct WarpRaking;
struct WarpSklansky;

// What with_block_algorithm hands its callback: `type` is the algorithm's kernel type.
template <class Algo>
struct BlockAlgorithmTag {
  using type = Algo;
};

// Calls f(BlockAlgorithmTag<Algo>{}) for the algorithm named `name`; throws std::invalid_argument
// for an unknown name. The algorithms' names, switches and closed forms are in algorithms.cpp.
template <class F>
void with_block_algorithm(std::string_view name, F&& f) {
  if (name == "kogge-stone-racy") f(BlockAlgorithmTag<KoggeStoneRacy>{});
  else if (name == "kogge-stone") f(BlockAlgorithmTag<KoggeStone>{});
  else if (name == "kogge-stone-double-buffer") f(BlockAlgorithmTag<KoggeStoneDoubleBuffer>{});
  else if (name == "brent-kung") f(BlockAlgorithmTag<BrentKung>{});
  else if (name == "blelloch") f(BlockAlgorithmTag<Blelloch>{});
  else if (name == "sklansky") f(BlockAlgorithmTag<Sklansky>{});
  else if (name == "warp-brent-kung") f(BlockAlgorithmTag<WarpBrentKung>{});
  else if (name == "warp-raking") f(BlockAlgorithmTag<WarpRaking>{});
  else if (name == "warp-sklansky") f(BlockAlgorithmTag<WarpSklansky>{});
  else throw std::invalid_argument("unknown algorithm '" + std::string(name) + "' (scanviz algos lists them)");
}

}  // namespace sv
