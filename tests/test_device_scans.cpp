// The device-wide scans on the CPU emulator: every algorithm against the one reference for every
// operator at sizes around the tile and beyond it, the switches' documented outcomes, and the
// tile-level trace's invariants.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/analysis.hpp"
#include "analysis/lookback.hpp"
#include "device/device_options.hpp"
#include "gpu/bench.hpp"
#include "helpers.hpp"
#include "trace/trace_json.hpp"

namespace {

using namespace sv;

const std::vector<std::string> kDeviceAlgos = {"hierarchical", "reduce-then-scan", "chained", "decoupled-lookback"};

Trace record_device(const std::string& algo, std::int64_t n, OpKind op, ValueType type, bool exclusive,
                    std::map<std::string, std::string> options = {}, std::int32_t block = 0, std::uint64_t seed = 1) {
  BlockRunConfig c = sv_test::config(algo, n, op, type, "in-order", exclusive, seed);
  c.options = std::move(options);
  c.block = block;
  return record_device_scan(c);
}

// The tile size of the default policy: hierarchical's block algorithm holds 1024 elements; the tile
// kernels take 256 threads x items by type.
std::int64_t tile_size(const std::string& algo, ValueType type) {
  return algo == "hierarchical" ? 1024 : 256 * default_items_per_thread(type);
}

void check_correct(const Trace& t) {
  const auto ref = reference_scan(t.meta.op, t.meta.type, t.meta.input, t.meta.exclusive);
  const auto wrong = mismatches(t.meta.op, t.meta.type, t.meta.input, t.meta.exclusive, ref, t.result.output);
  CHECK(wrong.empty());
  CHECK(t.result.outcome == Outcome::Correct);
  CHECK(t.result.output.size() == static_cast<std::size_t>(t.meta.n));
}

// Start once per tile, A before P (tile 0: P only), every inspection sees a flag its target published
// with exactly the value published with it, and P = the reference's inclusive prefix at the tile's end.
void check_tile_invariants(const Trace& t) {
  const std::int64_t tiles = t.meta.grid;
  const auto inclusive = reference_scan(t.meta.op, t.meta.type, t.meta.input, false);
  const LookbackSummary s = summarize_lookback(t);
  REQUIRE(static_cast<std::int64_t>(s.tiles.size()) == tiles);
  std::vector<int> starts(static_cast<std::size_t>(tiles), 0);
  for (const TileEvent& e : t.tile_events)
    if (e.kind == TileEventKind::Start) ++starts[static_cast<std::size_t>(e.tile)];
  for (std::int64_t k = 0; k < tiles; ++k) {
    CAPTURE(k);
    const TileSummary& tile = s.tiles[static_cast<std::size_t>(k)];
    CHECK(starts[static_cast<std::size_t>(k)] == 1);
    CHECK(tile.ended);
    REQUIRE(tile.p_at >= 0);
    if (k == 0 || t.meta.algorithm == "chained") {
      CHECK(tile.a_at < 0);
    } else {
      REQUIRE(tile.a_at >= 0);
      CHECK(tile.a_at < tile.p_at);
    }
    const std::int64_t last = std::min<std::int64_t>((k + 1) * t.meta.capacity, t.meta.n) - 1;
    CHECK(format_value(t.meta.type, tile.inclusive) == format_value(t.meta.type, inclusive[static_cast<std::size_t>(last)]));
    for (const TileInspection& i : tile.inspections) {
      CHECK(i.target < k);
      CHECK(i.flag != TileFlag::X);
      CHECK_FALSE(i.stale);
    }
  }
  CHECK(s.stale_reads == 0);
}

}  // namespace

