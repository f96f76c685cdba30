// The device-wide scans' tile policies on the GPU (how the descriptors are kept from run to run, the
// pipelined kernel's stages) against the reference on every numeric type, and a clocked decoupled
// look-back's tile times in causal order. Runs only where a CUDA device is usable (gpu_main.cpp skips
// otherwise).
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

// Device 0, probed once (the checks below ask for it at every run).
const GpuStatus& gpu_status() {
  static const GpuStatus g = probe_gpu();
  return g;
}
// Whether the device runs the pipelined kernel of 9 stages: sm_90 on, with sm_90's 227 KB of shared
// memory a block (not sm_120's 99 KB).
bool pipelines() {
  return gpu_status().cc_major >= 9 && gpu_status().shared_per_block >= 227 * 1024;
}
// The gather kernel the default runs at n (its name), or "" where it runs none: one 16-byte vector a
// thread, 256 threads up to 128 tiles, else 512 threads up to 512 tiles.
std::string gathers_at(std::int64_t n, ValueType type) {
  const std::int64_t vector = type == ValueType::I64 || type == ValueType::F64 ? 2 : 4;
  if (n <= 128 * 256 * vector) return "256x" + std::to_string(vector) + " gather";
  return n <= 512 * 512 * vector ? "512x" + std::to_string(vector) + " gather" : "";
}
// The policy verify_tile_policies_gpu says ran: the scanner's own, except that the default (the
// first in the list) gathers at small n (gathers_at), runs 8-byte sums in 256 x 8 tiles where the
// device holds them all at once (one_wave_policies), and runs the pipelined
// kernel's 9 stages with the input marked evict-last from 9 24 KB tiles a multiprocessor with 4-byte
// values (as many as its stages hold; one block a multiprocessor) and from 6 with 8-byte ones, on
// sm_90 on.
void check_ran(const PolicyCheck& c, const std::string& default_policy, ValueType type) {
  const bool wide = type == ValueType::I64 || type == ValueType::F64;
  const std::int64_t tile = 24 * 1024 / (wide ? 8 : 4);
  if (c.policy == default_policy && pipelines() && c.n >= (wide ? 6 : 9) * tile * gpu_status().sm_count) {
    CHECK(c.ran.find(" pipe9 L2last") != std::string::npos);
  } else if (c.policy == default_policy && !gathers_at(c.n, type).empty()) {
    CHECK(c.ran == gathers_at(c.n, type));
  } else if (c.policy == default_policy && wide && c.ran != c.policy) {
    // 8-byte sums in one wave (one_wave_policies)
    CHECK((c.ran == "256x8 staged static-ids sleep256" || c.ran == "256x8 min6of256 staged static-ids sleep256" ||
           c.ran == "256x12 min6of256 staged static-ids sleep256"));
  } else if (c.policy == default_policy) {
    CHECK(c.ran == c.policy);  // the tile kernel between the two
  } else {
    CHECK(c.ran == c.policy);
  }
}

}  // namespace

