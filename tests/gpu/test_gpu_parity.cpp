// GPU vs emulator: for every race-free block algorithm, the trace recorded on the GPU and the one
// recorded by the emulator agree on the output, every per-step snapshot, the metrics and the
// dataflow edges, for every operator, inclusive and exclusive, on sizes that are and are not powers
// of two. Runs only where a CUDA device is usable (gpu_main.cpp skips otherwise).
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <set>
#include <tuple>

#include "../helpers.hpp"
#include "algorithms.hpp"
#include "core/segments.hpp"
#include "analysis/analysis.hpp"
#include "analysis/application.hpp"
#include "core/values.hpp"
#include "gpu/executor.hpp"

using namespace sv;

namespace {

constexpr GpuOptions kTestOptions{1u << 18, 0};

sv::Trace record_gpu(const std::string& algo, std::int64_t n, OpKind op, ValueType type, bool exclusive,
                     std::uint64_t seed = 1, std::int32_t warp = 0) {
  BlockRunConfig c = sv_test::config(algo, n, op, type, "in-order", exclusive, seed);
  c.warp = warp;
  return record_block_scan_gpu(c, kTestOptions);
}

sv::Trace record_emulator(const std::string& algo, std::int64_t n, OpKind op, ValueType type, bool exclusive,
                          std::uint64_t seed, std::int32_t warp) {
  BlockRunConfig c = sv_test::config(algo, n, op, type, "random:5", exclusive, seed);
  c.warp = warp;
  return record_block_scan(c);
}

using EdgeKey = std::tuple<int, std::uint32_t, int, int, std::int64_t, int, std::int64_t>;
std::vector<EdgeKey> edge_keys(const Trace& t) {
  std::vector<EdgeKey> keys;
  for (const Edge& e : dataflow_edges(t))
    keys.emplace_back(e.step, e.thread, static_cast<int>(e.role), e.from_buffer, e.from_index, e.to_buffer, e.to_index);
  std::sort(keys.begin(), keys.end());
  return keys;
}

void check_parity(const Trace& gpu, const Trace& emu) {
  CHECK(gpu.meta.executor.kind == "gpu");
  CHECK_FALSE(gpu.meta.executor.device.empty());
  CHECK(gpu.meta.input == emu.meta.input);
  CHECK(gpu.result.output == emu.result.output);
  CHECK(gpu.result.outcome == Outcome::Correct);

  REQUIRE(gpu.buffers.size() == emu.buffers.size());
  for (std::size_t b = 0; b < gpu.buffers.size(); ++b) {
    CHECK(gpu.buffers[b].name == emu.buffers[b].name);
    CHECK(gpu.buffers[b].length == emu.buffers[b].length);
    CHECK(gpu.buffers[b].space == emu.buffers[b].space);
  }
  REQUIRE(gpu.steps.size() == emu.steps.size());
  REQUIRE(gpu.snapshots.size() == emu.snapshots.size());
  int differing_cells = 0;
  for (std::size_t k = 0; k < gpu.steps.size(); ++k) {
    CHECK(gpu.steps[k].label() == emu.steps[k].label());
    CHECK(gpu.steps[k].line == emu.steps[k].line);
    for (std::size_t b = 0; b < gpu.buffers.size(); ++b) {
      const BufferSnapshot& g = gpu.snapshots[k][b];
      const BufferSnapshot& e = emu.snapshots[k][b];
      CHECK(g.defined == e.defined);
      for (std::size_t i = 0; i < g.values.size() && i < e.values.size(); ++i)
        if (e.defined[i] && g.values[i] != e.values[i]) ++differing_cells;
    }
  }
  CHECK(differing_cells == 0);

  const Metrics mg = compute_metrics(gpu), me = compute_metrics(emu);
  CHECK(mg.steps == me.steps);
  CHECK(mg.operations == me.operations);
  CHECK(mg.barriers == me.barriers);
  for (std::size_t k = 0; k < mg.per_step.size(); ++k) {
    CHECK(mg.per_step[k].operations == me.per_step[k].operations);
    CHECK(mg.per_step[k].active_threads == me.per_step[k].active_threads);
    CHECK(mg.per_step[k].reads == me.per_step[k].reads);
    CHECK(mg.per_step[k].writes == me.per_step[k].writes);
  }
  for (std::size_t b = 0; b < mg.per_buffer.size(); ++b) {
    CHECK(mg.per_buffer[b].reads == me.per_buffer[b].reads);
    CHECK(mg.per_buffer[b].writes == me.per_buffer[b].writes);
  }
  CHECK(edge_keys(gpu) == edge_keys(emu));
  CHECK(find_hazards(gpu).empty());

  // Hardware facts: one block runs on one SM, and the global timer moves forward.
  std::uint64_t first_time = UINT64_MAX, last_time = 0;
  for (const Event& ev : gpu.events) {
    CHECK(ev.sm == gpu.events.front().sm);
    first_time = std::min(first_time, ev.time);
    last_time = std::max(last_time, ev.time);
  }
  CHECK(first_time > 0);
  CHECK(last_time >= first_time);
}

// warp: the warp-level algorithms' warp width (0: their default); sizes whose block is narrower skip.
void parity_for(const std::string& algo, std::int32_t warp = 0,
                const std::vector<std::pair<OpKind, ValueType>>& ops = sv_test::all_ops()) {
  const AlgorithmInfo& info = *find_algorithm(algo);
  std::vector<std::int64_t> sizes = {1, 2, 17, 32, 33, 64, 100, 1000, 1024};
  if (info.items_per_thread == 2) sizes.push_back(2048);
  for (auto [op, type] : ops) {
    for (std::int64_t n : sizes) {
      if (warp > std::max<std::int64_t>(2, static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(n))))) continue;
      for (bool exclusive : {false, true}) {
        CAPTURE(algo);
        CAPTURE(warp);
        CAPTURE(op_name(op));
        CAPTURE(type_name(type));
        CAPTURE(n);
        CAPTURE(exclusive);
        const Trace gpu = record_gpu(algo, n, op, type, exclusive, 77 + n, warp);
        const Trace emu = record_emulator(algo, n, op, type, exclusive, 77 + n, warp);
        CHECK(gpu.meta.warp_width() == emu.meta.warp_width());
        check_parity(gpu, emu);
      }
    }
  }
}

