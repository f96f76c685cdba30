// Warp divergence and idle warps per step against numbers derived by hand from each kernel's `if`:
// which threads pass it at each step is a range [lo, hi), and a warp of lanes [W·w, W·w + W) is full,
// divergent or idle by how that range cuts it.
#include <doctest/doctest.h>

#include <bit>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/divergence.hpp"
#include "helpers.hpp"
#include "run_command.hpp"

using namespace sv;

namespace {

// The lanes that pass the kernel's `if` in one step: threads lo .. hi-1.
struct ExpectedStep {
  Phase phase;
  std::int64_t param;
  std::int64_t lo, hi;
};

struct Counts {
  std::int64_t full = 0, divergent = 0, idle = 0, idle_lanes = 0;
};

// Warp w holds threads [W·w, min(W·w + W, threads)); it is full when [lo, hi) covers them, idle when
// it misses them all, divergent otherwise.
Counts counts_of(std::int64_t threads, std::int64_t width, std::int64_t lo, std::int64_t hi) {
  Counts c;
  for (std::int64_t first = 0; first < threads; first += width) {
    const std::int64_t last = std::min(first + width, threads);
    const std::int64_t active = std::max<std::int64_t>(0, std::min(last, hi) - std::max(first, lo));
    if (active == last - first) ++c.full;
    else if (active == 0) ++c.idle;
    else ++c.divergent;
    c.idle_lanes += last - first - active;
  }
  return c;
}

// Kogge-Stone (all three): stride s applies the operator in threads t >= s; load and store are done
// by every thread (a store only where t < n).
std::vector<ExpectedStep> kogge_stone_steps(std::int64_t n, std::int64_t threads) {
  std::vector<ExpectedStep> s{{Phase::Load, -1, 0, threads}};
  for (std::int64_t stride = 1; stride < threads; stride *= 2) s.push_back({Phase::Stride, stride, stride, threads});
  s.push_back({Phase::Store, -1, 0, std::min(n, threads)});
  return s;
}

// Brent-Kung, capacity c = 2·threads: reduction stride s works where (t+1)·2s − 1 < c, i.e.
// t < c/2s; post-reduction stride s where (t+1)·2s − 1 + s < c, i.e. (2t + 3)·s <= c, t < c/2s − 1.
std::vector<ExpectedStep> brent_kung_steps(std::int64_t threads) {
  const std::int64_t c = 2 * threads;
  std::vector<ExpectedStep> s{{Phase::Load, -1, 0, threads}};
  for (std::int64_t stride = 1; stride <= c / 2; stride *= 2) s.push_back({Phase::Reduction, stride, 0, c / (2 * stride)});
  for (std::int64_t stride = c / 4; stride > 0; stride /= 2)
    s.push_back({Phase::PostReduction, stride, 0, c / (2 * stride) - 1});
  s.push_back({Phase::Store, -1, 0, threads});
  return s;
}

// Blelloch: up-sweep and down-sweep stride s both work where (t+1)·2s − 1 < c (t < c/2s); thread 0
// alone clears the root.
std::vector<ExpectedStep> blelloch_steps(std::int64_t threads) {
  const std::int64_t c = 2 * threads;
  std::vector<ExpectedStep> s{{Phase::Load, -1, 0, threads}};
  for (std::int64_t stride = 1; stride < c; stride *= 2) s.push_back({Phase::UpSweep, stride, 0, c / (2 * stride)});
  s.push_back({Phase::ClearRoot, -1, 0, 1});
  for (std::int64_t stride = c / 2; stride >= 1; stride /= 2) s.push_back({Phase::DownSweep, stride, 0, c / (2 * stride)});
  s.push_back({Phase::Store, -1, 0, threads});
  return s;
}

// Sklansky: every thread works at every span (no `if`).
std::vector<ExpectedStep> sklansky_steps(std::int64_t threads) {
  std::vector<ExpectedStep> s{{Phase::Load, -1, 0, threads}};
  for (std::int64_t span = 1; span < 2 * threads; span *= 2) s.push_back({Phase::Span, span, 0, threads});
  s.push_back({Phase::Store, -1, 0, threads});
  return s;
}

std::vector<ExpectedStep> expected_steps(const std::string& algo, const Trace& t) {
  if (algo.rfind("kogge-stone", 0) == 0) return kogge_stone_steps(t.meta.n, t.meta.block);
  if (algo == "brent-kung") return brent_kung_steps(t.meta.block);
  if (algo == "blelloch") return blelloch_steps(t.meta.block);
  return sklansky_steps(t.meta.block);
}

void check_against_ranges(const Trace& t, const std::vector<ExpectedStep>& expected, int width) {
  const Divergence d = compute_divergence(t, width);
  REQUIRE(t.steps.size() == expected.size());
  CHECK(d.warps_per_block == (t.meta.block + width - 1) / width);
  std::int64_t divergent = 0, idle = 0, idle_lanes = 0;
  for (std::size_t k = 0; k < expected.size(); ++k) {
    const ExpectedStep& e = expected[k];
    CAPTURE(t.steps[k].label());
    REQUIRE(t.steps[k].phase == e.phase);
    REQUIRE(t.steps[k].param == e.param);
    const Counts c = counts_of(t.meta.block, width, e.lo, e.hi);
    const StepDivergence& s = d.per_step[k];
    CHECK(s.full_warps == c.full);
    CHECK(s.divergent_warps == c.divergent);
    CHECK(s.idle_warps == c.idle);
    CHECK(s.idle_lanes == c.idle_lanes);
    CHECK(s.active_lanes == e.hi - e.lo);
    // Lane by lane: exactly threads lo .. hi-1 are active.
    for (const WarpActivity& w : s.warps)
      for (int lane = 0; lane < w.live_lanes; ++lane) {
        const std::int64_t thread = std::int64_t{w.warp} * width + lane;
        CHECK(((w.active_lanes >> lane) & 1u) == (thread >= e.lo && thread < e.hi ? 1u : 0u));
      }
    divergent += c.divergent;
    idle += c.idle;
    idle_lanes += c.idle_lanes;
  }
  CHECK(d.divergent_warps == divergent);
  CHECK(d.idle_warps == idle);
  CHECK(d.idle_lanes == idle_lanes);
}

const char* const kBlockAlgorithms[] = {"kogge-stone", "kogge-stone-double-buffer", "kogge-stone-racy",
                                        "brent-kung",  "blelloch",                  "sklansky"};

}  // namespace

