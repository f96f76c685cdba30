// The device-wide scans on the GPU (kernels/device/ over gpu/tile_exec.cuh): every algorithm against
// the reference for every operator at sizes around the tile, the switches, int32 sums up to 2^28
// checked element by element, and the tile-level trace's invariants (ids taken once, A before P,
// every inspection reads a published flag and the value published with it, each P the reference's
// inclusive prefix); the tile policies are in test_gpu_device_policies.cpp. Runs only where a CUDA
// device is usable (gpu_main.cpp skips otherwise).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "../helpers.hpp"
#include "core/segments.hpp"
#include "core/values.hpp"
#include "device/device_options.hpp"
#include "gpu/executor.hpp"

using namespace sv;

namespace {

using Options = std::map<std::string, std::string>;

const std::vector<std::string> kAlgorithms = {"hierarchical", "reduce-then-scan", "chained", "decoupled-lookback"};

BlockRunConfig device_config(const std::string& algo, std::int64_t n, OpKind op, ValueType type, bool exclusive,
                             std::uint64_t seed, const Options& options = {}) {
  BlockRunConfig c = sv_test::config(algo, n, op, type, "in-order", exclusive, seed);
  c.options = options;
  return c;
}

// Elements per tile of an algorithm for a type, as the GPU runs it.
std::int64_t tile_size(const std::string& algo, ValueType type, const Options& options = {}) {
  return parse_device_config(algo, options, type, 0, true).params.tile_items();
}

// Runs traced (the device-wide scans run untraced only as sums: DeviceScanSum, checked below) and
// compares the output with the one reference scan; returns the number of mismatches.
std::size_t check_against_reference(const BlockRunConfig& c) {
  const std::vector<Payload> input = random_input(c.op, c.type, static_cast<std::size_t>(c.n), c.input_seed);
  const std::vector<Payload> out = record_device_scan_gpu(c).result.output;
  REQUIRE(out.size() == input.size());
  const std::vector<Payload> ref = reference_scan(c.op, c.type, input, c.exclusive);
  return mismatches(c.op, c.type, input, c.exclusive, ref, out).size();
}

// ---- tile-level trace invariants ----

struct TileLog {
  int starts = 0, ends = 0;
  std::vector<const TileEvent*> publishes;
  std::vector<const TileEvent*> shared;  // P published in this tile's descriptor by a later tile (share=on)
  std::uint64_t start_time = 0;
};

// Checks the invariants of one single-pass launch's tile events (pass 0) and returns the per-tile log.
std::map<std::int64_t, TileLog> check_single_pass_trace(const Trace& t, const std::string& algo) {
  const std::int64_t tiles = t.meta.grid;
  const std::vector<Payload> inclusive = reference_scan(t.meta.op, t.meta.type, t.meta.input, false, t.meta.flags);
  const std::int64_t tile_items = t.meta.capacity;
  const bool dynamic = t.meta.options.at("tile-ids") == "dynamic";
  const auto share = t.meta.options.find("share");
  const bool sharing = share != t.meta.options.end() && share->second == "on";
  std::map<std::int64_t, TileLog> log;
  std::set<std::uint32_t> start_blocks;
  int bad_inspections = 0, bad_values = 0, bad_prefixes = 0, bad_targets = 0, bad_shares = 0;
  for (std::size_t i = 1; i < t.tile_events.size(); ++i) CHECK(t.tile_events[i - 1].time <= t.tile_events[i].time);
  for (const TileEvent& e : t.tile_events) {
    CHECK(e.pass == 0);
    CHECK(e.time > 0);
    CHECK(e.sm < t.meta.executor.sm_count);
    REQUIRE(e.tile >= 0);
    REQUIRE(e.tile < tiles);
    TileLog& l = log[e.tile];
    switch (e.kind) {
      case TileEventKind::Start:
        ++l.starts;
        l.start_time = e.time;
        start_blocks.insert(e.block);
        if (!dynamic) CHECK(e.block == static_cast<std::uint32_t>(e.tile));
        break;
      case TileEventKind::End: ++l.ends; break;
      case TileEventKind::Record: FAIL_CHECK("the GPU records value and flag as one Publish event"); break;
      case TileEventKind::Publish:
        if (e.target == e.tile) {
          l.publishes.push_back(&e);
        } else {  // a shared P: only share=on, only P, only in an earlier tile's descriptor
          if (!sharing || e.flag != TileFlag::P || e.target < 0 || e.target >= e.tile) ++bad_shares;
          else log[e.target].shared.push_back(&e);
        }
        break;
      case TileEventKind::Inspect:
      case TileEventKind::Wait:
        if (e.target < 0 || e.target >= e.tile) ++bad_targets;
        break;
      case TileEventKind::Landed:
      case TileEventKind::LookBack:
      case TileEventKind::Held:
      case TileEventKind::Store: FAIL_CHECK("only the pipelined kernel records warp roles"); break;
    }
  }
  // Every tile taken exactly once (by one block each), stored exactly once.
  CHECK(static_cast<std::int64_t>(log.size()) == tiles);
  CHECK(static_cast<std::int64_t>(start_blocks.size()) == tiles);
  for (std::int64_t tile = 0; tile < tiles; ++tile) {
    CAPTURE(tile);
    const TileLog& l = log[tile];
    CHECK(l.starts == 1);
    CHECK(l.ends == 1);
    // Publishes: decoupled look-back A then P (tile 0 only P); chained only P.
    if (algo == "decoupled-lookback" && tile > 0) {
      REQUIRE(l.publishes.size() == 2);
      CHECK(l.publishes[0]->flag == TileFlag::A);
      CHECK(l.publishes[1]->flag == TileFlag::P);
      CHECK(l.publishes[0]->time <= l.publishes[1]->time);
    } else {
      REQUIRE(l.publishes.size() == 1);
      CHECK(l.publishes[0]->flag == TileFlag::P);
    }
    // Each tile's P, its own and any a later tile shared, is the inclusive prefix at its last element.
    const std::int64_t last = std::min((tile + 1) * tile_items, t.meta.n) - 1;
    const TileEvent& p = *l.publishes.back();
    if (!values_match(t.meta.type, inclusive[last], p.value, static_cast<std::size_t>(last + 1))) ++bad_prefixes;
    for (const TileEvent* s : l.shared)
      if (!values_match(t.meta.type, inclusive[last], s->value, static_cast<std::size_t>(last + 1))) ++bad_prefixes;
  }
  // Every inspection read a published flag, and the value published with that flag.
  for (const TileEvent& e : t.tile_events) {
    if (e.kind != TileEventKind::Inspect) continue;
    if (e.flag != TileFlag::A && e.flag != TileFlag::P) {
      ++bad_inspections;
      continue;
    }
    const TileLog& target = log[e.target];
    bool found = false;
    for (const TileEvent* p : target.publishes)
      if (p->flag == e.flag) found = p->value == e.value;
    if (!found) ++bad_values;
  }
  CHECK(bad_targets == 0);
  CHECK(bad_inspections == 0);
  CHECK(bad_values == 0);
  CHECK(bad_prefixes == 0);
  CHECK(bad_shares == 0);
  return log;
}

void check_trace_common(const Trace& t, std::size_t steps) {
  CHECK(t.meta.executor.kind == "gpu");
  CHECK_FALSE(t.meta.executor.device.empty());
  CHECK(t.result.outcome == Outcome::Correct);
  CHECK(static_cast<std::int64_t>(t.result.output.size()) == t.meta.n);
  REQUIRE(t.buffers.size() >= 2);
  CHECK(t.buffers[0].name == "input");
  CHECK(t.buffers[1].name == "output");
  for (const BufferInfo& b : t.buffers) CHECK(b.space == Space::Global);
  REQUIRE(t.steps.size() == steps);
  REQUIRE(t.snapshots.size() == steps);
  for (const auto& per_buffer : t.snapshots) REQUIRE(per_buffer.size() == t.buffers.size());
  // The last snapshot's output is the result, all of it written; the input is always the input.
  const BufferSnapshot& out = t.snapshots.back()[1];
  CHECK(out.values == t.result.output);
  CHECK(std::count(out.defined.begin(), out.defined.end(), 1) == t.meta.n);
  for (const auto& per_buffer : t.snapshots) CHECK(per_buffer[0].values == t.meta.input);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Correctness against the reference
// ---------------------------------------------------------------------------------------------

TEST_CASE("gpu device: every algorithm, every operator, sizes around the tile, inclusive and exclusive") {
  for (const std::string& algo : kAlgorithms) {
    for (auto [op, type] : sv_test::all_ops()) {
      const std::int64_t tile = tile_size(algo, type);
      for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{2}, std::int64_t{1000}, tile - 1, tile,
                             tile + 1, std::int64_t{100003}}) {
        for (bool exclusive : {false, true}) {
          CAPTURE(algo);
          CAPTURE(op_name(op));
          CAPTURE(type_name(type));
          CAPTURE(n);
          CAPTURE(exclusive);
          CHECK(check_against_reference(device_config(algo, n, op, type, exclusive, 11 + n)) == 0);
        }
      }
    }
  }
}

