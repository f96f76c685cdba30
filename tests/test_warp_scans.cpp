// The warp-level hybrid block scans of Merrill and Garland's Fig. 2 (warp-brent-kung, warp-raking,
// warp-sklansky): the figure's depth and operator counts at n = 16 with warps of 4, counts at other
// sizes worked out by hand from the constructions, every operator and warp width against the one
// sequential reference, the emulator's shuffles, the warp width in the trace file, and bad widths.
#include <doctest/doctest.h>

#include <stdexcept>

#include "algorithms.hpp"
#include "analysis/analysis.hpp"
#include "analysis/divergence.hpp"
#include "analysis/predict.hpp"
#include "emulator/block_emulator.hpp"
#include "helpers.hpp"
#include "trace/trace_json.hpp"

using namespace sv;

namespace {

const std::vector<std::string> kWarpAlgorithms = sv_test::algorithms(sv_test::Rows::WarpLevel);

Trace record_warp(const std::string& algo, std::int64_t n, std::int32_t warp, OpKind op = OpKind::Interval,
                  ValueType type = ValueType::Interval, const std::string& schedule = "in-order", bool exclusive = false,
                  std::uint64_t seed = 1) {
  BlockRunConfig c = sv_test::config(algo, n, op, type, schedule, exclusive, seed);
  c.warp = warp;
  return record_block_scan(c);
}

std::vector<std::int64_t> ops_per_op_step(const Trace& t) {
  const Metrics m = compute_metrics(t);
  std::vector<std::int64_t> out;
  for (const StepMetrics& s : m.per_step)
    if (s.operations) out.push_back(s.operations);
  return out;
}

void check_against_reference(const Trace& t) {
  const auto ref = reference_scan(t.meta.op, t.meta.type, t.meta.input, t.meta.exclusive);
  REQUIRE(t.result.output.size() == ref.size());
  CHECK(mismatches(t.meta.op, t.meta.type, t.meta.input, t.meta.exclusive, ref, t.result.output).empty());
  CHECK(t.result.outcome == Outcome::Correct);
}

}  // namespace

// The paper's text: "(a) ... the depth is 5 levels and size is 37 operators", "(b) ... relatively deep
// (9 levels) ... only 29 operators", "(c) ... the depth is 4 levels and size is 36 operators"; (a) and
// (b) need "only two block-wide barriers", (c) one per doubling of the span over 4 warps: two.
TEST_CASE("Fig. 2 at n = 16, warps of 4: depth and operators as the figure counts them") {
  struct Figure {
    const char* algo;
    std::int64_t levels, operators, barriers;
    std::vector<std::int64_t> per_level;
  };
  const Figure figures[] = {
      // 4 Kogge-Stone warp scans of 4 (3 + 2 operators each), the root warp's scan of the 4 totals
      // (3 + 2), then warps 1..3 each add the totals before them to their 4 cells.
      {"warp-brent-kung", 5, 37, 2, {4 * 3, 4 * 2, 3, 2, 3 * 4}},
      // 4 raking lanes fold their 4 cells (3 serial operators each), the warp scan of the 4 totals
      // (3 + 2), then lanes 1..3 fold their 4 cells into the totals before them (4 serial each).
      {"warp-raking", 9, 29, 2, {4, 4, 4, 3, 2, 3, 3, 3, 3}},
      // 4 warp scans as in (a), then Sklansky fans at spans 4 and 8 (8 upper-half cells each).
      {"warp-sklansky", 4, 36, 2, {4 * 3, 4 * 2, 8, 8}},
  };
  for (const Figure& f : figures) {
    for (const std::string schedule : {"in-order", "reverse", "random:9"}) {
      CAPTURE(f.algo);
      CAPTURE(schedule);
      const Trace t = record_warp(f.algo, 16, 4, OpKind::Interval, ValueType::Interval, schedule);
      const Metrics m = compute_metrics(t);
      CHECK(m.steps == f.levels);
      CHECK(m.operations == f.operators);
      CHECK(m.barriers == f.barriers);
      CHECK(ops_per_op_step(t) == f.per_level);
      CHECK(find_hazards(t).empty());
      check_against_reference(t);
      CHECK(t.meta.block == 16);
      CHECK(t.meta.warp_width() == 4);
    }
  }
}