TEST_CASE("divergence: every block algorithm at power-of-two and other n, lane by lane, against its if") {
  for (const char* algo : kBlockAlgorithms)
    for (std::int64_t n : {1, 8, 17, 64, 100, 1000, 1024}) {
      for (bool exclusive : {false, true}) {
        CAPTURE(algo);
        CAPTURE(n);
        CAPTURE(exclusive);
        const Trace t = sv_test::record(algo, n, OpKind::Sum, ValueType::I32, "in-order", exclusive);
        check_against_ranges(t, expected_steps(algo, t), kWarpWidth);
      }
    }
}

TEST_CASE("divergence: the racy kernel's lanes are the same under every schedule (the race changes values, not lanes)") {
  for (const std::string& schedule : sv_test::schedules()) {
    CAPTURE(schedule);
    const Trace t = sv_test::record("kogge-stone-racy", 100, OpKind::Interval, ValueType::Interval, schedule);
    check_against_ranges(t, kogge_stone_steps(100, 100), kWarpWidth);
  }
}

TEST_CASE("divergence: a block larger than n, and warps of 4 lanes") {
  // kogge-stone, n = 100 in 128 threads: the store is done by threads 0..99 only, so warp 3 (threads
  // 96..127) diverges there.
  BlockRunConfig c = sv_test::config("kogge-stone", 100, OpKind::Sum, ValueType::I32);
  c.block = 128;
  const Trace t = record_block_scan(c);
  check_against_ranges(t, kogge_stone_steps(100, 128), kWarpWidth);
  const Divergence d = compute_divergence(t);
  CHECK(d.per_step.back().divergent_warps == 1);
  CHECK(d.per_step.back().idle_lanes == 28);
  for (const char* algo : kBlockAlgorithms) {
    CAPTURE(algo);
    const Trace small = sv_test::record_interval(algo, 16);
    check_against_ranges(small, expected_steps(algo, small), 4);
  }
  CHECK_THROWS_AS(compute_divergence(t, 3), std::invalid_argument);
  CHECK_THROWS_AS(compute_divergence(t, 64), std::invalid_argument);
}