// The warp-level scans at every other warp width, on a few operators (32-bit, 64-bit and the
// 20-byte interval: the shuffles move them word by word).
void parity_at_widths(const std::string& algo) {
  const std::vector<std::pair<OpKind, ValueType>> ops = {
      {OpKind::Sum, ValueType::I32}, {OpKind::Max, ValueType::F64}, {OpKind::Interval, ValueType::Interval}};
  for (std::int32_t warp : {2, 8, 16, 32}) parity_for(algo, warp, ops);
}

}  // namespace

// A test case for every race-free row of the algorithm table; the warp-level ones also at warps of 4,
// Merrill and Garland's Fig. 2 (their default is 32, the kernels a GPU runs).
#define PARITY_TESTS_Block_RaceFree(name) \
  TEST_CASE("gpu parity: " name) { parity_for(name); }
#define PARITY_TESTS_Block_Racy(name)
#define PARITY_TESTS_WarpLevel_RaceFree(name) \
  TEST_CASE("gpu parity: " name) {            \
    parity_for(name);                         \
    parity_for(name, 4);                      \
  }
#define PARITY_TESTS(name, kind, hazards) PARITY_TESTS_##kind##_##hazards(name)
#define SCANVIZ_BLOCK_ALGORITHM(name, Type, kind, hazards, ...) PARITY_TESTS(name, kind, hazards)
#define SCANVIZ_DEVICE_ALGORITHM(...)
#include "algorithms.def"
#undef SCANVIZ_BLOCK_ALGORITHM
#undef SCANVIZ_DEVICE_ALGORITHM

