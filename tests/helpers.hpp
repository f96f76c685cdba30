// Shared test helpers: every operator/type pair, and recording a block scan in one call.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "algorithms.hpp"
#include "core/values.hpp"
#include "emulator/record.hpp"

namespace sv_test {

// All 27 (operator, type) pairs scanviz supports.
inline std::vector<std::pair<sv::OpKind, sv::ValueType>> all_ops() {
  std::vector<std::pair<sv::OpKind, sv::ValueType>> out;
  for (auto op : {sv::OpKind::Sum, sv::OpKind::Product, sv::OpKind::Min, sv::OpKind::Max})
    for (auto t : {sv::ValueType::I32, sv::ValueType::I64, sv::ValueType::F32, sv::ValueType::F64}) out.push_back({op, t});
  out.push_back({sv::OpKind::Interval, sv::ValueType::Interval});
  for (auto op : {sv::OpKind::And, sv::OpKind::Or, sv::OpKind::BitAnd, sv::OpKind::BitOr, sv::OpKind::BitXor})
    for (auto t : {sv::ValueType::I32, sv::ValueType::I64}) out.push_back({op, t});
  return out;
}

// The algorithm table's block-level rows of a kind, by name, in the table's order: the lists the
// tests loop over, so a new row is tested without a test to edit.
enum class Rows { RaceFree, RaceFreeBlock, WarpLevel };
inline std::vector<std::string> algorithms(Rows rows) {
  std::vector<std::string> out;
  for (const sv::AlgorithmInfo& a : sv::block_algorithms())
    if (!a.racy && (rows == Rows::RaceFree || a.warp_level == (rows == Rows::WarpLevel))) out.emplace_back(a.name);
  return out;
}

inline const std::vector<std::string>& schedules() {
  static const std::vector<std::string> s = {"in-order", "reverse", "round-robin", "random:7", "random:1234"};
  return s;
}

inline sv::BlockRunConfig config(const std::string& algo, std::int64_t n, sv::OpKind op, sv::ValueType type,
                                 const std::string& schedule = "in-order", bool exclusive = false, std::uint64_t seed = 1,
                                 std::vector<sv::Payload> input = {}) {
  sv::BlockRunConfig c;
  c.algorithm = algo;
  c.n = n;
  c.op = op;
  c.type = type;
  c.exclusive = exclusive;
  c.input_seed = seed;
  c.input = std::move(input);
  c.schedule = *sv::Schedule::parse(schedule);
  return c;
}

inline sv::Trace record(const std::string& algo, std::int64_t n, sv::OpKind op, sv::ValueType type,
                        const std::string& schedule = "in-order", bool exclusive = false, std::uint64_t seed = 1,
                        std::vector<sv::Payload> input = {}) {
  return sv::record_block_scan(config(algo, n, op, type, schedule, exclusive, seed, std::move(input)));
}

inline sv::Trace record_interval(const std::string& algo, std::int64_t n, const std::string& schedule = "in-order") {
  return record(algo, n, sv::OpKind::Interval, sv::ValueType::Interval, schedule);
}

// Two traces of the same run: the same algorithm, sizes, operator, input, output and application.
inline void check_same_run(const sv::Trace& a, const sv::Trace& b) {
  CHECK(a.meta.algorithm == b.meta.algorithm);
  CHECK(a.meta.n == b.meta.n);
  CHECK(a.meta.block == b.meta.block);
  CHECK(a.meta.warp_width() == b.meta.warp_width());
  CHECK(a.meta.op == b.meta.op);
  CHECK(a.meta.type == b.meta.type);
  CHECK(a.meta.exclusive == b.meta.exclusive);
  REQUIRE(a.meta.input.size() == b.meta.input.size());
  for (std::size_t i = 0; i < a.meta.input.size(); ++i) CHECK(a.meta.input[i] == b.meta.input[i]);
  REQUIRE(a.result.output.size() == b.result.output.size());
  for (std::size_t i = 0; i < a.result.output.size(); ++i) CHECK(a.result.output[i] == b.result.output[i]);
  CHECK(a.meta.application.kind == b.meta.application.kind);
  CHECK(a.meta.application.predicate == b.meta.application.predicate);
}

}  // namespace sv_test