// Small enough to run under compute-sanitizer (scripts/gpu-check.sh device): every algorithm,
// traced and (sums) untraced, full and partial tiles, the packed and the split descriptors.
TEST_CASE("gpu device small: every algorithm untraced and traced at small n") {
  for (const std::string& algo : kAlgorithms) {
    for (auto [op, type] : {std::pair{OpKind::Sum, ValueType::I32}, std::pair{OpKind::Max, ValueType::F64},
                            std::pair{OpKind::Interval, ValueType::Interval}, std::pair{OpKind::BitXor, ValueType::I64}}) {
      for (std::int64_t n : {std::int64_t{1}, 3 * tile_size(algo, type), 3 * tile_size(algo, type) + 5}) {
        for (bool exclusive : {false, true}) {
          CAPTURE(algo);
          CAPTURE(op_name(op));
          CAPTURE(n);
          CAPTURE(exclusive);
          const BlockRunConfig c = device_config(algo, n, op, type, exclusive, 17);
          CHECK(check_against_reference(c) == 0);
          const Trace t = record_device_scan_gpu(c);
          CHECK(t.result.outcome == Outcome::Correct);
          if (algo == "chained" || algo == "decoupled-lookback") check_single_pass_trace(t, algo);
          if (op == OpKind::Sum) CHECK(verify_device_scan_gpu_i32(algo, {}, n, exclusive, 17).mismatches == 0);
        }
      }
    }
  }
  CHECK(check_against_reference(device_config("decoupled-lookback", 3 * 2048 + 5, OpKind::Sum, ValueType::I64, false, 1,
                                               {{"window", "2"}, {"tile-ids", "static"}})) == 0);
}