TEST_CASE("device scans: every algorithm, operator and size against the reference") {
  for (const std::string& algo : kDeviceAlgos)
    for (auto [op, type] : sv_test::all_ops()) {
      const std::int64_t tile = tile_size(algo, type);
      for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{2}, std::int64_t{1000}, tile - 1, tile,
                             tile + 1, std::int64_t{100003}})
        for (bool exclusive : {false, true}) {
          // hierarchical at n = 100003 emulates 100003 threads: every operator inclusive, and exclusive for sum
          if (algo == "hierarchical" && n == 100003 && exclusive && op != OpKind::Sum) continue;
          CAPTURE(algo);
          CAPTURE(op_name(op));
          CAPTURE(type_name(type));
          CAPTURE(n);
          CAPTURE(exclusive);
          const Trace t = record_device(algo, n, op, type, exclusive);
          CHECK(t.meta.capacity == tile);
          CHECK(t.meta.grid == (n + tile - 1) / tile);
          check_correct(t);
        }
    }
}

TEST_CASE("device scans: hierarchical with every race-free block algorithm and block size") {
  for (const std::string& block : sv_test::algorithms(sv_test::Rows::RaceFree))
    for (std::int32_t threads : {32, 128})
      for (bool exclusive : {false, true}) {
        CAPTURE(block);
        CAPTURE(threads);
        const Trace t = record_device("hierarchical", 5000, OpKind::Interval, ValueType::Interval, exclusive,
                                      {{"block-algo", block}}, threads);
        check_correct(t);
        // 5000 elements in tiles of 32 or 64 (or 128 or 256): the sums recurse at least two levels.
        int levels = 0;
        for (const Step& s : t.steps) levels = std::max<int>(levels, static_cast<int>(s.param));
        CHECK(levels >= 1);
      }
}

TEST_CASE("device scans: tile-level invariants of the single-pass scans") {
  for (const std::string algo : {"chained", "decoupled-lookback"})
    for (auto [op, type] : {std::pair{OpKind::Sum, ValueType::I32}, std::pair{OpKind::Interval, ValueType::Interval},
                            std::pair{OpKind::Max, ValueType::F64}})
      for (std::string launch : {"in-order", "reverse", "random:3"}) {
        CAPTURE(algo);
        CAPTURE(launch);
        CAPTURE(type_name(type));
        const Trace t = record_device(algo, 30011, op, type, false, {{"launch", launch}}, 64);
        check_correct(t);
        check_tile_invariants(t);
        // Dynamic ids go out in the order blocks take them: tile k's Start is no later than tile k+1's.
        const LookbackSummary s = summarize_lookback(t);
        for (std::size_t k = 1; k < s.tiles.size(); ++k) CHECK(s.tiles[k - 1].start <= s.tiles[k].start);
      }
}

TEST_CASE("device scans: static tile ids under an adversarial launch order deadlock, and the waiting tiles are named") {
  for (const std::string algo : {"chained", "decoupled-lookback"}) {
    CAPTURE(algo);
    const Trace t = record_device(algo, 100003, OpKind::Sum, ValueType::I32, false,
                                  {{"tile-ids", "static"}, {"launch", "reverse"}, {"sms", "3"}, {"resident", "2"},
                                   {"items", "16"}});
    REQUIRE(t.result.outcome == Outcome::Deadlock);
    CHECK(check_result(t).outcome == Outcome::Deadlock);
    // 25 tiles of 256 x 16, 6 slots, launched from the last: tiles 19..24 hold every slot and wait for 18.
    CHECK(t.result.waiting == std::vector<std::int64_t>{19, 20, 21, 22, 23, 24});
    const LookbackSummary s = summarize_lookback(t);
    for (std::int64_t k = 19; k < 25; ++k) {
      CHECK(s.tiles[static_cast<std::size_t>(k)].waited);
      CHECK_FALSE(s.tiles[static_cast<std::size_t>(k)].ended);
    }
    // The same order with dynamic ids, or static ids launched in order, completes.
    check_correct(record_device(algo, 100003, OpKind::Sum, ValueType::I32, false, {{"launch", "reverse"}}));
    check_correct(record_device(algo, 100003, OpKind::Sum, ValueType::I32, false, {{"tile-ids", "static"}}));
    // Few enough tiles to be resident at once: no deadlock even in reverse.
    check_correct(record_device(algo, 8 * 4096, OpKind::Sum, ValueType::I32, false,
                                {{"tile-ids", "static"}, {"launch", "reverse"}}));
    // The deadlock survives a save and a load.
    const Trace back = trace_from_json(trace_to_json(t));
    CHECK(back.result.outcome == Outcome::Deadlock);
    CHECK(back.result.waiting == t.result.waiting);
    CHECK(trace_to_json(back) == trace_to_json(t));
  }
}

