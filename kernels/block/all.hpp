// Every block-level algorithm, and the dispatch from its registry name to its kernel type.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "block/blelloch.hpp"
#include "block/brent_kung.hpp"
#include "block/kogge_stone.hpp"
#include "block/kogge_stone_double_buffer.hpp"
#include "block/kogge_stone_racy.hpp"
#include "block/sklansky.hpp"
#include "block/warp_brent_kung.hpp"
#include "block/warp_raking.hpp"
#include "block/warp_sklansky.hpp"

namespace sv {

// Calls f(Algo{}) for the algorithm named `name`; throws std::invalid_argument for an unknown name.
template <class F>
void with_block_algorithm(std::string_view name, F&& f) {
  if (name == "kogge-stone-racy") f(KoggeStoneRacy{});
  else if (name == "kogge-stone") f(KoggeStone{});
  else if (name == "kogge-stone-double-buffer") f(KoggeStoneDoubleBuffer{});
  else if (name == "brent-kung") f(BrentKung{});
  else if (name == "blelloch") f(Blelloch{});
  else if (name == "sklansky") f(Sklansky{});
  else if (name == "warp-brent-kung") f(WarpBrentKung{});
  else if (name == "warp-raking") f(WarpRaking{});
  else if (name == "warp-sklansky") f(WarpSklansky{});
  else throw std::invalid_argument("unknown algorithm '" + std::string(name) + "' (scanviz algos lists them)");
}

}  // namespace sv
