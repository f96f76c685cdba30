// Steps and operator applications measured from traces equal the closed forms of the slides
// (Kogge-Stone, Brent-Kung) and of the header comments (Blelloch, Sklansky).
#include <doctest/doctest.h>

#include <bit>

#include "algorithms.hpp"
#include "analysis/analysis.hpp"
#include "helpers.hpp"

using namespace sv;

namespace {
std::int64_t lg(std::int64_t n) { return std::countr_zero(static_cast<std::uint64_t>(n)); }
}  // namespace

TEST_CASE("closed forms, written out independently of closed_form()") {
  for (std::int64_t n = 2; n <= 1024; n *= 2) {
    const std::int64_t k = lg(n);
    CAPTURE(n);
    const Metrics ks = compute_metrics(sv_test::record_interval("kogge-stone", n));
    CHECK(ks.steps == k);
    CHECK(ks.operations == n * k - (n - 1));
    const Metrics ksdb = compute_metrics(sv_test::record_interval("kogge-stone-double-buffer", n));
    CHECK(ksdb.steps == k);
    CHECK(ksdb.operations == n * k - (n - 1));
    const Metrics bk = compute_metrics(sv_test::record_interval("brent-kung", n));
    CHECK(bk.steps == 2 * k - 1);
    CHECK(bk.operations == 2 * n - k - 2);
    const Metrics bl = compute_metrics(sv_test::record("blelloch", n, OpKind::Interval, ValueType::Interval, "in-order", true));
    CHECK(bl.steps == 2 * k);
    CHECK(bl.operations == 2 * (n - 1));
    const Metrics bli = compute_metrics(sv_test::record_interval("blelloch", n));
    CHECK(bli.steps == 2 * k + 1);
    CHECK(bli.operations == 2 * n - 1);
    const Metrics sk = compute_metrics(sv_test::record_interval("sklansky", n));
    CHECK(sk.steps == k);
    CHECK(sk.operations == n / 2 * k);
  }
}

TEST_CASE("metrics equal closed_form() for every algorithm, operator and schedule on powers of two") {
  for (const AlgorithmInfo& a : block_algorithms()) {
    if (a.racy) continue;
    for (std::int64_t n : {2, 4, 64, 512, 2048}) {
      if (n > kMaxBlockThreads * a.items_per_thread) continue;
      for (bool exclusive : {false, true}) {
        for (auto [op, type] : {std::pair{OpKind::Sum, ValueType::F32}, std::pair{OpKind::Min, ValueType::I64}}) {
          CAPTURE(a.name);
          CAPTURE(n);
          CAPTURE(exclusive);
          const Metrics m = compute_metrics(sv_test::record(std::string(a.name), n, op, type, "random:5", exclusive));
          const auto cf = closed_form(a.name, n, exclusive);
          REQUIRE(cf);
          CHECK(m.steps == cf->steps);
          CHECK(m.operations == cf->operations);
        }
      }
    }
  }
}

TEST_CASE("Kogge-Stone: n - stride threads are active at each stride (PMPP's work analysis)") {
  const std::int64_t n = 64;
  const Trace t = sv_test::record_interval("kogge-stone-double-buffer", n);
  const Metrics m = compute_metrics(t);
  int checked = 0;
  for (std::size_t k = 0; k < t.steps.size(); ++k) {
    if (t.steps[k].phase != Phase::Stride) continue;
    CHECK(m.per_step[k].active_threads == n - t.steps[k].param);
    CHECK(m.per_step[k].operations == n - t.steps[k].param);
    ++checked;
  }
  CHECK(checked == 6);
}

TEST_CASE("Brent-Kung: the reduction halves the active threads each step") {
  const Trace t = sv_test::record_interval("brent-kung", 16);
  const Metrics m = compute_metrics(t);
  std::vector<std::int64_t> reduction, post;
  for (std::size_t k = 0; k < t.steps.size(); ++k) {
    if (t.steps[k].phase == Phase::Reduction) reduction.push_back(m.per_step[k].active_threads);
    if (t.steps[k].phase == Phase::PostReduction) post.push_back(m.per_step[k].active_threads);
  }
  CHECK(reduction == std::vector<std::int64_t>{8, 4, 2, 1});
  CHECK(post == std::vector<std::int64_t>{1, 3, 7});  // (2-1) + (4-1) + (8-1), slide 23
}

TEST_CASE("barriers and accesses are counted per block and per buffer") {
  const Trace t = sv_test::record_interval("kogge-stone", 8);
  const Metrics m = compute_metrics(t);
  CHECK(m.barriers == 1 + 2 * 3);  // after the load, then two per stride
  const int shared = t.find_buffer("buffer_s");
  REQUIRE(shared >= 0);
  // load 8 writes; strides 1, 2, 4 each write 8 - stride cells and read them twice (operand and own)
  CHECK(m.per_buffer[shared].writes == 8 + 7 + 6 + 4);
  CHECK(m.per_buffer[shared].reads == 2 * (7 + 6 + 4) + 8);  // + the store reads every cell
  CHECK(m.per_buffer[t.find_buffer("input")].reads == 8);
  CHECK(m.per_buffer[t.find_buffer("output")].writes == 8);
}