TEST_CASE("gpu device small: the gather kernel's 8-byte descriptors, several runs on one scanner") {
  // The default sums 8-byte values at small n on the gather kernel (one 16-byte descriptor a tile,
  // every predecessor's read at once): a partial tile, a few tiles, and 200 tiles of 512 x 2 (more
  // than the 132 multiprocessors of an H100 or H200), each run over the descriptors of the run before.
  for (ValueType type : {ValueType::I64, ValueType::F64}) {
    for (std::int64_t n : {std::int64_t{5}, std::int64_t{3 * 1024 + 7}, std::int64_t{200 * 1024}}) {
      CAPTURE(type_name(type));
      CAPTURE(n);
      for (const DeviceCheck& c : stress_descriptors_gpu(type, n, 3, 40 + static_cast<std::uint64_t>(n)))
        CHECK(c.mismatches == 0);
    }
  }
}

TEST_CASE("gpu device one-wave: 8-byte sums in 256 x 8 tiles the device holds at once, several runs on one scanner") {
  // Past the gather kernel's 512 tiles (524,288 8-byte values) the default sums 8-byte values in
  // tiles of 256 x 8 with ids from the block index while the device holds them all (one_wave_policy:
  // on 132 multiprocessors up to 660 tiles of int64, 528 of double), then in 792 tiles of 256 x 8
  // (1,500,001 values) and of 256 x 12 (2,000,001) bound to 6 blocks a multiprocessor
  // (one_wave_policies). Few enough runs for compute-sanitizer's racecheck and synccheck
  // (scripts/gpu-check.sh device-sanitizers).
  for (ValueType type : {ValueType::I64, ValueType::F64}) {
    for (std::int64_t n : {std::int64_t{512 * 1024 + 1}, std::int64_t{3 << 18} + 5, std::int64_t{1500001},
                           std::int64_t{2000001}}) {
      CAPTURE(type_name(type));
      CAPTURE(n);
      for (const DeviceCheck& c : stress_descriptors_gpu(type, n, 2, 90 + static_cast<std::uint64_t>(n)))
        CHECK(c.mismatches == 0);
    }
  }
}

TEST_CASE("gpu device: hierarchical and reduce-then-scan recurse over three levels, hierarchical with each block algorithm") {
  // Blocks of 64: 2^18 + 5 elements need the tile sums of the tile sums (levels 1 and 2 as the emulator
  // records them), in a trace under the cells a trace may hold (2^20 + 5 in 1024-element tiles was over).
  for (const std::string& algo : {std::string("hierarchical"), std::string("reduce-then-scan")}) {
    for (auto [op, type] : {std::pair{OpKind::Sum, ValueType::I64}, std::pair{OpKind::Interval, ValueType::Interval}}) {
      for (bool exclusive : {false, true}) {
        CAPTURE(algo);
        CAPTURE(op_name(op));
        CAPTURE(exclusive);
        BlockRunConfig c = device_config(algo, (1 << 18) + 5, op, type, exclusive, 3);
        c.block = 64;
        CHECK(check_against_reference(c) == 0);
      }
    }
  }
  for (const std::string& block : sv_test::algorithms(sv_test::Rows::RaceFree)) {
    for (bool exclusive : {false, true}) {
      CAPTURE(block);
      CAPTURE(exclusive);
      const Options o{{"block-algo", block}};
      CHECK(check_against_reference(
                device_config("hierarchical", 100003, OpKind::Interval, ValueType::Interval, exclusive, 5, o)) == 0);
      CHECK(check_against_reference(device_config("hierarchical", 3 * tile_size("hierarchical", ValueType::F32, o) + 1,
                                                  OpKind::Sum, ValueType::F32, exclusive, 6, o)) == 0);
    }
  }
}

TEST_CASE("gpu device: the single-pass switches (static ids, windows, fence off on 64-bit values, a stall)") {
  const std::vector<Options> switches = {
      {{"tile-ids", "static"}}, {{"window", "1"}}, {{"window", "5"}}, {{"stall", "3:20000"}},
      {{"tile-ids", "static"}, {"stall", "0:50000"}}, {{"share", "on"}}, {{"share", "on"}, {"window", "3"}}};
  for (const std::string& algo : {std::string("chained"), std::string("decoupled-lookback")}) {
    for (const Options& o : switches) {
      if (algo == "chained" && (o.count("window") || o.count("share"))) continue;  // chained has neither
      for (auto [op, type] : {std::pair{OpKind::Sum, ValueType::I32}, std::pair{OpKind::Max, ValueType::F64},
                              std::pair{OpKind::Interval, ValueType::Interval}}) {
        for (std::int64_t n : {std::int64_t{5}, 37 * tile_size(algo, type) + 11, std::int64_t{1} << 20}) {
          CAPTURE(algo);
          CAPTURE(o.begin()->first + "=" + o.begin()->second);
          CAPTURE(op_name(op));
          CAPTURE(n);
          CHECK(check_against_reference(device_config(algo, n, op, type, n % 2 == 1, 21, o)) == 0);
        }
      }
    }
  }
  // window=1 is the chained scan: the same results (exact for integers and intervals).
  for (auto [op, type] : {std::pair{OpKind::Sum, ValueType::I64}, std::pair{OpKind::Interval, ValueType::Interval}}) {
    const auto a = record_device_scan_gpu(device_config("chained", 300001, op, type, false, 8)).result.output;
    const auto b =
        record_device_scan_gpu(device_config("decoupled-lookback", 300001, op, type, false, 8, {{"window", "1"}})).result.output;
    CHECK(a == b);
  }
}