// Whether every stale read of the run is described with `word` ("stale", or "torn" for a 16-byte
// descriptor read in halves).
static bool names_stale_reads(const Trace& t, const LookbackSummary& s, const std::string& word) {
  bool all = s.stale_reads > 0;
  for (const TileSummary& tile : s.tiles)
    for (const TileInspection& i : tile.inspections)
      if (i.stale) all &= describe_inspection(t, tile.tile, i).find(word) != std::string::npos;
  return all;
}

TEST_CASE("device scans: fence=off lets a reader see the flag before the value: stale reads, wrong result") {
  for (auto [op, type] : {std::pair{OpKind::Sum, ValueType::I32}, std::pair{OpKind::Interval, ValueType::Interval}}) {
    CAPTURE(type_name(type));
    const Trace off = record_device("decoupled-lookback", 100003, op, type, false, {{"fence", "off"}});
    CHECK(off.result.outcome == Outcome::Wrong);
    const LookbackSummary s = summarize_lookback(off);
    CHECK(s.stale_reads > 0);
    CHECK(names_stale_reads(off, s, "stale"));
    // With the fence (separate words for 64-bit values, one packed word for 32-bit ones): no stale read.
    const Trace on = record_device("decoupled-lookback", 100003, op, type, false, {{"fence", "on"}});
    check_correct(on);
    check_tile_invariants(on);
  }
  const Trace wide = record_device("chained", 100003, OpKind::Sum, ValueType::I64, false, {{"fence", "off"}});
  CHECK(wide.result.outcome == Outcome::Wrong);
}

TEST_CASE("device scans: torn=on reads a 16-byte descriptor's flag half before its value half: wrong, named torn") {
  for (const char* algo : {"chained", "decoupled-lookback"}) {
    for (ValueType type : {ValueType::I64, ValueType::F64}) {
      CAPTURE(algo);
      CAPTURE(type_name(type));
      const Trace torn = record_device(algo, 100003, OpKind::Sum, type, false, {{"torn", "on"}});
      CHECK(torn.result.outcome == Outcome::Wrong);
      const LookbackSummary s = summarize_lookback(torn);
      CHECK(s.stale_reads > 0);
      CHECK(names_stale_reads(torn, s, "torn"));
      // The same run with whole 16-byte reads (what the GPU kernels assume): right.
      const Trace whole = record_device(algo, 100003, OpKind::Sum, type, false, {{"torn", "off"}});
      check_correct(whole);
      CHECK(summarize_lookback(whole).stale_reads == 0);
    }
  }
  // Only 16-byte descriptors can tear: 4-byte values share one 8-byte word, fence=off keeps them apart.
  CHECK_THROWS_AS(record_device("decoupled-lookback", 1000, OpKind::Sum, ValueType::I32, false, {{"torn", "on"}}),
                  std::invalid_argument);
  CHECK_THROWS_AS(record_device("decoupled-lookback", 1000, OpKind::Sum, ValueType::I64, false,
                                {{"torn", "on"}, {"fence", "off"}}),
                  std::invalid_argument);
}

