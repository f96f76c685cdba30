// The tile-level trace of the device-wide scans: which block took which tile, what each tile
// published in its descriptor (X -> A -> P), which predecessors it inspected and what it saw there,
// how long it waited. Fixed-size records, shared by the host and by the GPU's traced kernels.
#pragma once

#include <cstdint>

#include "core/hd.hpp"
#include "core/payload.hpp"
#include "core/tile_flag.hpp"

namespace sv {

enum class TileEventKind : std::uint8_t {
  Start,    // a block took the tile (tile id from the counter, or the block index)
  Publish,  // the tile published `flag` with `value` in the descriptor of `target`: its own, or (share=on)
            // P in that of an earlier tile its look-back's last window found the prefix of
  Inspect,  // the tile read predecessor `target`'s descriptor and saw `flag` and `value`
  Wait,     // the tile began waiting: predecessor `target` still showed `flag` (X, or A in a chained scan)
  End,      // the tile stored its outputs
  Record,   // the tile stored `value` in its descriptor's aggregate (flag A) or inclusive-prefix (flag P)
            // field, where flag and value are separate words; the Publish stores the flag. With a
            // fence the value comes first; with fence=off it may land after the flag (emulator times
            // are when a store issues: readers see it one latency later)
  // The pipelined kernel's warp roles (GPU, sm_90 on; gpu/pipeline_exec.cuh), after its Start (the
  // load warp took the id and issued the tile's bulk copies):
  Landed,    // a reduce warp's quarter of the tile arrived in shared memory (four a tile)
  LookBack,  // a look-back warp took the tile: its polls (Inspect, Wait) and its P follow
  Held,      // the store group read the tile into registers, freeing its stage
  Store,     // the store group had the tile's exclusive prefix and began scanning and storing (End: done)
};
inline constexpr int kTileEventKindCount = 10;

// Which events carry a value (the others store null in the JSON form).
constexpr bool tile_event_has_value(TileEventKind k) {
  return k == TileEventKind::Publish || k == TileEventKind::Inspect || k == TileEventKind::Record;
}

// Which events name another tile (`target`; the others store null in the JSON form).
constexpr bool tile_event_has_target(TileEventKind k) {
  return k == TileEventKind::Publish || k == TileEventKind::Inspect || k == TileEventKind::Wait ||
         k == TileEventKind::Record;
}

struct TileEvent {
  std::uint64_t time = 0;    // ns (GPU %globaltimer) or emulator cycles
  std::int64_t tile = -1;    // the tile doing it
  std::int64_t target = -1;  // Publish: the tile itself or a shared P's tile; Inspect/Wait: the predecessor; else -1
  std::uint32_t block = 0;   // CTA index
  std::uint32_t spins = 0;   // Inspect: polls of this window that saw an X before this read
  std::uint16_t sm = 0;
  std::uint16_t pass = 0;    // index of the kernel launch (the trace step) it belongs to
  TileEventKind kind = TileEventKind::Start;
  TileFlag flag = TileFlag::X;
  Payload value;
};

}  // namespace sv