// n = 1024, the numbers written out. Kogge-Stone: 1024 threads, 32 warps; stride s idles threads
// 0..s-1, so for s < 32 warp 0 diverges and for s >= 32 warps 0..s/32-1 idle whole: 5 divergent
// warp-steps, 1+2+4+8+16 = 31 idle warp-steps, 1+2+...+512 = 1023 idle lanes.
// Brent-Kung: 512 threads, 16 warps; active threads are a prefix [0, a): reduction a = 512/s, post-
// reduction a = 512/s - 1. A warp diverges only where a is not a multiple of 32 (at most one a step),
// and the 16 - ceil(a/32) warps past a idle whole.
TEST_CASE("divergence: n = 1024, Kogge-Stone against Brent-Kung, numbers derived by hand") {
  struct Row {
    const char* label;
    std::int64_t divergent, idle, idle_lanes;
  };
  auto check_rows = [](const Trace& t, const std::vector<Row>& rows) {
    const Divergence d = compute_divergence(t);
    REQUIRE(d.per_step.size() == rows.size());
    for (std::size_t k = 0; k < rows.size(); ++k) {
      CAPTURE(rows[k].label);
      CHECK(t.steps[k].label() == rows[k].label);
      CHECK(d.per_step[k].divergent_warps == rows[k].divergent);
      CHECK(d.per_step[k].idle_warps == rows[k].idle);
      CHECK(d.per_step[k].idle_lanes == rows[k].idle_lanes);
    }
    return d;
  };
  const Trace ks = sv_test::record("kogge-stone", 1024, OpKind::Sum, ValueType::I32);
  const Divergence dks = check_rows(ks, {{"load", 0, 0, 0},
                                         {"stride = 1", 1, 0, 1},
                                         {"stride = 2", 1, 0, 2},
                                         {"stride = 4", 1, 0, 4},
                                         {"stride = 8", 1, 0, 8},
                                         {"stride = 16", 1, 0, 16},
                                         {"stride = 32", 0, 1, 32},
                                         {"stride = 64", 0, 2, 64},
                                         {"stride = 128", 0, 4, 128},
                                         {"stride = 256", 0, 8, 256},
                                         {"stride = 512", 0, 16, 512},
                                         {"store", 0, 0, 0}});
  CHECK(dks.warps_per_block == 32);
  CHECK(dks.divergent_warps == 5);
  CHECK(dks.idle_warps == 31);
  CHECK(dks.idle_lanes == 1023);
  // The divergent warp of Kogge-Stone's early strides is warp 0, lanes 0..s-1 idle.
  CHECK(dks.per_step[1].warps[0].state() == WarpState::Divergent);
  CHECK(dks.per_step[1].warps[0].active_lanes == 0xFFFFFFFEu);
  CHECK(dks.per_step[5].warps[0].active_lanes == 0xFFFF0000u);

  const Trace bk = sv_test::record("brent-kung", 1024, OpKind::Sum, ValueType::I32);
  const Divergence dbk = check_rows(bk, {{"load", 0, 0, 0},
                                         {"reduction stride = 1", 0, 0, 0},
                                         {"reduction stride = 2", 0, 8, 256},
                                         {"reduction stride = 4", 0, 12, 384},
                                         {"reduction stride = 8", 0, 14, 448},
                                         {"reduction stride = 16", 0, 15, 480},
                                         {"reduction stride = 32", 1, 15, 496},
                                         {"reduction stride = 64", 1, 15, 504},
                                         {"reduction stride = 128", 1, 15, 508},
                                         {"reduction stride = 256", 1, 15, 510},
                                         {"reduction stride = 512", 1, 15, 511},
                                         {"post-reduction stride = 256", 1, 15, 511},
                                         {"post-reduction stride = 128", 1, 15, 509},
                                         {"post-reduction stride = 64", 1, 15, 505},
                                         {"post-reduction stride = 32", 1, 15, 497},
                                         {"post-reduction stride = 16", 1, 15, 481},
                                         {"post-reduction stride = 8", 1, 14, 449},
                                         {"post-reduction stride = 4", 1, 12, 385},
                                         {"post-reduction stride = 2", 1, 8, 257},
                                         {"post-reduction stride = 1", 1, 0, 1},
                                         {"store", 0, 0, 0}});
  CHECK(dbk.warps_per_block == 16);
  CHECK(dbk.divergent_warps == 5 + 9);
  CHECK(dbk.idle_warps == (8 + 12 + 14 + 15 * 6) + (15 * 5 + 14 + 12 + 8));
  CHECK(dbk.idle_lanes == 7692);
  // The lesson in one comparison: Kogge-Stone idles whole warps only from stride 32 on and never more
  // than half of them; from its second step Brent-Kung idles at least half its warps in every step but
  // the last, and where it diverges only the one warp that holds the boundary of [0, a) does.
  for (std::size_t k = 0; k < dks.per_step.size(); ++k) CHECK(2 * dks.per_step[k].idle_warps <= 32);
  for (std::size_t k = 2; k + 2 < dbk.per_step.size(); ++k) CHECK(2 * dbk.per_step[k].idle_warps >= 16);
  for (const StepDivergence& s : dbk.per_step) CHECK(s.divergent_warps <= 1);
}

