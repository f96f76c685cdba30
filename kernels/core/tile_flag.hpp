// A tile descriptor's status in the single-pass scans (Merrill and Garland, "Single-pass Parallel
// Prefix Scan with Decoupled Look-back"): X nothing published yet, A the tile's aggregate, P its
// inclusive prefix. The kernels publish and read it; the tile-level trace records it.
#pragma once

#include <cstdint>

namespace sv {

enum class TileFlag : std::uint8_t { X = 0, A = 1, P = 2 };

}  // namespace sv