TEST_CASE("gpu parity: the warp-level scans at warp widths 2, 8, 16 and 32") {
  for (const std::string& algo : sv_test::algorithms(sv_test::Rows::WarpLevel)) parity_at_widths(algo);
}

TEST_CASE("gpu: Fig. 2 counts at n = 16, warps of 4, from the GPU's trace") {
  const std::tuple<const char*, std::int64_t, std::int64_t> figures[] = {
      {"warp-brent-kung", 5, 37}, {"warp-raking", 9, 29}, {"warp-sklansky", 4, 36}};
  for (const auto& [algo, levels, operators] : figures) {
    CAPTURE(algo);
    const Trace t = record_gpu(algo, 16, OpKind::Interval, ValueType::Interval, false, 1, 4);
    const Metrics m = compute_metrics(t);
    CHECK(m.steps == levels);
    CHECK(m.operations == operators);
    CHECK(m.barriers == 2);
    CHECK(t.result.outcome == Outcome::Correct);
  }
}

TEST_CASE("gpu: the warp-level kernels untraced (what bench times) are correct, also with the amplifier") {
  for (const std::string& algo : sv_test::algorithms(sv_test::Rows::WarpLevel))
    for (std::int32_t warp : {0, 4}) {
      BlockRunConfig c;
      c.algorithm = algo;
      c.n = 1000;
      c.warp = warp;
      CAPTURE(algo);
      CAPTURE(warp);
      const WrongCount w = count_wrong_outputs_gpu(c, 20, 3);
      CHECK(w.runs == 20);
      CHECK(w.wrong == 0);
      CHECK(count_wrong_outputs_gpu(c, 20, 0).wrong == 0);
    }
}

TEST_CASE("gpu parity: segmented scans, every block algorithm, every operator on int32 and interval") {
  for (const std::string& algo : sv_test::algorithms(sv_test::Rows::RaceFreeBlock))
    for (auto [op, type] : sv_test::all_ops()) {
      if (type != ValueType::I32 && type != ValueType::Interval) continue;
      for (std::int64_t n : {1, 17, 32, 100, 1024}) {
        CAPTURE(algo);
        CAPTURE(op_name(op));
        CAPTURE(n);
        BlockRunConfig c = sv_test::config(algo, n, op, type, "in-order", false, 31 + n);
        c.flags = random_flags(static_cast<std::size_t>(n), 0.2, 5 + n);
        const Trace gpu = record_block_scan_gpu(c, kTestOptions);
        c.schedule = *Schedule::parse("random:5");
        const Trace emu = record_block_scan(c);
        CHECK(gpu.meta.flags == c.flags);
        check_parity(gpu, emu);
      }
    }
  BlockRunConfig c = sv_test::config("brent-kung", 16, OpKind::Max, ValueType::F32);
  c.flags = random_flags(16, 0.3, 1);
  CHECK_THROWS_WITH_AS(record_block_scan_gpu(c, kTestOptions), doctest::Contains("built for int32"), std::invalid_argument);
}

