// The worked examples of the seeds give the seeds' outputs: PMPP ch. 11 (Kogge-Stone and Brent-Kung
// diagrams, the 3 6 7 4 8 2 1 9 example) and the Blelloch slides (input 1..8).
#include <doctest/doctest.h>

#include <algorithm>

#include "algorithms.hpp"
#include "helpers.hpp"

using namespace sv;

namespace {

using Rows = std::vector<std::vector<std::string>>;

// The shared buffer after each step of the given phases, as interval labels.
Rows rows_of(const Trace& t, const std::string& buffer, std::initializer_list<Phase> phases) {
  Rows rows;
  const int b = t.find_buffer(buffer);
  REQUIRE(b >= 0);
  for (std::size_t k = 0; k < t.steps.size(); ++k) {
    if (std::find(phases.begin(), phases.end(), t.steps[k].phase) == phases.end()) continue;
    std::vector<std::string> row;
    for (const Payload& v : t.snapshots[k][b].values) row.push_back(format_value(t.meta.type, v));
    rows.push_back(row);
  }
  return rows;
}

std::vector<std::int32_t> ints(const std::vector<Payload>& v) {
  std::vector<std::int32_t> out;
  for (const Payload& p : v) out.push_back(p.as<std::int32_t>());
  return out;
}

}  // namespace

TEST_CASE("PMPP slide 3: every algorithm scans 3 6 7 4 8 2 1 9") {
  const auto input = slides_input(OpKind::Sum, ValueType::I32, 8);
  for (const AlgorithmInfo& a : block_algorithms()) {
    if (a.racy) continue;
    CAPTURE(a.name);
    const auto inc = sv_test::record(std::string(a.name), 8, OpKind::Sum, ValueType::I32, "in-order", false, 1, input);
    CHECK(ints(inc.result.output) == std::vector<std::int32_t>{3, 9, 16, 20, 28, 30, 31, 40});
    const auto exc = sv_test::record(std::string(a.name), 8, OpKind::Sum, ValueType::I32, "in-order", true, 1, input);
    CHECK(ints(exc.result.output) == std::vector<std::int32_t>{0, 3, 9, 16, 20, 28, 30, 31});
  }
}

TEST_CASE("PMPP slides 12 and 18: Kogge-Stone rows, single and double buffered") {
  const Rows expected = {
      {"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7"},
      {"x0", "x0..x1", "x1..x2", "x2..x3", "x3..x4", "x4..x5", "x5..x6", "x6..x7"},
      {"x0", "x0..x1", "x0..x2", "x0..x3", "x1..x4", "x2..x5", "x3..x6", "x4..x7"},
      {"x0", "x0..x1", "x0..x2", "x0..x3", "x0..x4", "x0..x5", "x0..x6", "x0..x7"},
  };
  for (const char* algo : {"kogge-stone", "kogge-stone-racy"}) {
    CAPTURE(algo);
    CHECK(rows_of(sv_test::record_interval(algo, 8), "buffer_s", {Phase::Load, Phase::Stride}) == expected);
  }
  // Double buffering: the rows alternate between buffer1 and buffer2 (in = buffer1, out = buffer2, ...).
  const Trace db = sv_test::record_interval("kogge-stone-double-buffer", 8);
  const Rows b1 = rows_of(db, "buffer1_s", {Phase::Load, Phase::Stride});
  const Rows b2 = rows_of(db, "buffer2_s", {Phase::Stride});
  CHECK(b1[0] == expected[0]);
  CHECK(b2[0] == expected[1]);
  CHECK(b1[2] == expected[2]);
  CHECK(b2[2] == expected[3]);
}

TEST_CASE("PMPP slide 21: Brent-Kung reduction and post-reduction rows") {
  const Rows expected = {
      {"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7"},
      {"x0", "x0..x1", "x2", "x2..x3", "x4", "x4..x5", "x6", "x6..x7"},
      {"x0", "x0..x1", "x2", "x0..x3", "x4", "x4..x5", "x6", "x4..x7"},
      {"x0", "x0..x1", "x2", "x0..x3", "x4", "x4..x5", "x6", "x0..x7"},
      {"x0", "x0..x1", "x2", "x0..x3", "x4", "x0..x5", "x6", "x0..x7"},
      {"x0", "x0..x1", "x0..x2", "x0..x3", "x0..x4", "x0..x5", "x0..x6", "x0..x7"},
  };
  CHECK(rows_of(sv_test::record_interval("brent-kung", 8), "XY_s", {Phase::Load, Phase::Reduction, Phase::PostReduction}) ==
        expected);
}

TEST_CASE("Blelloch slides: input 1..8 keeps the partial sums 3, 7, 11, 15, 10, 26 and scans to 0 1 3 6 10 15 21 28") {
  std::vector<Payload> input;
  for (int i = 1; i <= 8; ++i) input.push_back(Payload::of(std::int32_t(i)));
  const Trace t = sv_test::record("blelloch", 8, OpKind::Sum, ValueType::I32, "in-order", true, 1, input);
  const int b = t.find_buffer("temp_s");
  std::size_t last_up = 0;
  for (std::size_t k = 0; k < t.steps.size(); ++k)
    if (t.steps[k].phase == Phase::UpSweep) last_up = k;
  // After the up-sweep: 1 3 3 10 5 11 7 36 holds pairs 3 7 11 15 -> 10 26 -> 36 (7 and 15 were
  // overwritten by 10 and 36, they live on at positions 3 and 7 before that).
  CHECK(ints(t.snapshots[last_up][b].values) == std::vector<std::int32_t>{1, 3, 3, 10, 5, 11, 7, 36});
  CHECK(ints(t.snapshots[1][b].values) == std::vector<std::int32_t>{1, 3, 3, 7, 5, 11, 7, 15});
  CHECK(ints(t.snapshots[2][b].values) == std::vector<std::int32_t>{1, 3, 3, 10, 5, 11, 7, 26});
  CHECK(ints(t.result.output) == std::vector<std::int32_t>{0, 1, 3, 6, 10, 15, 21, 28});
  const Trace inc = sv_test::record("blelloch", 8, OpKind::Sum, ValueType::I32, "in-order", false, 1, input);
  CHECK(ints(inc.result.output) == std::vector<std::int32_t>{1, 3, 6, 10, 15, 21, 28, 36});
}