TEST_CASE("warp-level counts at other sizes and widths, worked out by hand") {
  struct Case {
    const char* algo;
    std::int64_t n;
    std::int32_t warp;
    std::int64_t steps, operations;
  };
  const Case cases[] = {
      // 16 warp scans of 4 (80) + fan 60; 4 warps scan the 16 totals (20) + fan 12; the root's 4 (5).
      {"warp-brent-kung", 64, 4, 2 + 2 + 2 + 2, 80 + 60 + 20 + 12 + 5},
      // 8 warps (40) + fan 28; 2 warps scan the 8 totals (10) + fan 4; the root's 2 totals (1).
      {"warp-brent-kung", 32, 4, 2 + 2 + 1 + 2, 40 + 28 + 10 + 4 + 1},
      // 32 warps of 32 (32 x (160 - 31)) + fan 992; the root's 32 totals (129).
      {"warp-brent-kung", 1024, 32, 5 + 5 + 1, 32 * 129 + 992 + 129},
      // one warp: Kogge-Stone over 8 lanes
      {"warp-brent-kung", 8, 8, 3, 8 * 3 - 7},
      // lanes rake 16 cells: 15 x 4 serial, the scan of 4 (5), 16 x 3 serial.
      {"warp-raking", 64, 4, 15 + 2 + 16, 60 + 5 + 48},
      {"warp-raking", 1024, 32, 31 + 5 + 32, 31 * 32 + 129 + 32 * 31},
      {"warp-raking", 16, 2, 7 + 1 + 8, 14 + 1 + 8},
      // 16 warp scans of 4 (80), spans 4, 8, 16, 32 of 32 cells each.
      {"warp-sklansky", 64, 4, 2 + 4, 80 + 4 * 32},
      {"warp-sklansky", 1024, 32, 5 + 5, 32 * 129 + 5 * 512},
      {"warp-sklansky", 32, 2, 1 + 4, 16 + 4 * 16},
  };
  for (const Case& c : cases) {
    CAPTURE(c.algo);
    CAPTURE(c.n);
    CAPTURE(c.warp);
    const Metrics m = compute_metrics(record_warp(c.algo, c.n, c.warp, OpKind::Sum, ValueType::I64, "random:3"));
    CHECK(m.steps == c.steps);
    CHECK(m.operations == c.operations);
    const auto cf = closed_form(c.algo, c.n, false, c.warp);
    REQUIRE(cf);
    CHECK(cf->steps == c.steps);
    CHECK(cf->operations == c.operations);
  }
}

TEST_CASE("warp-level scans match the reference: every operator, sizes, schedules, inclusive and exclusive") {
  const std::vector<std::int64_t> sizes = {1, 2, 3, 16, 17, 31, 32, 33, 100, 1000, 1024};
  for (const std::string& algo : kWarpAlgorithms)
    for (bool exclusive : {false, true})
      for (auto [op, type] : sv_test::all_ops())
        for (std::int64_t n : sizes)
          for (const std::string schedule : {"in-order", "reverse", "random:7"}) {
            CAPTURE(algo);
            CAPTURE(op_name(op));
            CAPTURE(type_name(type));
            CAPTURE(n);
            CAPTURE(schedule);
            CAPTURE(exclusive);
            check_against_reference(record_warp(algo, n, 0, op, type, schedule, exclusive, 2000 + n));
          }
}

TEST_CASE("warp-level scans match the reference at every warp width") {
  const std::pair<OpKind, ValueType> ops[] = {{OpKind::Sum, ValueType::I32},
                                              {OpKind::Interval, ValueType::Interval},
                                              {OpKind::Min, ValueType::F64},
                                              {OpKind::BitXor, ValueType::I64}};
  for (const std::string& algo : kWarpAlgorithms)
    for (std::int32_t warp : {2, 4, 8, 16, 32})
      for (std::int64_t n : {16, 17, 64, 100, 513, 1024})
        for (auto [op, type] : ops)
          for (bool exclusive : {false, true}) {
            if (warp > static_cast<std::int32_t>(std::bit_ceil(static_cast<std::uint64_t>(n)))) continue;
            CAPTURE(algo);
            CAPTURE(warp);
            CAPTURE(n);
            CAPTURE(op_name(op));
            CAPTURE(exclusive);
            const Trace t = record_warp(algo, n, warp, op, type, "random:11", exclusive, 77 + n);
            check_against_reference(t);
            CHECK(find_hazards(t).empty());
            if (std::has_single_bit(static_cast<std::uint64_t>(n))) {
              const Metrics m = compute_metrics(t);
              const auto cf = closed_form(algo, n, exclusive, warp);
              REQUIRE(cf);
              CHECK(m.steps == cf->steps);
              CHECK(m.operations == cf->operations);
            }
          }
}