TEST_CASE("gpu device: fence=off on 64-bit values: separate flag and value, correct or a stale read the trace shows") {
  // Without the fence nothing orders the value's store before the flag's: a reader may see the flag
  // first. Whether it happens is up to the hardware; when the output is wrong, the trace must show
  // an inspection whose value is not what that tile published.
  int stale_runs = 0;
  for (const std::string& algo : {std::string("chained"), std::string("decoupled-lookback")}) {
    for (auto [op, type] : {std::pair{OpKind::Sum, ValueType::I64}, std::pair{OpKind::Sum, ValueType::F64}}) {
      for (int run = 0; run < 3; ++run) {
        CAPTURE(algo);
        CAPTURE(type_name(type));
        const Trace t = record_device_scan_gpu(
            device_config(algo, 200 * tile_size(algo, type) + 3, op, type, false, 40 + run, {{"fence", "off"}}));
        CHECK(t.meta.options.at("fence") == "off");
        std::map<std::pair<std::int64_t, int>, Payload> published;
        for (const TileEvent& e : t.tile_events)
          if (e.kind == TileEventKind::Publish) published[{e.tile, static_cast<int>(e.flag)}] = e.value;
        int stale = 0;
        for (const TileEvent& e : t.tile_events)
          if (e.kind == TileEventKind::Inspect && e.flag != TileFlag::X &&
              published[{e.target, static_cast<int>(e.flag)}] != e.value)
            ++stale;
        // A stale read is exactly what makes an output wrong: with none the scan is right, and a
        // wrong scan has one in its trace.
        CHECK((stale > 0) == (t.result.outcome != Outcome::Correct));
        stale_runs += stale > 0;
      }
    }
  }
  MESSAGE("fence=off runs with a stale read: " << stale_runs << " of 12");
}

// ---------------------------------------------------------------------------------------------
// One scanner from run to run: what its single-pass state keeps (gpu/single_pass_state.cuh)
// ---------------------------------------------------------------------------------------------

namespace {

std::vector<std::int32_t> inclusive_sums(const std::vector<std::int32_t>& in) {
  std::vector<std::int32_t> out(in.size());
  std::uint32_t acc = 0;
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = static_cast<std::int32_t>(acc += static_cast<std::uint32_t>(in[i]));
  return out;
}

std::vector<std::int32_t> small_values(std::size_t n, std::uint32_t seed) {
  std::vector<std::int32_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::int32_t>((i * 2654435761u ^ seed) % 7) - 3;
  return v;
}

}  // namespace