TEST_CASE("gpu: stream compaction and allocation scan on the GPU as on the emulator") {
  BlockRunConfig c = sv_test::config("brent-kung", 7, OpKind::Sum, ValueType::I32, "in-order", true);
  for (std::int32_t r : {8, 6, 7, 5, 3, 0, 9}) c.input.push_back(Payload::of(r));
  c.application.kind = "allocate";
  const Trace gpu = record_block_scan_gpu(c, kTestOptions);
  std::vector<std::int32_t> offsets;
  for (const Payload& p : gpu.result.output) offsets.push_back(p.as<std::int32_t>());
  CHECK(offsets == std::vector<std::int32_t>{0, 8, 14, 21, 26, 29, 29});
  CHECK(gpu.meta.application.kind == "allocate");

  // Compaction: the GPU's exclusive sum of the predicate scatters exactly the elements a plain
  // filter keeps, in order, on sizes in and beyond one warp, for each block algorithm.
  for (const char* algo : {"kogge-stone", "brent-kung", "blelloch", "warp-raking", "warp-sklansky"})
    for (std::int64_t n : {1, 31, 100, 1000}) {
      CAPTURE(algo);
      CAPTURE(n);
      BlockRunConfig k = sv_test::config(algo, n, OpKind::Sum, ValueType::I32, "in-order", true);
      const Predicate keep = Predicate::parse("x % 3 == 0 || x < -5");
      k.application.kind = "compact";
      k.application.predicate = keep.text();
      k.application.values = random_input(OpKind::Sum, ValueType::I32, static_cast<std::size_t>(n), 40 + n);
      k.input = compaction_flags(keep, ValueType::I32, k.application.values);
      const ApplicationView v = application_view(record_block_scan_gpu(k, kTestOptions));
      std::vector<std::int32_t> kept, expected;
      for (std::int64_t i : v.owner)
        if (i >= 0) kept.push_back(k.application.values[static_cast<std::size_t>(i)].as<std::int32_t>());
      for (const Payload& x : k.application.values)
        if (keep(x.as<std::int32_t>())) expected.push_back(x.as<std::int32_t>());
      CHECK(v.correct);
      CHECK(v.collisions == 0);
      CHECK(v.total == static_cast<std::int64_t>(expected.size()));
      CHECK(kept == expected);
    }
}

TEST_CASE("gpu: the racy kernel's GPU trace shows its hazards on the operator's line") {
  for (std::int64_t n : {64, 1024}) {
    CAPTURE(n);
    const Trace t = record_gpu("kogge-stone-racy", n, OpKind::Interval, ValueType::Interval, false);
    const auto hazards = find_hazards(t);
    CHECK_FALSE(hazards.empty());
    std::uint32_t op_line = 0;
    for (const Event& e : t.events)
      if (e.kind == EventKind::Op) op_line = e.line;
    for (const Hazard& h : hazards) {
      CHECK(h.first.line == op_line);
      CHECK(h.second.line == op_line);
      CHECK(t.buffers[h.buffer].name == "buffer_s");
    }
    // The emulator reports the same (buffer, index, thread pair) set under every schedule.
    const Trace emu = sv_test::record_interval("kogge-stone-racy", n, "reverse");
    std::set<std::tuple<std::int64_t, std::uint32_t, std::uint32_t>> g, e;
    for (const Hazard& h : hazards) g.insert({h.index, std::min(h.first.thread, h.second.thread), std::max(h.first.thread, h.second.thread)});
    for (const Hazard& h : find_hazards(emu)) e.insert({h.index, std::min(h.first.thread, h.second.thread), std::max(h.first.thread, h.second.thread)});
    CHECK(g == e);
  }
}

TEST_CASE("gpu: a trace buffer too small fails, naming the capacity and the size needed") {
  BlockRunConfig c;
  c.algorithm = "kogge-stone";
  c.n = 64;
  const Trace full = record_block_scan_gpu(c, kTestOptions);
  try {
    record_block_scan_gpu(c, GpuOptions{100, 0});
    FAIL("no error for a 100-event trace buffer");
  } catch (const GpuError& e) {
    const std::string msg = e.what();
    CHECK(msg.find("holds 100 events") != std::string::npos);
    CHECK(msg.find("needed " + std::to_string(full.events.size())) != std::string::npos);
  }
}

TEST_CASE("gpu: the amplifier leaves race-free kernels correct") {
  BlockRunConfig c;
  c.algorithm = "kogge-stone-double-buffer";
  c.n = 1024;
  const WrongCount w = count_wrong_outputs_gpu(c, 50, 9);
  CHECK(w.runs == 50);
  CHECK(w.wrong == 0);
  const Trace t = record_block_scan_gpu(c, GpuOptions{1u << 18, 9});
  CHECK(t.result.outcome == Outcome::Correct);
  CHECK(t.meta.options.at("amplify") == "9");
}