TEST_CASE("device scans: window=1 is the chained scan, and a wider window inspects further") {
  for (auto [op, type] : {std::pair{OpKind::Sum, ValueType::I32}, std::pair{OpKind::Interval, ValueType::Interval}}) {
    const Trace chained = record_device("chained", 100003, op, type, true);
    const Trace w1 = record_device("decoupled-lookback", 100003, op, type, true, {{"window", "1"}});
    check_correct(chained);
    check_correct(w1);
    CHECK(chained.result.output == w1.result.output);
    // The same inspections: each tile reads only its predecessor, and only once it shows P.
    const LookbackSummary a = summarize_lookback(chained), b = summarize_lookback(w1);
    REQUIRE(a.tiles.size() == b.tiles.size());
    for (std::size_t k = 1; k < a.tiles.size(); ++k) {
      REQUIRE(a.tiles[k].inspections.size() == 1);
      REQUIRE(b.tiles[k].inspections.size() == 1);
      CHECK(a.tiles[k].inspections[0].target == static_cast<std::int64_t>(k) - 1);
      CHECK(b.tiles[k].inspections[0].target == static_cast<std::int64_t>(k) - 1);
      CHECK(a.tiles[k].inspections[0].flag == TileFlag::P);
      CHECK(b.tiles[k].inspections[0].flag == TileFlag::P);
    }
  }
  // With a window of 32 some tile combines aggregates (A) of more than one predecessor.
  const LookbackSummary w32 = summarize_lookback(record_device("decoupled-lookback", 100003, OpKind::Sum, ValueType::I32, false));
  std::size_t widest = 0;
  for (const TileSummary& t : w32.tiles) widest = std::max(widest, t.inspections.size());
  CHECK(widest > 1);
}

TEST_CASE("device scans: share=on publishes the true P of the tiles after a look-back's nearest P") {
  for (auto [op, type] : {std::pair{OpKind::Sum, ValueType::I32}, std::pair{OpKind::Interval, ValueType::Interval},
                          std::pair{OpKind::Max, ValueType::F64}}) {
    CAPTURE(type_name(type));
    const std::map<std::string, std::string> base = {{"window", "4"}, {"stall", "2:20000"}, {"sms", "8"}};
    std::map<std::string, std::string> sharing = base;
    sharing["share"] = "on";
    const Trace off = record_device("decoupled-lookback", 200003, op, type, false, base, 64);
    const Trace on = record_device("decoupled-lookback", 200003, op, type, false, sharing, 64);
    check_correct(on);
    check_tile_invariants(on);  // a shared P is the target's inclusive prefix (the first P counts)
    const auto inclusive = reference_scan(on.meta.op, on.meta.type, on.meta.input, false);
    std::map<std::int64_t, std::uint64_t> own_p;  // when each tile's own P was stored
    std::size_t shares = 0;
    for (const TileEvent& e : on.tile_events) {
      if (e.kind != TileEventKind::Publish) continue;
      if (e.target == e.tile) {
        if (e.flag == TileFlag::P) own_p[e.tile] = e.time;
        continue;
      }
      ++shares;  // only P, only an earlier tile, only its true inclusive prefix
      CHECK(e.flag == TileFlag::P);
      CHECK(e.target < e.tile);
      const std::int64_t last = std::min<std::int64_t>((e.target + 1) * on.meta.capacity, on.meta.n) - 1;
      CHECK(format_value(type, e.value) == format_value(type, inclusive[static_cast<std::size_t>(last)]));
    }
    // A look-back that ended on a P its tile had not stored yet (stores are seen one latency later)
    // ended on a shared one. Few do: the tiles a window shows as A after its nearest P store their
    // own P about as soon (counted, not asserted; the same holds on the GPU, where share=on is slower).
    const auto latency = static_cast<std::uint64_t>(std::stoll(on.meta.options.at("latency")));
    std::size_t ended_on_shared = 0;
    for (const TileEvent& e : on.tile_events)
      if (e.kind == TileEventKind::Inspect && e.flag == TileFlag::P && own_p.at(e.target) + latency > e.time) ++ended_on_shared;
    for (const TileEvent& e : off.tile_events) CHECK((e.kind != TileEventKind::Publish || e.target == e.tile));
    CHECK(shares > 0);
    MESSAGE(shares << " shared P, " << ended_on_shared << " look-backs ended on one");
  }
}

