// decoupled-lookback's deterministic=on on the emulator: under every schedule the same bits, and
// those of the fixed order computed in the test (fixed_tree_reference.hpp) for float and double and
// every operator that rounds or picks; without it the bits move with the schedule; integers
// unchanged; the switch's errors; and `scanviz repeat` counting what moved.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/bit_difference.hpp"
#include "analysis/lookback.hpp"
#include "device/device_options.hpp"
#include "emulator/record.hpp"
#include "fixed_tree_reference.hpp"
#include "helpers.hpp"
#include "run/request.hpp"
#include "run_command.hpp"

namespace {

using namespace sv;
using Options = std::map<std::string, std::string>;

// The machines the emulator runs a launch on: launch orders, more and fewer resident blocks, other
// latencies, stalled tiles, jittered round trips, narrower windows, tile ids from the block index.
const std::vector<Options> kSchedules = {
    {},
    {{"launch", "reverse"}},
    {{"launch", "random:3"}, {"sms", "3"}, {"resident", "3"}},
    {{"sms", "1"}, {"resident", "1"}},
    {{"sms", "16"}, {"resident", "4"}, {"latency", "60"}},
    {{"sms", "16"}, {"resident", "4"}, {"jitter", "2"}},
    {{"jitter", "1"}},
    {{"jitter", "7"}, {"sms", "2"}, {"resident", "5"}},
    {{"stall", "1:4000:look-back,3:9000,6:2500:look-back"}},
    {{"window", "3"}, {"jitter", "5"}},
    {{"window", "1"}},
    {{"tile-ids", "static"}},
};

BlockRunConfig device_run(OpKind op, ValueType type, std::vector<Payload> input, bool exclusive, Options options,
                          std::int32_t block) {
  const auto n = static_cast<std::int64_t>(input.size());
  BlockRunConfig c = sv_test::config("decoupled-lookback", n, op, type, "in-order", exclusive, 1, std::move(input));
  c.options = std::move(options);
  c.block = block;
  return c;
}

Trace run_on(const BlockRunConfig& base, const Options& schedule, bool deterministic) {
  BlockRunConfig c = base;
  for (const auto& [k, v] : schedule) c.options[k] = v;
  if (deterministic) c.options["deterministic"] = "on";
  const Trace t = record_device_scan(c);
  REQUIRE(t.result.outcome != Outcome::Deadlock);
  return t;
}

// Where each tile's look-back stopped: the tile whose P it read first.
std::vector<std::int64_t> stops(const Trace& t) {
  std::vector<std::int64_t> s;
  for (const TileSummary& tile : summarize_lookback(t).tiles) {
    std::int64_t at = -1;
    for (const TileInspection& i : tile.inspections)
      if (i.flag == TileFlag::P) {
        at = i.target;
        break;
      }
    s.push_back(at);
  }
  return s;
}

// Every schedule with deterministic=on against the test's own fixed order; returns how many distinct
// patterns of look-back stops the schedules made (more than one: the order really did vary).
template <class T, class Op>
std::size_t check_fixed(OpKind kind, ValueType type, std::int64_t n, bool exclusive, std::int32_t block) {
  CAPTURE(n);
  CAPTURE(exclusive);
  CAPTURE(op_name(kind));
  CAPTURE(type_name(type));
  const std::vector<T> x = sv_test::order_sensitive_input<T>(kind, n, static_cast<std::uint64_t>(n) * 31 + 7);
  const std::int32_t items = default_items_per_thread(type);
  const std::vector<Payload> expected = sv_test::payloads(sv_test::fixed_order_scan(Op{}, x, block, items, exclusive));
  const BlockRunConfig base = device_run(kind, type, sv_test::payloads(x), exclusive, {}, block);
  std::set<std::vector<std::int64_t>> patterns;
  for (const Options& schedule : kSchedules) {
    CAPTURE(schedule.size() ? schedule.begin()->first + "=" + schedule.begin()->second : std::string("default"));
    const Trace t = run_on(base, schedule, true);
    const BitDifference d = bit_difference(expected, t.result.output);
    CHECK(d.outputs == 0);
    CHECK(d.first == -1);
    patterns.insert(stops(t));
  }
  return patterns.size();
}

template <class T>
void check_type(ValueType type, std::int32_t block, const std::vector<std::int64_t>& sizes) {
  for (std::int64_t n : sizes) {
    std::size_t patterns = check_fixed<T, SumOp<T>>(OpKind::Sum, type, n, false, block);
    const std::int64_t tile = std::int64_t{block} * default_items_per_thread(type);
    if (n > 4 * tile) CHECK(patterns > 1);  // the look-backs stopped at other tiles, and the bits held
    check_fixed<T, SumOp<T>>(OpKind::Sum, type, n, true, block);
    check_fixed<T, ProductOp<T>>(OpKind::Product, type, n, n % 2 == 1, block);
    check_fixed<T, MinOp<T>>(OpKind::Min, type, n, false, block);
    check_fixed<T, MaxOp<T>>(OpKind::Max, type, n, true, block);
  }
}

}  // namespace

