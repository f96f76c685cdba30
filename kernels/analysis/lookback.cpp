// Look-back analysis of the tile-level trace.
#include "analysis/lookback.hpp"

#include <algorithm>
#include <cstddef>

#include "core/values.hpp"

namespace sv {

LookbackSummary summarize_lookback(const Trace& trace, int pass) {
  LookbackSummary s;
  if (pass < 0)
    for (const TileEvent& e : trace.tile_events) pass = std::max<int>(pass, e.pass);
  if (pass < 0) return s;
  std::int64_t tiles = 0;
  for (const TileEvent& e : trace.tile_events)
    if (e.pass == pass) tiles = std::max(tiles, e.tile + 1);
  s.tiles.resize(static_cast<std::size_t>(tiles));
  for (std::int64_t t = 0; t < tiles; ++t) s.tiles[t].tile = t;
  for (const TileEvent& e : trace.tile_events) {
    if (e.pass != pass) continue;
    TileSummary& t = s.tiles[static_cast<std::size_t>(e.tile)];
    switch (e.kind) {
      case TileEventKind::Start:
        t.block = e.block;
        t.sm = e.sm;
        t.start = e.time;
        break;
      case TileEventKind::Publish: {  // in the target's descriptor (a shared P: an earlier tile's); the first counts
        TileSummary& d = s.tiles[static_cast<std::size_t>(e.target)];
        std::int64_t& at = e.flag == TileFlag::A ? d.a_at : d.p_at;
        if (at < 0 || static_cast<std::int64_t>(e.time) < at) {
          at = static_cast<std::int64_t>(e.time);
          (e.flag == TileFlag::A ? d.aggregate : d.inclusive) = e.value;
        }
        break;
      }
      case TileEventKind::Inspect:
        t.inspections.push_back({e.target, e.flag, e.value, e.spins, e.time, false});
        t.spins += e.spins;
        break;
      case TileEventKind::Wait:
        if (!t.waited) t.wait_began = e.time;
        t.waited = true;
        t.waiting_for = e.target;
        break;
      case TileEventKind::End:
        t.end = e.time;
        t.ended = true;
        break;
      case TileEventKind::Record:  // the value ahead of its flag: the Publish that follows is what readers act on
      case TileEventKind::Landed:  // the pipelined kernel's warp roles: gui/pipeline_model.hpp reads them
      case TileEventKind::LookBack:
      case TileEventKind::Held:
      case TileEventKind::Store:
        break;
    }
  }
  for (TileSummary& t : s.tiles) {
    for (TileInspection& i : t.inspections) {
      const TileSummary& target = s.tiles.at(static_cast<std::size_t>(i.target));
      const bool published = i.flag == TileFlag::A ? target.a_at >= 0 : target.p_at >= 0;
      const Payload& expected = i.flag == TileFlag::A ? target.aggregate : target.inclusive;
      i.stale = !published || i.value != expected;  // a descriptor's value is copied, never recomputed
      s.stale_reads += i.stale;
    }
    s.inspections += static_cast<std::int64_t>(t.inspections.size());
    s.max_spins = std::max(s.max_spins, t.spins);
    s.waited_tiles += t.waited;
  }
  return s;
}

std::string describe_inspection(const Trace& trace, std::int64_t tile, const TileInspection& i) {
  const ValueType type = trace.meta.type;
  std::string out = "tile " + std::to_string(tile) + " inspected tile " + std::to_string(i.target) + ": saw " +
                    std::string(tile_flag_name(i.flag)) + " with " + format_value(type, i.value);
  if (i.spins) out += " after " + std::to_string(i.spins) + " polls";
  if (i.stale) {
    const auto switch_on = trace.meta.options.find("torn");
    const bool torn = switch_on != trace.meta.options.end() && switch_on->second == "on";
    for (const TileEvent& e : trace.tile_events)
      if (e.kind == TileEventKind::Publish && e.target == i.target && e.flag == i.flag) {
        out += ", but tile " + std::to_string(i.target) + " published " + std::string(tile_flag_name(i.flag)) +
               " with " + format_value(type, e.value) +
               (torn ? " (torn: the 16-byte descriptor's flag half arrived before its value half)"
                     : " (stale: the flag arrived before its value)");
        break;
      }
  }
  return out;
}

}  // namespace sv