TEST_CASE("gpu device: one scanner's single-pass state from run to run") {
  const std::int64_t tile = tile_size("decoupled-lookback", ValueType::I32);
  SUBCASE("descriptors moved by a smaller n (flags apart from values, fence=off) are zeroed, not read as flags") {
    // Run 1 (epoch 0) leaves every tile's aggregate 6; with 10 times fewer tiles run 2's flags and
    // prefixes lie over those words, and 6 is the word of flag P in run 2's epoch 1. Kept, every
    // tile would find its predecessor's inclusive prefix 6 at once, where run 2's zeros give 0 and
    // its tile 0 is held 1 ms before it publishes anything.
    std::vector<std::int32_t> sixes(static_cast<std::size_t>(1000 * tile), 0);
    for (std::size_t i = 0; i < sixes.size(); i += static_cast<std::size_t>(tile)) sixes[i] = 6;
    const std::vector<std::int32_t> zeros(static_cast<std::size_t>(100 * tile + 17), 0);
    ScannerStep held{zeros};
    held.stall_tile = 0;
    held.stall_ns = 1'000'000;
    const auto runs = run_scanner_gpu({{"fence", "off"}}, {{sixes}, held, {zeros}, {sixes}});
    REQUIRE(runs.size() == 4);
    for (const ScannerResult& r : runs) CHECK(r.error == "");
    // Runs 2 and 3 scan zeros: fence=off's own race (a flag seen before its value) reads a zero
    // there too, so only kept descriptors can make them wrong. Runs 1 and 4 may meet that race.
    CHECK(runs[1].output == inclusive_sums(zeros));
    CHECK(runs[2].output == inclusive_sums(zeros));
    CHECK(runs[1].epoch == 0);  // a new layout: zeroed
    CHECK(runs[2].epoch == 1);  // the same layout: kept under the next epoch
    CHECK(runs[3].epoch == 0);
  }
  SUBCASE("a bounded wait that ran out fails that run only: the next run is checked clean and correct") {
    const std::vector<std::int32_t> in = small_values(static_cast<std::size_t>(64 * tile + 5), 11);
    ScannerStep stalled{in};
    stalled.stall_tile = 0;
    stalled.stall_ns = 2'500'000'000;  // longer than the look-back's bounded wait (2 s)
    const auto runs = run_scanner_gpu({}, {{in}, stalled, {in}, {in}});
    REQUIRE(runs.size() == 4);
    CHECK(runs[0].error == "");
    CHECK(runs[1].error.find("waited longer than") != std::string::npos);
    for (std::size_t r : {std::size_t{0}, std::size_t{2}, std::size_t{3}}) {
      CAPTURE(r);
      CHECK(runs[r].error == "");
      CHECK(runs[r].output == inclusive_sums(in));
    }
    CHECK(runs[2].epoch == 0);  // the failed run's descriptors are zeroed
    CHECK(runs[3].epoch == 1);
  }
  SUBCASE("a count of tile ids that differs from the device's counter is reported, and the next run starts afresh") {
    // More tiles than a device of 132 multiprocessors holds at once (1056), below the pipelined
    // kernel's switch: the tile kernel takes its ids from the counter.
    const std::vector<std::int32_t> in = small_values(static_cast<std::size_t>(1100 * tile + 1), 12);
    ScannerStep skewed{in};
    skewed.skew = 1;
    ScannerStep short_count{in};
    short_count.skew = -3;
    const auto runs = run_scanner_gpu({}, {{in}, skewed, {in}, short_count, {in}});
    REQUIRE(runs.size() == 5);
    CHECK(runs[1].error.find("tile counter") != std::string::npos);
    CHECK(runs[3].error.find("tile counter") != std::string::npos);
    for (std::size_t r : {std::size_t{0}, std::size_t{2}, std::size_t{4}}) {
      CAPTURE(r);
      CHECK(runs[r].error == "");
      CHECK(runs[r].output == inclusive_sums(in));
      CHECK(runs[r].epoch == 0);  // the first run, and each run after a reported miscount
    }
  }
  SUBCASE("epochs wrap after the largest a flag word holds (2^30 - 1): descriptors zeroed, outputs right") {
    const std::vector<std::int32_t> in = small_values(static_cast<std::size_t>(200 * tile + 3), 13);
    ScannerStep late{in};
    late.start_epoch = (1u << 30) - 2;
    const auto runs = run_scanner_gpu({}, {{in}, late, {in}, {in}, {in}});
    REQUIRE(runs.size() == 5);
    const std::vector<long long> epochs = {0, (1 << 30) - 2, (1 << 30) - 1, 0, 1};
    for (std::size_t r = 0; r < runs.size(); ++r) {
      CAPTURE(r);
      CHECK(runs[r].error == "");
      CHECK(runs[r].epoch == epochs[r]);
      CHECK(runs[r].output == inclusive_sums(in));
    }
  }
}