TEST_CASE("device scans: a stalled tile makes its successors wait, and the result stays correct") {
  const Trace base = record_device("decoupled-lookback", 100003, OpKind::Sum, ValueType::I32, false);
  const Trace stalled = record_device("decoupled-lookback", 100003, OpKind::Sum, ValueType::I32, false, {{"stall", "5:200000"}});
  check_correct(stalled);
  check_tile_invariants(stalled);
  const LookbackSummary a = summarize_lookback(base), b = summarize_lookback(stalled);
  // Tile 6 waits for tile 5's aggregate: far more polls than without the stall.
  CHECK(b.tiles[6].spins > a.tiles[6].spins + 100);
  CHECK(b.tiles[6].waiting_for == 5);
  CHECK(b.tiles[5].p_at > a.tiles[5].p_at + 150000);
}

TEST_CASE("device scans: switches are checked and named") {
  const auto bad = [](const std::string& algo, std::map<std::string, std::string> o) {
    BlockRunConfig c = sv_test::config(algo, 100, OpKind::Sum, ValueType::I32);
    c.options = std::move(o);
    return c;
  };
  CHECK_THROWS_WITH_AS(record_device_scan(bad("chained", {{"window", "4"}})), doctest::Contains("window"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(record_device_scan(bad("decoupled-lookback", {{"window", "0"}})), doctest::Contains("1 to 32"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(record_device_scan(bad("decoupled-lookback", {{"tile-ids", "random"}})), doctest::Contains("dynamic or static"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(record_device_scan(bad("decoupled-lookback", {{"stall", "3"}})), doctest::Contains("TILE:CYCLES"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(record_device_scan(bad("decoupled-lookback", {{"launch", "round-robin"}})), doctest::Contains("launch"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(record_device_scan(bad("hierarchical", {{"block-algo", "kogge-stone-racy"}})), doctest::Contains("race-free"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(record_device_scan(bad("hierarchical", {{"nope", "1"}})), doctest::Contains("unknown switch"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(record_block_scan(bad("kogge-stone", {{"window", "3"}})), doctest::Contains("no switches"), std::invalid_argument);
  CHECK_THROWS_AS(parse_device_config("decoupled-lookback", {{"sms", "8"}}, ValueType::I32, 0, true), std::invalid_argument);
  CHECK_THROWS_AS(parse_device_config("decoupled-lookback", {{"items", "3"}}, ValueType::I32, 0, true), std::invalid_argument);
  CHECK(tile_policy(parse_device_config("decoupled-lookback", {}, ValueType::I32, 0, true).params) ==
        "256 threads x 24 items = 6144 elements per tile");
}

TEST_CASE("device scans: the pipelined kernel's switches: GPU only, its own tile, at least as many stages as store groups") {
  auto gpu = [](std::map<std::string, std::string> o, ValueType type = ValueType::I32, std::int32_t block = 0) {
    return parse_device_config("decoupled-lookback", o, type, block, true);
  };
  // Its tile is 24 KB of 128 threads whatever the type, not the tile kernels' 256 threads.
  CHECK(tile_policy(gpu({{"pipelined", "on"}}).params) == "128 threads x 48 items = 6144 elements per tile");
  CHECK(tile_policy(gpu({{"pipelined", "on"}}, ValueType::F64).params) == "128 threads x 24 items = 3072 elements per tile");
  const DeviceConfig c = gpu({{"pipelined", "on"}, {"stages", "4"}, {"blocks", "2"}});
  CHECK(c.pipelined.on);
  CHECK(c.pipelined.stages == 4);
  CHECK(c.pipelined.blocks == 2);
  CHECK(gpu({}).pipelined.on == false);
  // A store group waits on every 4th tile's stage by parity: fewer than 4 stages would alias.
  CHECK_THROWS_WITH_AS(gpu({{"pipelined", "on"}, {"stages", "3"}}), doctest::Contains("4 to 9"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(gpu({{"stages", "6"}}), doctest::Contains("needs pipelined=on"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(gpu({{"pipelined", "on"}, {"fence", "off"}}), doctest::Contains("fence"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(gpu({{"pipelined", "on"}}, ValueType::I32, 256), doctest::Contains("drop block"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(gpu({{"pipelined", "on"}}, ValueType::Interval), doctest::Contains("intervals"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(gpu({{"pipelined", "yes"}}), doctest::Contains("on or off"), std::invalid_argument);
  // The emulator has no bulk copies or mbarriers: it refuses, and lists none of the three.
  CHECK_THROWS_WITH_AS(parse_device_config("decoupled-lookback", {{"pipelined", "on"}}, ValueType::I32, 0, false),
                       doctest::Contains("emulator cannot run"), std::invalid_argument);
  const DeviceConfig emu = parse_device_config("decoupled-lookback", {}, ValueType::I32, 0, false);
  CHECK(emu.options.count("pipelined") == 0);
  CHECK(emu.options.count("stages") == 0);
}

TEST_CASE("device scans: a device trace survives save and load byte for byte, and the loader checks tile events") {
  const Trace t = record_device("decoupled-lookback", 20000, OpKind::Interval, ValueType::Interval, false, {}, 64);
  const std::string text = trace_to_json(t);
  const Trace back = trace_from_json(text);
  CHECK(back.tile_events.size() == t.tile_events.size());
  CHECK(trace_to_json(back) == text);
  const Trace h = record_device("hierarchical", 5000, OpKind::Sum, ValueType::I32, true, {}, 256);
  CHECK(trace_to_json(trace_from_json(trace_to_json(h))) == trace_to_json(h));
  CHECK(h.snapshots.size() == h.steps.size());
  for (const auto& step : h.snapshots) CHECK(step.size() == h.buffers.size());

  auto mutate = [&](const std::string& from, const std::string& to) {
    std::string s = text;
    const auto at = s.find(from);
    REQUIRE(at != std::string::npos);
    s.replace(at, from.size(), to);
    return s;
  };
  CHECK_THROWS_WITH_AS(trace_from_json(mutate("\"publish\"", "\"shout\"")), doctest::Contains("tile_events"), TraceError);
  CHECK_THROWS_WITH_AS(trace_from_json(mutate("\"spins\"]", "\"spin\"]")), doctest::Contains("tile_event_fields"), TraceError);
}

TEST_CASE("device scans: stall lists, the look-back point, and what the GPU refuses") {
  const DeviceConfig c = parse_device_config("decoupled-lookback", {{"stall", "3:100,5:200:look-back,7:300:start"}}, ValueType::I32, 0, false);
  REQUIRE(c.machine.stalls.size() == 3);
  CHECK((c.machine.stalls[0].tile == 3 && c.machine.stalls[0].cycles == 100 && c.machine.stalls[0].at == TileStall::At::Start));
  CHECK((c.machine.stalls[1].tile == 5 && c.machine.stalls[1].cycles == 200 && c.machine.stalls[1].at == TileStall::At::LookBack));
  CHECK((c.machine.stalls[2].tile == 7 && c.machine.stalls[2].at == TileStall::At::Start));
  CHECK(c.params.stall_tile == -1);  // the emulator's stalls live in its machine
  const DeviceConfig gpu = parse_device_config("decoupled-lookback", {{"stall", "3:20000"}}, ValueType::I32, 0, true);
  CHECK((gpu.params.stall_tile == 3 && gpu.params.stall_cycles == 20000));
  for (const char* bad : {"3:100,", "2:5:sideways", "0:5:look-back", "x:5"})
    CHECK_THROWS_AS(parse_device_config("decoupled-lookback", {{"stall", bad}}, ValueType::I32, 0, false), std::invalid_argument);
  for (const char* bad : {"3:100,4:100", "3:100:look-back"})
    CHECK_THROWS_WITH_AS(parse_device_config("decoupled-lookback", {{"stall", bad}}, ValueType::I32, 0, true),
                         doctest::Contains("the GPU takes one"), std::invalid_argument);

  // A look-back stall holds the tile between publishing its aggregate and its first inspection.
  const std::int64_t n = 16 * 4096;
  const Trace base = record_device("decoupled-lookback", n, OpKind::Sum, ValueType::I32, false, {{"items", "16"}});
  const Trace held = record_device("decoupled-lookback", n, OpKind::Sum, ValueType::I32, false, {{"items", "16"}, {"stall", "6:50000:look-back"}});
  check_correct(held);
  auto gap = [](const Trace& t) {  // tile 6: from its A to its first inspection
    std::uint64_t a = 0, inspected = UINT64_MAX;
    for (const TileEvent& e : t.tile_events)
      if (e.tile == 6 && e.kind == TileEventKind::Publish && e.flag == TileFlag::A) a = e.time;
      else if (e.tile == 6 && e.kind == TileEventKind::Inspect) inspected = std::min(inspected, e.time);
    return inspected - a;
  };
  CHECK(gap(base) < 5000);
  CHECK(gap(held) >= 50000);
}

TEST_CASE("device scans: separate-word descriptors record the value's store, ahead of the flag only with a fence") {
  const std::int64_t n = 8 * 2048 + 5;
  const std::uint64_t latency = 400;
  for (const bool fence : {true, false}) {
    CAPTURE(fence);
    const Trace t = record_device("decoupled-lookback", n, OpKind::Sum, ValueType::I64, false, {{"fence", fence ? "on" : "off"}});
    std::map<std::pair<std::int64_t, TileFlag>, std::uint64_t> recorded, published;
    for (const TileEvent& e : t.tile_events) {
      if (e.kind == TileEventKind::Record) recorded[{e.tile, e.flag}] = e.time;
      if (e.kind == TileEventKind::Publish) published[{e.tile, e.flag}] = e.time;
    }
    REQUIRE(recorded.size() == published.size());
    for (const auto& [key, at] : published) {
      REQUIRE(recorded.count(key));
      // With a fence: value, one round trip, flag. Without: both issued at once, the value landing
      // two latencies after the flag (the window in which a reader sees the flag with an old value).
      if (fence) CHECK(recorded[key] + latency == at);
      else CHECK(recorded[key] == at + 2 * latency);
    }
  }
  // One packed word for 32-bit values with a fence: no Record events at all.
  const Trace packed = record_device("decoupled-lookback", n, OpKind::Sum, ValueType::I32, false);
  CHECK(std::none_of(packed.tile_events.begin(), packed.tile_events.end(), [](const TileEvent& e) { return e.kind == TileEventKind::Record; }));
}

TEST_CASE("device scans: SCANVIZ_BENCH_POLICIES picks tile policies by the words of their names") {
  const std::string wide = "512x24 min2 staged sleep256", poll = "256x24 min2 staged sleep0",
                    plain = "256x16 staged no-prefetch sleep256";
  for (const std::string& name : {wide, poll, plain}) {
    CHECK(sv::bench_policy_picked("1", name));
    CHECK_FALSE(sv::bench_policy_picked("0", name));
    CHECK_FALSE(sv::bench_policy_picked("", name));
  }
  CHECK(sv::bench_policy_picked("512x24", wide));
  CHECK_FALSE(sv::bench_policy_picked("512x24", poll));
  CHECK(sv::bench_policy_picked("512x24,sleep0", poll));           // any word of the list
  CHECK_FALSE(sv::bench_policy_picked("512x24,sleep0", plain));
  CHECK(sv::bench_policy_picked(",,no-prefetch,", plain));         // empty words pick nothing
  CHECK_FALSE(sv::bench_policy_picked(",,", plain));
  CHECK_FALSE(sv::bench_policy_picked("min2", plain));             // a word must be in the name
}

TEST_CASE("device scans: SCANVIZ_BENCH_HOLDS lists the tiles-alone baseline's holds in microseconds") {
  CHECK(sv::bench_holds_us(nullptr) == std::vector<double>{7.0});  // unset: the scan's hold on an H200
  CHECK(sv::bench_holds_us("") == std::vector<double>{7.0});
  CHECK(sv::bench_holds_us("0,1,3.5,1000") == std::vector<double>{0.0, 1.0, 3.5, 1000.0});
  for (const char* bad : {"x", "1,", ",1", "-1", "1001", "2us", "nan", "1e9"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(sv::bench_holds_us(bad), doctest::Contains("SCANVIZ_BENCH_HOLDS"), std::invalid_argument);
  }
}

TEST_CASE("device scans: SCANVIZ_BENCH_SWITCHES lists sets of decoupled look-back's switches") {
  CHECK(sv::bench_switch_sets(nullptr).empty());
  CHECK(sv::bench_switch_sets("").empty());
  CHECK(sv::bench_switch_sets("share=on;window=16,share=on") == std::vector<std::string>{"share=on", "window=16,share=on"});
  CHECK(sv::bench_switch_list("window=16,share=on", "X") ==
        std::map<std::string, std::string>{{"window", "16"}, {"share", "on"}});
  for (const char* bad : {"share", "share=on;", "share=maybe", "window=64", "sms=8x"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(sv::bench_switch_sets(bad), std::invalid_argument);
  }
  CHECK_THROWS_WITH_AS(sv::bench_switch_sets("share=on;;"), doctest::Contains("SCANVIZ_BENCH_SWITCHES: '' is not a switch"),
                       std::invalid_argument);
}

TEST_CASE("device scans: tile phases split the look-back into waiting on earlier loads and the rest") {
  // (id taken, A, P) of six tiles; tile 4 never published (left out, its missing A counts for none).
  const std::vector<sv::TileTimes> t = {{100, 200, 200}, {110, 400, 450}, {120, 300, 470},
                                        {130, 500, 520}, {140, 0, 0},     {150, 600, 700}};
  const sv::TilePhaseStats s = sv::tile_phase_stats(t);
  CHECK(s.tiles == 5);
  CHECK(s.span_ns == 600);
  CHECK(s.tick_ns == 10);
  // load: 100 290 180 370 450
  CHECK(s.load.median == 290);
  CHECK(s.load.p90 == 450);
  // look-back (tiles 1, 2, 3, 5): 50 170 20 100; tile 2's A (300) came 100 before tile 1's (400),
  // so 100 of its 170 waited on an earlier load and 70 were the rest.
  CHECK(s.lookback.median == 100);
  CHECK(s.lookback.p90 == 170);
  CHECK(s.late.median == 0);
  CHECK(s.late.p90 == 100);
  CHECK(s.after.median == 70);
  CHECK(s.after.p90 == 100);
  CHECK(s.late_share == doctest::Approx(100.0 / 340.0));
  // The nearest P out at each A: tile 0 for tiles 1 and 2 (tile 1's P came after tile 2's A), tile 2
  // for tile 3, tile 3 for tile 5 (past the unfinished tile 4).
  CHECK(s.p_lag.median == 2);
  CHECK(s.p_lag.p90 == 2);
  // Nothing complete: all zero.
  const sv::TilePhaseStats none = sv::tile_phase_stats({{1, 0, 0}});
  CHECK(none.tiles == 0);
  CHECK(none.lookback.median == 0);
  CHECK(none.span_ns == 0);
}
