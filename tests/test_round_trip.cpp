// Every trace the writer produces reads back: a property over the algorithms, their switches, blocks
// and sizes (device-wide scans one to several recursion levels deep), each saved, loaded and saved
// again to the same text, and its output checked against the one sequential reference.
#include <doctest/doctest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "algorithms.hpp"
#include "core/values.hpp"
#include "helpers.hpp"
#include "trace/trace_json.hpp"

namespace {

using namespace sv;

// Saves t, loads it and saves it again: the loader must take what the writer wrote, unchanged.
void check_round_trip(const Trace& t, const std::string& what) {
  INFO(what);
  const std::string text = trace_to_json(t);
  Trace back;
  REQUIRE_NOTHROW(back = trace_from_json(text));
  CHECK(trace_to_json(back) == text);
  const auto ref = reference_scan(t.meta.op, t.meta.type, t.meta.input, t.meta.exclusive);
  CHECK(mismatches(t.meta.op, t.meta.type, t.meta.input, t.meta.exclusive, ref, back.result.reference).empty());
  // The racy kernel and fence=off (a reader sees a flag before its value) go wrong by design; static
  // tile ids can deadlock. Every other run is right.
  const auto fence = t.meta.options.find("fence");
  const AlgorithmInfo* block = find_algorithm(t.meta.algorithm);
  if ((fence == t.meta.options.end() || fence->second != "off") && !(block && block->racy))
    CHECK(back.result.outcome != Outcome::Wrong);
  if (back.result.outcome == Outcome::Correct)
    CHECK(mismatches(t.meta.op, t.meta.type, t.meta.input, t.meta.exclusive, ref, back.result.output).empty());
}

std::string describe(const BlockRunConfig& c) {
  std::string s = c.algorithm + " n=" + std::to_string(c.n) + " block=" + std::to_string(c.block) +
                  (c.exclusive ? " exclusive" : "") + " op=" + std::string(op_name(c.op)) +
                  " type=" + std::string(type_name(c.type));
  for (const auto& [k, v] : c.options) s += " " + k + "=" + v;
  return s;
}

// Recursion levels of a hierarchical or reduce-then-scan run of n elements in tiles of `tile`.
int levels(std::int64_t n, std::int64_t tile) {
  int l = 1;
  for (std::int64_t m = n; m > tile; m = (m + tile - 1) / tile) ++l;
  return l;
}

}  // namespace

TEST_CASE("round trip: every block algorithm at powers of two and not, every block and operator") {
  std::mt19937_64 rng(46);
  const auto ops = sv_test::all_ops();
  for (const AlgorithmInfo& a : block_algorithms()) {
    for (std::int64_t n : {1, 2, 17, 32, 65, 100}) {
      for (bool exclusive : {false, true}) {
        const auto [op, type] = ops[rng() % ops.size()];
        BlockRunConfig c = sv_test::config(std::string(a.name), n, op, type, "in-order", exclusive, rng());
        Trace t;
        try {
          t = record_block_scan(c);
        } catch (const std::invalid_argument&) {
          continue;  // a shape the algorithm refuses (its capacity, its warp): no trace to read back
        }
        check_round_trip(t, describe(c));
      }
    }
  }
}

TEST_CASE("round trip: hierarchical over its block algorithms, blocks and recursion levels 1 to 3 and deeper") {
  std::mt19937_64 rng(4646);
  const auto ops = sv_test::all_ops();
  int deepest = 0;
  for (const AlgorithmInfo& a : block_algorithms()) {
    if (a.racy) continue;
    for (std::int32_t block : {2, 4, 8, 32}) {
      for (std::int64_t n : {1, 7, 100, 1000}) {
        const auto [op, type] = ops[rng() % ops.size()];
        BlockRunConfig c = sv_test::config("hierarchical", n, op, type, "in-order", rng() % 2 == 0, rng());
        c.block = block;
        c.options = {{"block-algo", std::string(a.name)}};
        Trace t;
        try {
          t = record_device_scan(c);
        } catch (const std::invalid_argument&) {
          continue;  // a block the algorithm cannot have (warp width, capacity)
        }
        deepest = std::max(deepest, levels(n, t.meta.capacity));
        check_round_trip(t, describe(c));
      }
    }
  }
  CHECK(deepest >= 3);
}

TEST_CASE("round trip: reduce-then-scan, chained and decoupled look-back over small tiles and their switches") {
  std::mt19937_64 rng(464646);
  const auto ops = sv_test::all_ops();
  const std::vector<std::map<std::string, std::string>> switches = {
      {},
      {{"items", "1"}},
      {{"items", "3"}, {"launch", "reverse"}},
      {{"items", "2"}, {"tile-ids", "static"}, {"launch", "reverse"}},
      {{"items", "1"}, {"fence", "off"}, {"launch", "random:5"}},
      {{"items", "2"}, {"window", "1"}},
      {{"items", "1"}, {"window", "4"}, {"share", "on"}, {"sms", "3"}, {"resident", "1"}},
  };
  int deepest = 0;
  for (const std::string algo : {"reduce-then-scan", "chained", "decoupled-lookback"}) {
    for (const auto& options : switches) {
      for (std::int32_t block : {1, 2, 32}) {
        for (std::int64_t n : {1, 33, 1000, 10000}) {
          const auto [op, type] = ops[rng() % ops.size()];
          BlockRunConfig c = sv_test::config(algo, n, op, type, "in-order", rng() % 2 == 0, rng());
          c.block = block;
          c.options = options;
          Trace t;
          try {
            t = record_device_scan(c);
          } catch (const std::invalid_argument&) {
            continue;  // a switch this algorithm does not take, or a trace over its budget
          }
          if (algo == "reduce-then-scan") deepest = std::max(deepest, levels(n, t.meta.capacity));
          check_round_trip(t, describe(c));
        }
      }
    }
  }
  CHECK(deepest >= 3);
}