TEST_CASE("gpu device: every tile policy (descriptors kept under epochs or zeroed a run) against the reference") {
  // One scanner per policy, reused: sizes that grow (fresh scratch), shrink (the descriptors and
  // counters of the earlier runs still there, under older epochs), repeat, and end at partial tiles
  // and n = 1; 2^22 - 1 eight times in a row (the counters alternate, so an even and an odd run
  // each find the other's counter zeroed or not).
  std::vector<std::int64_t> sizes = {1 << 20, (1 << 24) + 3, 1000, (1 << 24) + 3, 6144 * 3, 6143, 1, 100003};
  sizes.insert(sizes.end(), 8, (1 << 22) - 1);
  // int32: the default and at least 9 others, persistent blocks among them (at 2^24 + 3 a block
  // scans two or three tiles) and bulk copies (on sm_90 on; full tiles, the last one by cp.async); int64 (8-byte descriptors packed with their flag into 16 bytes): the
  // default and at least 4 others. On sm_90 the default's scanner turns pipelined at 2^24 + 3 (and
  // int64's at 2^22 - 1 too) and back, on one set of descriptors.
  for (auto [type, policies] : {std::pair{ValueType::I32, 10}, std::pair{ValueType::I64, 5}}) {
    CAPTURE(type_name(type));
    const std::vector<PolicyCheck> checks = verify_tile_policies_gpu(type, sizes, 77);
    CHECK(checks.size() >= static_cast<std::size_t>(policies) * sizes.size());
    int epochs = 0, memset = 0, persistent = 0, bulk = 0, pipelined = 0, tiles_only = 0, turned = 0, early = 0,
        one_wave = 0;
    for (const PolicyCheck& c : checks) {
      CAPTURE(c.policy);
      CAPTURE(c.ran);
      CAPTURE(c.n);
      CAPTURE(c.exclusive);
      CHECK(c.mismatches == 0);
      check_ran(c, checks.front().policy, type);
      tiles_only += c.policy.find("tiles-only") != std::string::npos;
      turned += c.ran != c.policy;
      (c.policy.find("memset") == std::string::npos ? epochs : memset) += 1;
      persistent += c.policy.find("persist") != std::string::npos;
      bulk += c.policy.find("bulk") != std::string::npos;
      pipelined += c.policy.find("pipe") != std::string::npos;
      early += c.policy.find("early") != std::string::npos;
      one_wave += c.policy == checks.front().policy && c.ran.find("256x8 staged static-ids") != std::string::npos;
    }
    // The default's 8-byte sums at 2^20 run 512 tiles of 256 x 8 in one wave on a device of 128
    // multiprocessors or more (five blocks of them a multiprocessor).
    if (type == ValueType::I64 && gpu_status().sm_count >= 128) CHECK(one_wave >= 1);
    if (type == ValueType::I32) CHECK(one_wave == 0);
    // Early aggregates (a sum's aggregate published before its tile is scanned): of the default's
    // shape for both types, and of two more shapes for int64.
    CHECK(early >= (type == ValueType::I32 ? 1 : 3) * static_cast<int>(sizes.size()));
    CHECK(epochs > 0);
    CHECK(memset > 0);
    // The pipelined policies (6, 8 and 9 stages, 9 with the input's L2 lines marked the other way)
    // and the default's tile kernel at every n, on sm_90 on; the default turned pipelined at 2^24 + 3.
    CHECK(pipelined == (pipelines() ? 4 * static_cast<int>(sizes.size()) : 0));
    CHECK(tiles_only == (gpu_status().cc_major >= 9 ? static_cast<int>(sizes.size()) : 0));
    CHECK(turned >= (pipelines() ? 2 : 0));
    if (type == ValueType::I32) {
      CHECK(persistent > 0);
      CHECK(bulk > 0);
    }
  }
  // Static tile ids (fewer tiles than the device holds, so no block waits on one not yet running):
  // a persistent policy's kernel then scans one tile a block.
  for (const PolicyCheck& c : verify_tile_policies_gpu(ValueType::I32, {(1 << 20) + 5, 6144 * 4}, 78, {{"tile-ids", "static"}})) {
    CAPTURE(c.policy);
    CAPTURE(c.n);
    CHECK(c.mismatches == 0);
  }
  CHECK_THROWS_WITH_AS(verify_tile_policies_gpu(ValueType::Interval, {100}, 1), doctest::Contains("numeric sums"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(verify_tile_policies_gpu(ValueType::I32, {100}, 1, {}, 16), doctest::Contains("offset 16"),
                       std::invalid_argument);
}

TEST_CASE("gpu device: the default and the pipelined tile policies on every numeric type, aligned or not") {
  // float and double (the sums of small integers stay exact), and input and output one element
  // past an aligned allocation: the pipelined kernel's load warp then copies element by element
  // (no bulk copy) and its store warps store scalars; the default takes its guarded path. Sizes
  // with full tiles only, a partial last tile, less than a tile, and n = 1; 2^23 + 1, which the
  // default hands to the pipelined kernel on sm_90 (2^22 + 1 too with 8-byte values); 3 x 2^18 + 1,
  // 1,500,001 and 2^21 + 1, which it hands to each of the one-wave tile kernels with 8-byte values.
  const std::vector<std::int64_t> sizes = {(1 << 23) + 1, 6144 * 5, 3000, (1 << 22) + 1, 1, 6144 * 2, (1 << 21) + 1,
                                           (3 << 18) + 1, 1500001};
  const bool pipelined_here = pipelines();
  for (ValueType type : {ValueType::F32, ValueType::F64, ValueType::I32, ValueType::I64}) {
    for (std::int64_t offset : {0, 1}) {
      if (offset == 0 && (type == ValueType::I32 || type == ValueType::I64)) continue;  // the test case above
      CAPTURE(type_name(type));
      CAPTURE(offset);
      const std::vector<PolicyCheck> checks = verify_tile_policies_gpu(type, sizes, 91 + offset, {}, offset);
      REQUIRE(!checks.empty());
      const std::string default_policy = checks.front().policy;  // the default comes first
      CHECK(default_policy.find("pipe") == std::string::npos);
      int pipelined = 0, defaults = 0, turned = 0;
      for (const PolicyCheck& c : checks) {
        CAPTURE(c.policy);
        CAPTURE(c.ran);
        CAPTURE(c.n);
        CAPTURE(c.exclusive);
        CHECK(c.mismatches == 0);
        check_ran(c, default_policy, type);
        turned += c.ran != c.policy;
        pipelined += c.policy.find("pipe") != std::string::npos;
        defaults += c.policy == default_policy;
      }
      CHECK(defaults == static_cast<int>(sizes.size()));
      CHECK(pipelined == (pipelined_here ? 4 * static_cast<int>(sizes.size()) : 0));
      CHECK(turned >= (pipelined_here ? 1 : 0));
    }
  }
}

TEST_CASE("gpu device: a clocked decoupled look-back notes each tile's times in causal order") {
  // Every tile notes three times (id taken, A, P; TileClock); none can come before the one before
  // it, and a tile's P cannot come before any earlier tile's A: its look-back read that A, or a P
  // that needed it, from L2 (each time is read just after its store, and a reader sees the store
  // only hundreds of nanoseconds later).
  for (const std::int64_t n : {std::int64_t{(1 << 22) + 5}, std::int64_t{6144 * 3}}) {
    CAPTURE(n);
    const ClockedRun r = clock_decoupled_lookback_gpu(n, 91, 3);
    CHECK(r.check.mismatches == 0);
    const std::int64_t tiles = (n + 6143) / 6144;
    REQUIRE(static_cast<std::int64_t>(r.tiles.size()) == tiles);
    std::uint64_t latest_a = 0;
    std::int64_t unordered = 0, before_earlier_a = 0, missing = 0;
    for (std::int64_t t = 0; t < tiles; ++t) {
      const TileTimes& x = r.tiles[static_cast<std::size_t>(t)];
      missing += x.taken == 0 || x.aggregate == 0 || x.inclusive == 0;
      unordered += x.taken > x.aggregate || x.aggregate > x.inclusive;
      before_earlier_a += x.inclusive < latest_a;
      latest_a = std::max(latest_a, x.aggregate);
    }
    CHECK(missing == 0);
    CHECK(unordered == 0);
    CHECK(before_earlier_a == 0);
    CHECK(r.tiles[0].aggregate == r.tiles[0].inclusive);  // tile 0 publishes P alone
    const TilePhaseStats s = tile_phase_stats(r.tiles);
    CHECK(s.tiles == tiles);
    CHECK(s.span_ns > 0);
  }
  CHECK_THROWS_AS(clock_decoupled_lookback_gpu(0, 1), std::invalid_argument);
}