TEST_CASE("warp width: default, the trace's options and events, divergence in warps of that width") {
  CHECK(record_warp("warp-sklansky", 1000, 0, OpKind::Sum, ValueType::I32).meta.warp_width() == 32);
  CHECK(record_warp("warp-sklansky", 8, 0, OpKind::Sum, ValueType::I32).meta.warp_width() == 8);  // the block
  CHECK(sv_test::record("sklansky", 64, OpKind::Sum, ValueType::I32).meta.options.count("warp") == 0);
  const Trace t = record_warp("warp-brent-kung", 16, 4);
  CHECK(t.meta.options.at("warp") == "4");
  const Divergence d = compute_divergence(t);
  CHECK(d.warp_width == 4);
  CHECK(d.warps_per_block == 4);

  // Saved and loaded: the events' warp field is thread / 4; a bad width in the file is refused.
  const std::string text = trace_to_json(t);
  const Trace back = trace_from_json(text);
  CHECK(back.meta.warp_width() == 4);
  CHECK(back.events.size() == t.events.size());
  CHECK(text.find(",\"op\",0,13,3,") != std::string::npos);  // seq, kind, block, thread 13, warp 3
  std::string bad = text;
  const auto at = bad.find("\"warp\": \"4\"");
  REQUIRE(at != std::string::npos);
  bad.replace(at, 11, "\"warp\": \"3\"");
  CHECK_THROWS_WITH_AS(trace_from_json(bad), doctest::Contains("options.warp"), TraceError);
}

// From the kernels' ifs, warps of 4 at n = 16: a warp-scan offset d idles lanes 0..d-1 of every warp;
// Sklansky's span s idles the lower half of each group of 2s cells (whole warps here); raking's work is
// warp 0's alone.
TEST_CASE("divergence of the warp-level scans, warps of 4, from their ifs") {
  struct Row {
    const char* label;
    std::int64_t divergent, idle, idle_lanes;
  };
  const auto check_rows = [](const Trace& t, const std::vector<Row>& rows) {
    const Divergence d = compute_divergence(t);
    std::size_t r = 0;
    for (std::size_t k = 0; k < t.steps.size(); ++k) {
      if (compute_metrics(t).per_step[k].operations == 0) continue;
      REQUIRE(r < rows.size());
      CAPTURE(rows[r].label);
      CHECK(t.steps[k].label() == rows[r].label);
      CHECK(d.per_step[k].divergent_warps == rows[r].divergent);
      CHECK(d.per_step[k].idle_warps == rows[r].idle);
      CHECK(d.per_step[k].idle_lanes == rows[r].idle_lanes);
      ++r;
    }
    CHECK(r == rows.size());
  };
  check_rows(record_warp("warp-sklansky", 16, 4),
             {{"warp-scan +1", 4, 0, 4}, {"warp-scan +2", 4, 0, 8}, {"span = 4", 0, 2, 8}, {"span = 8", 0, 2, 8}});
  // The root warp: lanes 1..3, then 2..3, of warp 0 (3 idle warps); the fan: warps 1..3.
  check_rows(record_warp("warp-brent-kung", 16, 4), {{"warp-scan +1", 4, 0, 4},
                                                     {"warp-scan +2", 4, 0, 8},
                                                     {"warp-sums +1", 1, 3, 12 + 1},
                                                     {"warp-sums +2", 1, 3, 12 + 2},
                                                     {"fan", 0, 1, 4}});
  check_rows(record_warp("warp-raking", 16, 4), {{"rake-reduce 1", 0, 3, 12},
                                                 {"rake-reduce 2", 0, 3, 12},
                                                 {"rake-reduce 3", 0, 3, 12},
                                                 {"warp-scan +1", 1, 3, 13},
                                                 {"warp-scan +2", 1, 3, 14},
                                                 {"rake-scan 0", 1, 3, 13},
                                                 {"rake-scan 1", 1, 3, 13},
                                                 {"rake-scan 2", 1, 3, 13},
                                                 {"rake-scan 3", 1, 3, 13}});
}

