// The pipelined kernel traced per warp role (decoupled-lookback with pipelined=on, sm_90 on): the
// output against the reference, every tile through every role once and in causal order, each
// look-back read the flag and value its target published, the stages a block holds never more than
// it has, and the refusals where it cannot run.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "../helpers.hpp"
#include "../skips.hpp"
#include "core/values.hpp"
#include "gpu/executor.hpp"
#include "analysis/pipeline.hpp"

using namespace sv;

namespace {

const GpuStatus& gpu() {
  static const GpuStatus g = probe_gpu();
  return g;
}
bool runs_pipelined() { return gpu().cc_major >= 9 && gpu().shared_per_block >= 227 * 1024; }
constexpr const char* kNoPipelined = "the pipelined kernel needs compute capability 9.0 and 227 KB of shared memory a block";

Trace record_pipelined(std::int64_t n, ValueType type, const std::map<std::string, std::string>& extra, std::uint64_t seed) {
  BlockRunConfig c = sv_test::config("decoupled-lookback", n, OpKind::Sum, type, "in-order", false, seed);
  c.options = extra;
  c.options["pipelined"] = "on";
  return record_device_scan_gpu(c);
}

struct Roles {
  int start = 0, landed = 0, look = 0, held = 0, store = 0, end = 0, a = 0, p = 0;
  std::uint64_t t_start = 0, t_landed = 0, t_a = 0, t_p = 0, t_look = 0, t_held = 0, t_store = 0, t_end = 0;
  std::uint32_t block = 0;
};

void check_pipelined_trace(const Trace& t, int stages, int max_blocks) {
  CAPTURE(t.meta.n);
  CAPTURE(type_name(t.meta.type));
  const std::vector<Payload> ref = reference_scan(OpKind::Sum, t.meta.type, t.meta.input, false);
  CHECK(mismatches(OpKind::Sum, t.meta.type, t.meta.input, false, ref, t.result.output).empty());
  const std::int64_t tiles = t.meta.grid, tile_items = t.meta.capacity;
  const bool wide = t.meta.type == ValueType::I64 || t.meta.type == ValueType::F64;
  CHECK(tile_items * (wide ? 8 : 4) == 24 * 1024);
  // The reference's inclusive prefix at the end of `tile` (the sum of its elements and all before).
  auto prefix_of = [&](std::int64_t tile) {
    const std::int64_t last = std::min((tile + 1) * tile_items, t.meta.n) - 1;
    return std::pair(ref[static_cast<std::size_t>(last)], static_cast<std::size_t>(last + 1));
  };
  std::map<std::int64_t, Roles> roles;
  std::set<std::uint32_t> blocks;
  int bad_reads = 0, bad_targets = 0;
  for (const TileEvent& e : t.tile_events) {
    REQUIRE(e.tile >= 0);
    REQUIRE(e.tile < tiles);
    Roles& r = roles[e.tile];
    switch (e.kind) {
      case TileEventKind::Start:
        ++r.start;
        r.t_start = e.time;
        r.block = e.block;
        blocks.insert(e.block);
        break;
      case TileEventKind::Landed: ++r.landed, r.t_landed = std::max(r.t_landed, e.time); break;
      case TileEventKind::LookBack: ++r.look, r.t_look = e.time; break;
      case TileEventKind::Held: ++r.held, r.t_held = e.time; break;
      case TileEventKind::Store: ++r.store, r.t_store = e.time; break;
      case TileEventKind::End: ++r.end, r.t_end = e.time; break;
      case TileEventKind::Publish: {
        CHECK(e.target == e.tile);
        const auto [want, terms] = prefix_of(e.tile);
        if (e.flag == TileFlag::P) {
          ++r.p;
          r.t_p = e.time;
          CHECK(values_match(t.meta.type, want, e.value, terms));
        } else {
          ++r.a;
          r.t_a = e.time;
        }
        break;
      }
      case TileEventKind::Inspect: {  // a P read is the target's inclusive prefix
        if (e.target < 0 || e.target >= e.tile) {
          ++bad_targets;
        } else if (e.flag == TileFlag::X) {
          ++bad_reads;  // a used read never saw X
        } else if (e.flag == TileFlag::P) {
          const auto [want, terms] = prefix_of(e.target);
          if (!values_match(t.meta.type, want, e.value, terms)) ++bad_reads;
        }
        break;
      }
      case TileEventKind::Wait: if (e.target < 0 || e.target >= e.tile) ++bad_targets; break;
      case TileEventKind::Record: FAIL_CHECK("the GPU records value and flag as one Publish event"); break;
    }
  }
  CHECK(bad_reads == 0);
  CHECK(bad_targets == 0);
  CHECK(static_cast<std::int64_t>(roles.size()) == tiles);
  CHECK(static_cast<int>(blocks.size()) == std::min<std::int64_t>(tiles, max_blocks ? max_blocks : gpu().sm_count));
  for (const auto& [tile, r] : roles) {
    CAPTURE(tile);
    CHECK(r.start == 1);
    CHECK(r.landed == 4);  // one a reduce warp
    CHECK(r.look == 1);
    CHECK(r.held == 1);
    CHECK(r.store == 1);
    CHECK(r.end == 1);
    CHECK(r.p == 1);
    CHECK(r.a == (tile == 0 ? 0 : 1));
    // Causal order: the copy lands after the id is taken, A after the copy, P after the look-back
    // took the tile and after A, the stores after P and after the group holds the tile.
    CHECK(r.t_start <= r.t_landed);
    if (tile > 0) CHECK(r.t_landed <= r.t_a);
    if (tile > 0) CHECK(r.t_a <= r.t_p);
    CHECK(r.t_look <= r.t_p);
    CHECK(r.t_p <= r.t_store);
    CHECK(r.t_held <= r.t_store);
    CHECK(r.t_store <= r.t_end);
  }
  // Each block takes its tiles in increasing order, and holds no more of them in its stages than it
  // has: a tile is taken only once the store group read the tile stages ago (Held).
  const PipelineRun run = make_pipeline_run(t);
  CHECK(run.stages == stages);
  CHECK(run.complete == tiles);
  for (std::uint32_t b : run.blocks) {
    std::int64_t last = -1;
    for (const PipelineTile& p : run.tiles) {
      if (p.block != b) continue;
      CHECK(p.tile > last);
      last = p.tile;
      CHECK(stages_in_use(run, b, p.taken) <= stages);
    }
  }
}

}  // namespace

