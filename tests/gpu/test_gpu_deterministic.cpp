// decoupled-lookback's deterministic=on on the GPU: 100 untraced runs of one float (and double) sum
// give the same bits, and those bits are the fixed order computed in the test and the emulator's,
// traced runs of every floating-point operator too. Runs only where a CUDA device is usable
// (gpu_main.cpp skips otherwise).
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "../fixed_tree_reference.hpp"
#include "analysis/bit_difference.hpp"
#include "core/values.hpp"
#include "device/device_options.hpp"
#include "emulator/record.hpp"
#include "gpu/executor.hpp"

using namespace sv;

namespace {

BlockRunConfig run_of(OpKind op, ValueType type, std::vector<Payload> input, bool exclusive, std::int32_t block,
                      std::map<std::string, std::string> options) {
  BlockRunConfig c;
  c.algorithm = "decoupled-lookback";
  c.n = static_cast<std::int64_t>(input.size());
  c.op = op;
  c.type = type;
  c.exclusive = exclusive;
  c.input = std::move(input);
  c.block = block;
  c.options = std::move(options);
  return c;
}

template <class T>
void hundred_runs(ValueType type, std::int64_t n) {
  CAPTURE(type_name(type));
  CAPTURE(n);
  const std::vector<T> x = sv_test::order_sensitive_input<T>(OpKind::Sum, n, 17);
  const RepeatedRuns r = repeat_device_sum_gpu(run_of(OpKind::Sum, type, sv_test::payloads(x), false, 0, {{"deterministic", "on"}}), 100);
  REQUIRE(r.differing.size() == 99);
  std::int64_t moved = 0;
  for (std::int64_t d : r.differing) moved += d;
  CHECK(moved == 0);
  const std::vector<Payload> expected =
      sv_test::payloads(sv_test::fixed_order_scan(SumOp<T>{}, x, kTileThreads, default_items_per_thread(type), false));
  CHECK(bit_difference(expected, r.first).outputs == 0);
}

}  // namespace

TEST_CASE("GPU deterministic=on: 100 runs of a float and a double sum give the same bits, the fixed order's") {
  hundred_runs<float>(ValueType::F32, (std::int64_t{1} << 20) + 123);
  hundred_runs<float>(ValueType::F32, std::int64_t{1} << 24);
  hundred_runs<double>(ValueType::F64, (std::int64_t{1} << 22) - 5);
}

TEST_CASE("GPU deterministic=off: a float sum's bits move from run to run (reported, the GPU decides)") {
  const std::vector<float> x = sv_test::order_sensitive_input<float>(OpKind::Sum, std::int64_t{1} << 22, 17);
  const RepeatedRuns r = repeat_device_sum_gpu(run_of(OpKind::Sum, ValueType::F32, sv_test::payloads(x), false, 0, {}), 20);
  int runs = 0;
  for (std::int64_t d : r.differing) runs += d > 0;
  MESSAGE("deterministic=off, 2^22 floats: " << runs << " of 19 runs differ from run 0");
  WARN(runs > 0);
}

TEST_CASE("GPU deterministic=on: the GPU's bits are the emulator's, every floating-point operator, traced and untraced") {
  for (const ValueType type : {ValueType::F32, ValueType::F64})
    for (const OpKind op : {OpKind::Sum, OpKind::Product, OpKind::Min, OpKind::Max})
      for (const std::int32_t block : {256, 64})
        for (const std::int64_t n : {std::int64_t{1}, std::int64_t{4097}, std::int64_t{1} << 16, std::int64_t{200003}}) {
          CAPTURE(type_name(type));
          CAPTURE(op_name(op));
          CAPTURE(block);
          CAPTURE(n);
          const bool exclusive = n % 2 == 1;
          const std::vector<Payload> x = type == ValueType::F32 ? sv_test::payloads(sv_test::order_sensitive_input<float>(op, n, 5))
                                                                : sv_test::payloads(sv_test::order_sensitive_input<double>(op, n, 5));
          std::map<std::string, std::string> on = {{"deterministic", "on"}};
          const std::vector<Payload> gpu = record_device_scan_gpu(run_of(op, type, x, exclusive, block, on)).result.output;
          on["jitter"] = "3";  // the emulator on a schedule of its own
          const std::vector<Payload> emulated = record_device_scan(run_of(op, type, x, exclusive, block, on)).result.output;
          const BitDifference d = bit_difference(emulated, gpu);
          CHECK(d.outputs == 0);
          CHECK(d.first == -1);
        }
  // Untraced (the benchmark's kernel) against the emulator, at the default tile.
  const std::vector<Payload> x = sv_test::payloads(sv_test::order_sensitive_input<float>(OpKind::Sum, 300001, 8));
  const RepeatedRuns r = repeat_device_sum_gpu(run_of(OpKind::Sum, ValueType::F32, x, false, 0, {{"deterministic", "on"}}), 2);
  const Trace emulated = record_device_scan(run_of(OpKind::Sum, ValueType::F32, x, false, 0, {{"deterministic", "on"}}));
  CHECK(bit_difference(emulated.result.output, r.first).outputs == 0);
}