// Predict-the-step explains a warp-scan cell with the operand that came by the shuffle: at offset 1
// lane i adds lane i-1's cell, read by that lane, to its own.
TEST_CASE("predict: the warp-scan questions name the shuffled operand and its value") {
  const Trace t = record_warp("warp-sklansky", 16, 4);
  REQUIRE(t.steps[1].label() == "warp-scan +1");
  const auto qs = predict_questions(t, find_hazards(t), 1);
  REQUIRE_FALSE(qs.empty());
  for (const PredictQuestion& q : qs) {
    REQUIRE(q.kind == QuestionKind::Value);
    const std::string i = std::to_string(q.index), before = std::to_string(q.index - 1);
    CHECK(q.explanation == "thread " + i + ": data_s[" + before + "] (x" + before + ") + data_s[" + i + "] (x" + i +
                               ") = x" + before + "..x" + i);
    CHECK(q.choices.size() >= 2);
  }
}

TEST_CASE("bad warp widths are refused with a reason") {
  for (const std::string& algo : kWarpAlgorithms) {
    CAPTURE(algo);
    CHECK_THROWS_WITH_AS(record_warp(algo, 16, 3), doctest::Contains("not a power of two"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(record_warp(algo, 16, 1), doctest::Contains("not a power of two from 2 to 32"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(record_warp(algo, 16, 64), doctest::Contains("not a power of two from 2 to 32"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(record_warp(algo, 16, 32), doctest::Contains("exceeds the block"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(record_warp(algo, 5, 16), doctest::Contains("exceeds the block"), std::invalid_argument);
  }
  // The other block algorithms take a width as the emulator's lockstep, 1 to 32.
  CHECK_THROWS_WITH_AS(record_warp("brent-kung", 16, 3), doctest::Contains("not a power of two from 1 to 32"),
                       std::invalid_argument);
}

TEST_CASE("the hierarchical scan takes the warp-level block scans (warps of 32)") {
  for (const std::string& algo : kWarpAlgorithms) {
    CAPTURE(algo);
    BlockRunConfig c = sv_test::config("hierarchical", 5000, OpKind::Sum, ValueType::I64);
    c.options = {{"block-algo", algo}};
    check_against_reference(record_device_scan(c));
    c.block = 16;  // tiles of 16: narrower than a warp
    CHECK_THROWS_WITH_AS(record_device_scan(c), doctest::Contains("exceeds the block"), std::invalid_argument);
  }
}

TEST_CASE("emulator shuffles: lockstep exchange, and a lane alone at a shuffle is an error") {
  Trace trace;
  std::vector<Payload> input(8, Payload::of(std::int32_t{1}));
  BlockEmulator emu(trace, Schedule{}, 8, 0, input, 8, true, 4);
  emu.run([&](EmuExec& x) {
    auto out = x.output<std::int32_t>();
    const EmuVal<std::int32_t> mine{static_cast<std::int32_t>(10 * x.thread()), Origin::none()};
    const EmuVal<std::int32_t> got = x.shfl_up(mine, 2, 4);
    out(x.thread()) = got;
  });
  // lanes 0, 1 of each warp of 4 keep their own value; the others get lane - 2's
  const std::vector<std::int32_t> expected = {0, 10, 0, 10, 40, 50, 40, 50};
  for (int i = 0; i < 8; ++i) CHECK(emu.buffer_values(1)[i].as<std::int32_t>() == expected[i]);

  Trace t2;
  BlockEmulator lonely(t2, Schedule{}, 8, 0, input, 8, true, 4);
  CHECK_THROWS_WITH_AS(lonely.run([&](EmuExec& x) {
    const EmuVal<std::int32_t> v{1, Origin::none()};
    if (x.thread() == 5) (void)x.shfl_up(v, 1, 4);
    x.sync();
  }),
                       doctest::Contains("thread 5: waits at a shuffle"), EmulationError);
  Trace t3;
  BlockEmulator wrong_width(t3, Schedule{}, 8, 0, input, 8, true, 4);
  CHECK_THROWS_WITH_AS(wrong_width.run([&](EmuExec& x) {
    const EmuVal<std::int32_t> v{1, Origin::none()};
    (void)x.shfl_up(v, 1, 8);
  }),
                       doctest::Contains("warps of 4 lanes"), EmulationError);
}