TEST_CASE("gpu device trace: the pipelined kernel, every tile through every warp role in order" * sv_test::skip_unless(runs_pipelined(), kNoPipelined)) {
  // Full tiles, a partial last tile, a single tile, and a capped grid that makes each block take
  // several rounds of its stages; 4- and 8-byte values.
  struct Case {
    ValueType type;
    std::int64_t n;
    std::map<std::string, std::string> extra;
    int stages, blocks;
  };
  const std::vector<Case> cases = {
      {ValueType::I32, 6144 * 40, {}, 9, 0},
      {ValueType::I32, 6144 * 40 + 17, {{"blocks", "3"}, {"stages", "4"}}, 4, 3},
      {ValueType::F64, 3072 * 60 - 5, {{"blocks", "2"}, {"stages", "4"}}, 4, 2},
      {ValueType::I64, 1000, {}, 9, 0},
  };
  for (const Case& c : cases) {
    for (std::uint64_t seed : {1u, 2u}) {
      CAPTURE(seed);
      check_pipelined_trace(record_pipelined(c.n, c.type, c.extra, seed), c.stages, c.blocks);
    }
  }
}

TEST_CASE("gpu device trace: pipelined=on refuses what its kernel does not scan" * sv_test::skip_unless(runs_pipelined(), kNoPipelined)) {
  BlockRunConfig c = sv_test::config("decoupled-lookback", 10000, OpKind::Max, ValueType::I32, "in-order", false, 1);
  c.options["pipelined"] = "on";
  CHECK_THROWS_WITH_AS(record_device_scan_gpu(c), doctest::Contains("traces the sum"), std::invalid_argument);
}
