// Dataflow edges: which cells each operator application combined into which cell (the arrows).
#include <doctest/doctest.h>

#include "analysis/analysis.hpp"
#include "helpers.hpp"

using namespace sv;

TEST_CASE("kogge-stone-double-buffer n = 8: the arrows of stride 2 go from in[t-2] and in[t] to out[t]") {
  const Trace t = sv_test::record_interval("kogge-stone-double-buffer", 8);
  const auto edges = dataflow_edges(t);
  int step = -1;
  for (std::size_t k = 0; k < t.steps.size(); ++k)
    if (t.steps[k].label() == "stride = 2") step = static_cast<int>(k);
  REQUIRE(step >= 0);
  // At stride 2 the input is buffer2_s (written by stride 1) and the output buffer1_s.
  const int in_b = t.find_buffer("buffer2_s"), out_b = t.find_buffer("buffer1_s");
  int left = 0, right = 0, copies = 0;
  for (const Edge& e : edges) {
    if (e.step != step) continue;
    CHECK(e.from_buffer == in_b);
    CHECK(e.to_buffer == out_b);
    CHECK(e.thread == e.to_index);
    switch (e.role) {
      case EdgeRole::Left: CHECK(e.from_index == e.to_index - 2); ++left; break;
      case EdgeRole::Right: CHECK(e.from_index == e.to_index); ++right; break;
      case EdgeRole::Copy: CHECK(e.from_index == e.to_index); CHECK(e.to_index < 2); ++copies; break;
    }
  }
  CHECK(left == 6);
  CHECK(right == 6);
  CHECK(copies == 2);
}

TEST_CASE("kogge-stone (two barriers): the operand read before the barrier still draws its arrow") {
  const Trace t = sv_test::record_interval("kogge-stone", 8);
  const auto edges = dataflow_edges(t);
  const int s = t.find_buffer("buffer_s");
  int stride4 = 0;
  for (const Edge& e : edges) {
    if (e.step < 0 || t.steps[e.step].label() != "stride = 4") continue;
    CHECK(e.from_buffer == s);
    if (e.role == EdgeRole::Left) CHECK(e.from_index == e.to_index - 4);
    ++stride4;
  }
  CHECK(stride4 == 2 * 4);
}

TEST_CASE("every operator application yields exactly one left and one right arrow into the cell it wrote") {
  for (const std::string& algo : sv_test::algorithms(sv_test::Rows::RaceFree)) {
    CAPTURE(algo);
    const Trace t = sv_test::record(algo, 32, OpKind::Sum, ValueType::I32, "random:2");
    const auto edges = dataflow_edges(t);
    std::int64_t ops_written = 0;
    for (const Event& e : t.events)
      if (e.kind == EventKind::Write && e.a.kind == Origin::OpResult) ++ops_written;
    std::int64_t left = 0, right = 0;
    for (const Edge& e : edges) {
      left += e.role == EdgeRole::Left;
      right += e.role == EdgeRole::Right;
    }
    CHECK(left == ops_written);
    CHECK(right == ops_written);
  }
}