TEST_CASE("deterministic=on: float, every schedule, the same bits as the fixed order computed here") {
  check_type<float>(ValueType::F32, 64, {1, 5, 1535, 1536, 2048, 3001, 4096, 16384, 100000});
}

TEST_CASE("deterministic=on: double, every schedule, the same bits as the fixed order computed here") {
  check_type<double>(ValueType::F64, 32, {1, 383, 384, 2048, 5000, 8192, 54321});
  check_type<double>(ValueType::F64, 96, {1151, 65536});
}

TEST_CASE("deterministic=on: the default tile of 256 threads, float and double") {
  CHECK(check_fixed<float, SumOp<float>>(OpKind::Sum, ValueType::F32, 6144 * 9 + 100, false, 256) > 1);
  CHECK(check_fixed<double, SumOp<double>>(OpKind::Sum, ValueType::F64, 3072 * 8 + 1, true, 256) > 1);
  check_fixed<double, ProductOp<double>>(OpKind::Product, ValueType::F64, 65536, false, 256);
}

TEST_CASE("deterministic=off: a float sum's bits change with the schedule") {
  for (const ValueType type : {ValueType::F32, ValueType::F64}) {
    CAPTURE(type_name(type));
    const std::vector<Payload> x = type == ValueType::F32 ? sv_test::payloads(sv_test::order_sensitive_input<float>(OpKind::Sum, 100000, 5))
                                                          : sv_test::payloads(sv_test::order_sensitive_input<double>(OpKind::Sum, 100000, 5));
    const BlockRunConfig base = device_run(OpKind::Sum, type, x, false, {}, 32);
    const Trace first = run_on(base, kSchedules[0], false);
    std::int64_t moved = 0;
    for (std::size_t s = 1; s < kSchedules.size(); ++s) moved += bit_difference(first.result.output, run_on(base, kSchedules[s], false).result.output).outputs > 0;
    CHECK(moved > 0);
    // ... and deterministic=on does not compute the plain look-back's bits under a new name: they
    // differ from them somewhere.
    CHECK(bit_difference(first.result.output, run_on(base, kSchedules[0], true).result.output).outputs > 0);
  }
}

TEST_CASE("deterministic=on: integer scans are exact, as without it, under every schedule") {
  for (const auto& [op, type] : sv_test::all_ops()) {
    if (type == ValueType::F32 || type == ValueType::F64 || type == ValueType::Interval) continue;
    CAPTURE(op_name(op));
    CAPTURE(type_name(type));
    // The parser leaves the switch off for integers: their kernels are the default's.
    CHECK_FALSE(parse_device_config("decoupled-lookback", {{"deterministic", "on"}}, type, 0, false).params.deterministic);
    CHECK_FALSE(parse_device_config("decoupled-lookback", {{"deterministic", "on"}}, type, 0, true).params.deterministic);
    const std::vector<Payload> x = random_input(op, type, 5000, 11);
    const std::vector<Payload> ref = reference_scan(op, type, x, false);
    for (const Options& schedule : {kSchedules[0], kSchedules[5], kSchedules[7]}) {
      const Trace on = run_on(device_run(op, type, x, false, {}, 32), schedule, true);
      const Trace off = run_on(device_run(op, type, x, false, {}, 32), schedule, false);
      CHECK(bit_difference(ref, on.result.output).outputs == 0);
      CHECK(bit_difference(off.result.output, on.result.output).outputs == 0);
    }
  }
}