TEST_CASE("gpu device: 16-byte descriptors under stress: many runs on one scanner, new values each run, all correct") {
  // The one hardware assumption (gpu/tile_descriptors.cuh): a 16-byte descriptor is read whole. Each
  // run's descriptors held the run before's values under the last epoch, so a reader that saw this
  // run's flag word with the old value word would combine a wrong prefix into every element after
  // it. Sizes: a few tiles, many tiles of the tile kernel, and the pipelined kernel's range on sm_90.
  const std::int64_t tile = tile_size("decoupled-lookback", ValueType::I64);
  for (ValueType type : {ValueType::I64, ValueType::F64}) {
    for (std::int64_t n : {64 * tile + 3, 1000 * tile + 5, std::int64_t{1} << 22}) {
      CAPTURE(type_name(type));
      CAPTURE(n);
      const std::vector<DeviceCheck> runs = stress_descriptors_gpu(type, n, 100, 1000 + static_cast<std::uint64_t>(n));
      REQUIRE(runs.size() == 100);
      std::int64_t wrong_runs = 0, first_wrong = -1;
      for (std::size_t r = 0; r < runs.size(); ++r)
        if (runs[r].mismatches > 0 && wrong_runs++ == 0) first_wrong = static_cast<std::int64_t>(r);
      CAPTURE(first_wrong);
      CHECK(wrong_runs == 0);
    }
  }
  CHECK_THROWS_AS(stress_descriptors_gpu(ValueType::I32, 1000, 1, 1), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Large n: int32 sums generated and checked element by element
// ---------------------------------------------------------------------------------------------

TEST_CASE("gpu device: int32 sums up to 2^28, every element checked") {
  for (const std::string& algo : kAlgorithms) {
    for (std::int64_t n : {std::int64_t{1} << 20, std::int64_t{1} << 24, std::int64_t{1} << 28,
                           (std::int64_t{1} << 28) - 4093}) {
      CAPTURE(algo);
      CAPTURE(n);
      const DeviceCheck c = verify_device_scan_gpu_i32(algo, {}, n, false, 1234 + n);
      CHECK(c.n == n);
      CHECK(c.mismatches == 0);
      CHECK(c.first_mismatch == -1);
    }
    CAPTURE(algo);
    const DeviceCheck e = verify_device_scan_gpu_i32(algo, {}, (std::int64_t{1} << 26) + 77, true, 99);
    CHECK(e.mismatches == 0);
  }
  const DeviceCheck w = verify_device_scan_gpu_i32("decoupled-lookback", {{"window", "1"}}, std::int64_t{1} << 26, false, 5);
  CHECK(w.mismatches == 0);
  const DeviceCheck s = verify_device_scan_gpu_i32("chained", {{"tile-ids", "static"}}, std::int64_t{1} << 26, false, 6);
  CHECK(s.mismatches == 0);
  for (std::int64_t n : {std::int64_t{1} << 28, (std::int64_t{1} << 28) - 4093}) {
    CAPTURE(n);
    const DeviceCheck h = verify_device_scan_gpu_i32("decoupled-lookback", {{"share", "on"}}, n, n % 2 == 1, 7 + n);
    CHECK(h.mismatches == 0);
  }
}

// ---------------------------------------------------------------------------------------------
// The tile-level trace
// ---------------------------------------------------------------------------------------------

TEST_CASE("gpu device trace: decoupled look-back and chained keep the tile invariants") {
  for (const std::string& algo : {std::string("chained"), std::string("decoupled-lookback")}) {
    for (auto [op, type] : sv_test::all_ops()) {
      for (bool exclusive : {false, true}) {
        CAPTURE(algo);
        CAPTURE(op_name(op));
        CAPTURE(type_name(type));
        CAPTURE(exclusive);
        const std::int64_t n = 150 * tile_size(algo, type) + 17;
        const Trace t = record_device_scan_gpu(device_config(algo, n, op, type, exclusive, 3));
        CHECK(t.meta.grid == 151);
        check_trace_common(t, 1);
        CHECK(t.steps[0].phase == Phase::SinglePass);
        check_single_pass_trace(t, algo);
      }
    }
  }
}

TEST_CASE("gpu device trace: the switches show in the tile events") {
  const std::int64_t n = 120 * tile_size("decoupled-lookback", ValueType::I32) + 5;
  SUBCASE("static ids: tile = block") {
    const Trace t = record_device_scan_gpu(device_config("decoupled-lookback", n, OpKind::Sum, ValueType::I32, false, 1,
                                                         {{"tile-ids", "static"}}));
    check_trace_common(t, 1);
    check_single_pass_trace(t, "decoupled-lookback");  // checks block == tile for every Start
  }
  SUBCASE("window=1: every inspection is the predecessor's P") {
    const Trace t = record_device_scan_gpu(
        device_config("decoupled-lookback", n, OpKind::Interval, ValueType::Interval, false, 1, {{"window", "1"}}));
    check_trace_common(t, 1);
    check_single_pass_trace(t, "decoupled-lookback");
    int inspections = 0;
    for (const TileEvent& e : t.tile_events)
      if (e.kind == TileEventKind::Inspect) {
        ++inspections;
        CHECK(e.target == e.tile - 1);
        CHECK(e.flag == TileFlag::P);
      }
    CHECK(inspections == t.meta.grid - 1);
  }
  SUBCASE("window=5: at most 5 predecessors a window, ending at the nearest P") {
    const Trace t = record_device_scan_gpu(
        device_config("decoupled-lookback", n, OpKind::Sum, ValueType::I64, false, 1, {{"window", "5"}}));
    check_trace_common(t, 1);
    check_single_pass_trace(t, "decoupled-lookback");
    std::map<std::int64_t, std::vector<const TileEvent*>> by_tile;
    for (const TileEvent& e : t.tile_events)
      if (e.kind == TileEventKind::Inspect) by_tile[e.tile].push_back(&e);
    for (const auto& [tile, seen] : by_tile) {
      CAPTURE(tile);
      // Inspected predecessors: contiguous from tile-1 down to a P, each A before it.
      std::vector<std::int64_t> targets;
      for (const TileEvent* e : seen) targets.push_back(e->target);
      std::sort(targets.rbegin(), targets.rend());
      for (std::size_t i = 0; i < targets.size(); ++i) CHECK(targets[i] == tile - 1 - static_cast<std::int64_t>(i));
      int ps = 0;
      for (const TileEvent* e : seen) ps += e->flag == TileFlag::P;
      CHECK(ps == 1);
    }
  }
  SUBCASE("share=on: tiles publish P for earlier tiles, each the true inclusive prefix") {
    for (auto [op, type] : {std::pair{OpKind::Sum, ValueType::I32}, std::pair{OpKind::Interval, ValueType::Interval}}) {
      CAPTURE(op_name(op));
      const Trace t = record_device_scan_gpu(
          device_config("decoupled-lookback", n, op, type, false, 1, {{"share", "on"}, {"window", "4"}}));
      check_trace_common(t, 1);
      const auto log = check_single_pass_trace(t, "decoupled-lookback");  // every shared P checked there
      std::size_t shared = 0;
      for (const auto& [tile, l] : log) shared += l.shared.size();
      MESSAGE(shared << " P published by later tiles over " << t.meta.grid << " tiles");
      CHECK(shared > 0);  // as the emulator's test asserts: a run of share=on that shared nothing tested nothing
    }
  }
  SUBCASE("stall=3:20000: tile 3 publishes 20 us after taking its id") {
    const Trace t = record_device_scan_gpu(
        device_config("decoupled-lookback", n, OpKind::Sum, ValueType::I32, false, 1, {{"stall", "3:20000"}}));
    check_trace_common(t, 1);
    const auto log = check_single_pass_trace(t, "decoupled-lookback");
    const TileLog& l = log.at(3);
    CHECK(l.publishes.front()->time - l.start_time >= 20000);
  }
  SUBCASE("chained: each tile waits for its predecessor's P") {
    const Trace t = record_device_scan_gpu(device_config("chained", n, OpKind::Max, ValueType::F32, true, 1));
    check_trace_common(t, 1);
    check_single_pass_trace(t, "chained");
    for (const TileEvent& e : t.tile_events) {
      if (e.kind == TileEventKind::Inspect) {
        CHECK(e.target == e.tile - 1);
        CHECK(e.flag == TileFlag::P);
      }
      if (e.kind == TileEventKind::Wait) {
        CHECK(e.target == e.tile - 1);
        CHECK(e.flag != TileFlag::P);
      }
    }
  }
}

TEST_CASE("gpu device trace: reduce-then-scan and hierarchical launches, buffers and snapshots") {
  const std::int64_t tile = tile_size("reduce-then-scan", ValueType::I32);
  const std::int64_t n = 40 * tile + 9;  // 41 int32 tiles (reduce-then-scan); hierarchical's are 1024 elements
  SUBCASE("reduce-then-scan") {
    const Trace t = record_device_scan_gpu(device_config("reduce-then-scan", n, OpKind::Sum, ValueType::I32, false, 2));
    check_trace_common(t, 3);
    CHECK(t.steps[0].phase == Phase::ReduceTiles);
    CHECK(t.steps[1].phase == Phase::ScanWithPrefix);  // the 41 sums fit one tile
    CHECK(t.steps[1].param == 1);
    CHECK(t.steps[2].phase == Phase::ScanWithPrefix);
    CHECK(t.steps[2].param == 0);
    REQUIRE(t.buffers.size() == 4);
    CHECK(t.buffers[2].name == "tile sums");
    CHECK(t.buffers[3].name == "scanned sums");
    // After the first launch the tile sums are the tiles' aggregates; the output is not written yet.
    const std::vector<Payload> inclusive = reference_scan(t.meta.op, t.meta.type, t.meta.input, false, t.meta.flags);
    const BufferSnapshot& sums = t.snapshots[0][2];
    std::int32_t before = 0;
    for (std::int64_t k = 0; k < 41; ++k) {
      const std::int32_t at_end = inclusive[std::min((k + 1) * tile, n) - 1].as<std::int32_t>();
      CHECK(sums.defined[k] == 1);
      CHECK(sums.values[k].as<std::int32_t>() == static_cast<std::int32_t>(static_cast<std::uint32_t>(at_end) -
                                                                               static_cast<std::uint32_t>(before)));
      before = at_end;
    }
    CHECK(std::count(t.snapshots[0][1].defined.begin(), t.snapshots[0][1].defined.end(), 1) == 0);
    // Start and End once per tile per launch.
    std::map<std::pair<int, std::int64_t>, int> starts, ends;
    for (const TileEvent& e : t.tile_events) {
      if (e.kind == TileEventKind::Start) ++starts[{e.pass, e.tile}];
      if (e.kind == TileEventKind::End) ++ends[{e.pass, e.tile}];
      CHECK((e.kind == TileEventKind::Start || e.kind == TileEventKind::End));
    }
    CHECK(starts.size() == 41 + 1 + 41);
    for (const auto& [k, c] : starts) CHECK(c == 1);
    CHECK(ends == starts);
  }
  SUBCASE("hierarchical") {
    const Trace t = record_device_scan_gpu(device_config("hierarchical", n, OpKind::Interval, ValueType::Interval, true, 2));
    // scan-tiles, tile-sums, (level 1: scan-tiles, ) add-prefixes level 0... in launch order
    CHECK(t.result.outcome == Outcome::Correct);
    REQUIRE_FALSE(t.steps.empty());
    CHECK(t.steps[0].phase == Phase::ScanTiles);
    CHECK(t.steps.back().phase == Phase::AddPrefixes);
    CHECK(t.steps.back().param == 0);
    check_trace_common(t, t.steps.size());
    CHECK(t.find_buffer("tile sums") >= 2);
  }
}

// ---------------------------------------------------------------------------------------------
// Failures are reported, never silent, never a hang
// ---------------------------------------------------------------------------------------------

TEST_CASE("gpu device: a tile trace buffer too small fails, naming the capacity and the size needed") {
  const BlockRunConfig c = device_config("decoupled-lookback", 20 * tile_size("decoupled-lookback", ValueType::I32),
                                         OpKind::Sum, ValueType::I32, false, 1);
  const Trace full = record_device_scan_gpu(c);
  try {
    record_device_scan_gpu(c, GpuOptions{10, 0});
    FAIL("no error for a 10-event trace buffer");
  } catch (const GpuError& e) {
    const std::string msg = e.what();
    CHECK(msg.find("holds 10 events") != std::string::npos);
    // The run needed at least one Start, one End and the publishes of every tile.
    CHECK(msg.find("needed ") != std::string::npos);
    const std::uint64_t needed = std::stoull(msg.substr(msg.find("needed ") + 7));
    CHECK(needed >= 20 * 2 + 20 + 19);
  }
  CHECK(full.tile_events.size() >= 20 * 2 + 20 + 19);
}

TEST_CASE("gpu device: a look-back that waits too long ends with an error naming the tile, not a hang") {
  // Tile 0 stalls 3 s after taking its id; tile 1 polls for it and gives up after its bounded wait.
  for (const std::string& algo : {std::string("chained"), std::string("decoupled-lookback")}) {
    CAPTURE(algo);
    const auto t0 = std::chrono::steady_clock::now();
    try {
      record_device_scan_gpu(device_config(algo, 2 * tile_size(algo, ValueType::I32), OpKind::Sum, ValueType::I32, false,
                                           1, {{"stall", "0:3000000000"}}));
      FAIL("no error for a look-back wait of 3 s");
    } catch (const GpuError& e) {
      const std::string msg = e.what();
      CHECK(msg.find("tile 1 waited longer than 2 s") != std::string::npos);
    }
    try {  // untraced, as DeviceScanSum runs it
      verify_device_scan_gpu_i32(algo, {{"stall", "0:3000000000"}}, 2 * tile_size(algo, ValueType::I32), false, 1);
      FAIL("no error for a look-back wait of 3 s, untraced");
    } catch (const GpuError& e) {
      CHECK(std::string(e.what()).find("tile 1 waited longer than 2 s") != std::string::npos);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(seconds < 20);
  }
}

TEST_CASE("gpu device: configurations the GPU kernels are not built for are refused") {
  CHECK_THROWS_AS(record_device_scan_gpu(device_config("decoupled-lookback", 100, OpKind::Sum, ValueType::I32, false, 1,
                                                       {{"items", "8"}})),
                  std::invalid_argument);
  CHECK_THROWS_AS(verify_device_scan_gpu_i32("decoupled-lookback", {{"items", "8"}}, 100, false, 1), std::invalid_argument);
  CHECK_THROWS_AS(record_device_scan_gpu(device_config("chained", 100, OpKind::Sum, ValueType::I32, false, 1,
                                                       {{"sms", "8"}})),
                  std::invalid_argument);
  CHECK_THROWS_AS(record_device_scan_gpu(device_config("no-such-scan", 100, OpKind::Sum, ValueType::I32, false, 1)),
                  std::invalid_argument);
}

TEST_CASE("gpu device: segmented decoupled look-back over (flag, value) pairs, every operator on int32 and interval") {
  std::vector<std::pair<OpKind, ValueType>> ops;
  for (auto [op, type] : sv_test::all_ops())
    if (type == ValueType::I32 || type == ValueType::Interval) ops.push_back({op, type});
  for (auto [op, type] : ops) {
    const std::int64_t tile = default_items_per_thread(type, true) * 256;
    for (std::int64_t n : {std::int64_t{1}, 3 * tile + 5}) {
      for (double density : {0.0, 0.001, 0.2}) {
        CAPTURE(op_name(op));
        CAPTURE(n);
        CAPTURE(density);
        BlockRunConfig c = device_config("decoupled-lookback", n, op, type, false, 19 + n);
        c.flags = random_flags(static_cast<std::size_t>(n), density, 3);
        if (n > tile) c.flags[static_cast<std::size_t>(tile)] = 1;  // a head on a tile's first element
        const Trace gpu = record_device_scan_gpu(c);
        check_trace_common(gpu, 1);
        CHECK(gpu.meta.flags == c.flags);
        CHECK(gpu.meta.capacity == tile);
        check_single_pass_trace(gpu, "decoupled-lookback");
        const Trace emu = record_scan(c);
        CHECK(emu.meta.capacity == gpu.meta.capacity);
        CHECK(gpu.result.output == emu.result.output);
      }
    }
  }
  BlockRunConfig f = device_config("decoupled-lookback", 100, OpKind::Sum, ValueType::F64, false, 1);
  f.flags = random_flags(100, 0.2, 1);
  CHECK_THROWS_WITH_AS(record_device_scan_gpu(f), doctest::Contains("built for int32"), std::invalid_argument);
  f.type = ValueType::I32;
  f.algorithm = "chained";
  CHECK_THROWS_WITH_AS(record_device_scan_gpu(f), doctest::Contains("decoupled-lookback"), std::invalid_argument);
}

TEST_CASE("gpu device: allocation, the slides' requests [8,6,7,5,3,0,9] get [0,8,14,21,26,29,29]") {
  for (const std::string& algo : kAlgorithms) {
    CAPTURE(algo);
    BlockRunConfig c = device_config(algo, 7, OpKind::Sum, ValueType::I32, true, 1);
    for (std::int32_t r : {8, 6, 7, 5, 3, 0, 9}) c.input.push_back(Payload::of(r));
    c.application.kind = "allocate";
    const Trace t = record_device_scan_gpu(c);
    std::vector<std::int32_t> offsets;
    for (const Payload& p : t.result.output) offsets.push_back(p.as<std::int32_t>());
    CHECK(offsets == std::vector<std::int32_t>{0, 8, 14, 21, 26, 29, 29});
  }
}