TEST_CASE("divergence: stats --json carries the figures per step, and the text report has the line") {
  sv_test::TempDir d;
  REQUIRE(sv_test::scanviz("trace --algo kogge-stone --n 1024 --out k.json", d.path).code == 0);
  const sv_test::Run r = sv_test::scanviz("stats k.json --json", d.path);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out)["divergence"];
  CHECK(j["warp_width"] == 32);
  CHECK(j["warps"] == 32);
  CHECK(j["divergent_warps"] == 5);
  CHECK(j["idle_warps"] == 31);
  CHECK(j["idle_lanes"] == 1023);
  CHECK(j["active"].get<std::string>().find("applied the operator") != std::string::npos);
  REQUIRE(j["per_step"].size() == 12);
  const auto& s16 = j["per_step"][5];
  CHECK(s16["label"] == "stride = 16");
  CHECK(s16["full_warps"] == 31);
  CHECK(s16["divergent_warps"] == 1);
  CHECK(s16["idle_warps"] == 0);
  CHECK(s16["active_lanes"] == 1008);
  CHECK(s16["idle_lanes"] == 16);
  CHECK(s16["divergent_warp_ids"] == nlohmann::json::array({0}));
  CHECK(j["per_step"][10]["idle_warps"] == 16);

  const sv_test::Run text = sv_test::scanviz("stats k.json", d.path);
  REQUIRE(text.code == 0);
  CHECK(text.out.find("divergence         32 warps of 32 lanes; over the steps 5 divergent warps, 31 idle warps, "
                      "1023 idle lanes\n") != std::string::npos);
  CHECK(text.out.find("stride = 16: 1/0/16; stride = 32: 0/1/32;") != std::string::npos);

  // Device-wide traces have no block steps to speak of: null, and no line.
  REQUIRE(sv_test::scanviz("trace --algo decoupled-lookback --n 5000 --out dl.json", d.path).code == 0);
  CHECK(nlohmann::json::parse(sv_test::scanviz("stats dl.json --json", d.path).out)["divergence"].is_null());
  CHECK(sv_test::scanviz("stats dl.json", d.path).out.find("divergence") == std::string::npos);
}