TEST_CASE("deterministic: a bad value or an impossible combination is one line naming the option") {
  const auto error = [](const Options& o, ValueType type, std::int32_t block, bool gpu, bool segmented = false) {
    try {
      (void)parse_device_config("decoupled-lookback", o, type, block, gpu, segmented);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error({{"deterministic", "yes"}}, ValueType::F32, 0, false) == "option deterministic=yes: expected on or off");
  CHECK(error({{"deterministic", "on"}, {"share", "on"}}, ValueType::F32, 0, false).find("share=on") != std::string::npos);
  CHECK(error({{"deterministic", "on"}}, ValueType::F64, 48, false).find("block 48") != std::string::npos);
  CHECK(error({{"deterministic", "on"}, {"items", "6"}}, ValueType::F32, 0, false).find("items=6") != std::string::npos);
  CHECK(error({{"deterministic", "on"}, {"items", "6"}}, ValueType::F64, 0, false) == "no error");
  CHECK(error({{"deterministic", "on"}}, ValueType::F32, 0, false, true).find("segmented") != std::string::npos);
  CHECK(error({{"deterministic", "on"}, {"pipelined", "on"}}, ValueType::F32, 0, true).find("pipelined=on") != std::string::npos);
  CHECK(error({{"deterministic", "on"}}, ValueType::F32, 0, false) == "no error");
  CHECK(error({{"jitter", "0"}}, ValueType::F32, 0, false).find("option jitter=0") != std::string::npos);
  CHECK(error({{"jitter", "3"}}, ValueType::F32, 0, true).find("option jitter") != std::string::npos);
  for (const std::string& line : {error({{"deterministic", "yes"}}, ValueType::F32, 0, false),
                                 error({{"deterministic", "on"}}, ValueType::F64, 48, false)})
    CHECK(line.find('\n') == std::string::npos);
}

TEST_CASE("repeat: counts the outputs whose bits moved from run 0, as the emulator's runs under jitter r+1 give them") {
  const sv_test::TempDir dir;
  const std::string base = "repeat --executor emulator --n 100000 --block 32 --runs 4 --seed 9";
  // The same runs here: run r under jitter=r+1 on 16 multiprocessors of 4 blocks, the input the
  // command draws (uniform, seed 9).
  RunRequest request;
  request.algorithm = "decoupled-lookback";
  request.n = 100000;
  request.block = 32;
  request.type = ValueType::F32;
  request.input = "uniform";
  request.seed = 9;
  BlockRunConfig c = run_config(request);
  std::vector<std::vector<Payload>> outputs;
  for (int r = 0; r < 4; ++r)
    outputs.push_back(run_on(c, {{"jitter", std::to_string(r + 1)}, {"sms", "16"}, {"resident", "4"}}, false).result.output);
  std::int64_t differing = 0;
  std::string lines;
  for (int r = 1; r < 4; ++r) {
    const BitDifference d = bit_difference(outputs[0], outputs[r]);
    differing += d.outputs > 0;
    lines += "run " + std::to_string(r) + ": " +
             (d.outputs ? std::to_string(d.outputs) + " of 100000 outputs differ from run 0 in their bits"
                        : std::string("the same bits as run 0"));
  }
  REQUIRE(differing > 0);  // else the command's count below proves nothing
  const sv_test::Run off = sv_test::scanviz(base, dir.path);
  CHECK(off.code == 0);
  std::string seen;  // the lines of runs 1.. up to their percentage
  std::istringstream out(off.out);
  for (std::string line; std::getline(out, line);)
    if (line.rfind("run ", 0) == 0) seen += line.substr(0, line.find(" ("));
  CHECK(seen == lines);
  CHECK(off.out.find(std::to_string(differing) + " of 3 runs differ from run 0") != std::string::npos);

  const sv_test::Run on = sv_test::scanviz(base + " --option deterministic=on", dir.path);
  CHECK(on.code == 0);
  CHECK(on.out.find("0 of 3 runs differ from run 0") != std::string::npos);

  const sv_test::Run bad = sv_test::scanviz(base + " --option deterministic=maybe", dir.path);
  CHECK(bad.code == 2);
  CHECK(bad.err == "scanviz: option deterministic=maybe: expected on or off\n");
}
