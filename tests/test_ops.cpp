// Operators, the interval value, text forms and the sequential reference scan.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "core/values.hpp"
#include "helpers.hpp"

using namespace sv;

namespace {
Interval iv(int lo, int hi) { return Interval::range(lo, hi); }
std::string text(const Interval& v) { return format_value(ValueType::Interval, Payload::of(v)); }
}  // namespace

TEST_CASE("interval: adjacent ranges join, others are invalid and keep both operands") {
  CHECK(combine(iv(0, 1), iv(2, 5)) == iv(0, 5));
  CHECK(combine(Interval::single(3), Interval::single(4)) == iv(3, 4));
  const Interval bad = combine(iv(1, 4), iv(3, 6));
  CHECK(bad.is_invalid());
  CHECK(text(bad) == "!x1..x4,x3..x6");
  // Wrong order is not adjacent either: the operator is not commutative.
  CHECK(combine(iv(2, 5), iv(0, 1)).is_invalid());
  // The identity is neutral on both sides; an invalid value stays invalid, keeping the first mistake.
  CHECK(combine(Interval::identity(), iv(2, 3)) == iv(2, 3));
  CHECK(combine(iv(2, 3), Interval::identity()) == iv(2, 3));
  CHECK(text(combine(bad, iv(7, 7))) == text(bad));
  CHECK(text(combine(iv(0, 0), bad)) == text(bad));
  // Equality sees one invalid element; the operands it keeps are for display.
  CHECK(Interval::invalid(1, 4, 3, 6) == Interval::invalid(0, 0, 5, 5));
  CHECK(Interval::invalid(1, 4, 3, 6) != iv(1, 6));
}

TEST_CASE("interval: associative on random triples") {
  std::mt19937 rng(42);
  for (int i = 0; i < 2000; ++i) {
    auto pick = [&]() {
      int kind = rng() % 4;
      int lo = rng() % 6, hi = lo + rng() % 3;
      if (kind == 0) return Interval::identity();
      if (kind == 3) return combine(iv(lo, hi), iv(lo + 5, hi + 6));
      return iv(lo, hi);
    };
    Interval a = pick(), b = pick(), c = pick();
    CHECK(combine(combine(a, b), c) == combine(a, combine(b, c)));
  }
}

TEST_CASE("values: text form round-trips and rejects malformed text") {
  for (const char* s : {"ID", "x0", "x3..x17", "!x1..x4,x3..x6", "!x2,x9..x10"}) {
    auto p = parse_value(ValueType::Interval, s);
    REQUIRE(p);
    CHECK(format_value(ValueType::Interval, *p) == s);
  }
  for (const char* s : {"", "x", "y3", "x3..x1", "x-1", "x1..", "!x1", "x1 ", "3"})
    CHECK_FALSE(parse_value(ValueType::Interval, s));
  CHECK(format_value(ValueType::F32, Payload::of(0.1f)) == "0.1");
  CHECK(format_value(ValueType::F64, Payload::of(-std::numeric_limits<double>::infinity())) == "-inf");
  CHECK(parse_value(ValueType::F32, "inf")->as<float>() == std::numeric_limits<float>::infinity());
  CHECK(std::isnan(parse_value(ValueType::F64, "nan")->as<double>()));
  CHECK(parse_value(ValueType::I32, "-2147483648")->as<std::int32_t>() == std::numeric_limits<std::int32_t>::min());
  CHECK_FALSE(parse_value(ValueType::I32, "2147483648"));
  CHECK_FALSE(parse_value(ValueType::I32, "1.5"));
  CHECK(parse_value(ValueType::I64, "9007199254740993")->as<std::int64_t>() == 9007199254740993LL);
}

TEST_CASE("operators: identities are neutral for every operator and type") {
  for (auto [op, type] : sv_test::all_ops()) {
    CAPTURE(op_name(op));
    CAPTURE(type_name(type));
    const auto input = random_input(op, type, 64, 9);
    const Payload id = identity_of(op, type);
    for (const Payload& x : input) {
      CHECK(apply_op(op, type, id, x) == x);
      CHECK(apply_op(op, type, x, id) == x);
    }
  }
}

TEST_CASE("operators: integer sum and product wrap instead of overflowing") {
  SumOp<std::int32_t> add;
  CHECK(add(std::numeric_limits<std::int32_t>::max(), 1) == std::numeric_limits<std::int32_t>::min());
  ProductOp<std::int64_t> mul;
  CHECK(mul(std::int64_t(1) << 62, 4) == 0);
  CHECK(MinOp<float>{}(3.f, -2.f) == -2.f);
  CHECK(MaxOp<double>{}.identity() == -std::numeric_limits<double>::infinity());
  CHECK(MinOp<std::int32_t>{}.identity() == std::numeric_limits<std::int32_t>::max());
}

TEST_CASE("operators: the interval operator goes with the interval type only") {
  CHECK_THROWS_AS(check_op_type(OpKind::Interval, ValueType::I32), std::invalid_argument);
  CHECK_THROWS_AS(check_op_type(OpKind::Sum, ValueType::Interval), std::invalid_argument);
  CHECK_NOTHROW(check_op_type(OpKind::Min, ValueType::F64));
}

TEST_CASE("operators: logical and/or on truth values, bitwise ones on int32 and int64 only") {
  for (OpKind op : {OpKind::And, OpKind::Or, OpKind::BitAnd, OpKind::BitOr, OpKind::BitXor}) {
    CAPTURE(op_name(op));
    CHECK(parse_op_name(op_name(op)) == op);
    CHECK(default_type_for(op) == ValueType::I32);
    CHECK_NOTHROW(check_op_type(op, ValueType::I32));
    CHECK_NOTHROW(check_op_type(op, ValueType::I64));
    for (ValueType bad : {ValueType::F32, ValueType::F64, ValueType::Interval})
      CHECK_THROWS_AS(check_op_type(op, bad), std::invalid_argument);
  }
  CHECK(op_names_text() == "sum, product, min, max, interval, and, or, bitand, bitor or bitxor");
  CHECK(AndOp<std::int32_t>{}(1, 1) == 1);
  CHECK(AndOp<std::int32_t>{}(1, 0) == 0);
  CHECK(OrOp<std::int64_t>{}(0, 0) == 0);
  CHECK(OrOp<std::int64_t>{}(0, 1) == 1);
  CHECK(BitAndOp<std::int32_t>::identity() == -1);
  CHECK(BitAndOp<std::int64_t>{}(0b1100, 0b1010) == 0b1000);
  CHECK(BitOrOp<std::int32_t>{}(0b1100, 0b1010) == 0b1110);
  CHECK(BitXorOp<std::int64_t>{}(0b1100, 0b1010) == 0b0110);
  CHECK(BitXorOp<std::int32_t>{}(std::numeric_limits<std::int32_t>::min(), -1) == std::numeric_limits<std::int32_t>::max());
  // Truth values: 0 and 1 only, wherever the input comes from.
  const std::vector<Payload> bits = {Payload::of(1), Payload::of(0), Payload::of(2)};
  CHECK_THROWS_WITH(check_op_values(OpKind::Or, ValueType::I32, bits), "value 2 at position 2 is not 0 or 1 (or scans truth values)");
  CHECK_NOTHROW(check_op_values(OpKind::BitOr, ValueType::I32, bits));
  for (auto [op, type] : sv_test::all_ops()) CHECK_NOTHROW(check_op_values(op, type, random_input(op, type, 500, 3)));
  // The slides' input as truth values (is it odd?) and its and/or scans.
  const auto odd = slides_input(OpKind::And, ValueType::I32, 8);
  const std::vector<int> odd_expected = {1, 0, 1, 0, 0, 0, 1, 1};
  const std::vector<int> and_scan = {1, 0, 0, 0, 0, 0, 0, 0};
  const std::vector<int> or_exclusive = {0, 1, 1, 1, 1, 1, 1, 1};
  const auto a = reference_scan(OpKind::And, ValueType::I32, odd, false);
  const auto o = reference_scan(OpKind::Or, ValueType::I32, odd, true);
  for (int i = 0; i < 8; ++i) {
    CHECK(odd[i].as<std::int32_t>() == odd_expected[i]);
    CHECK(a[i].as<std::int32_t>() == and_scan[i]);
    CHECK(o[i].as<std::int32_t>() == or_exclusive[i]);
  }
  // xor of the slides' input: 3 ^ 6 = 5, 5 ^ 7 = 2, 2 ^ 4 = 6, ...
  const auto x = reference_scan(OpKind::BitXor, ValueType::I64, slides_input(OpKind::BitXor, ValueType::I64, 8), false);
  const std::vector<std::int64_t> xor_expected = {3, 5, 2, 6, 14, 12, 13, 4};
  for (int i = 0; i < 8; ++i) CHECK(x[i].as<std::int64_t>() == xor_expected[i]);
}

TEST_CASE("reference scan: the slides' example, inclusive and exclusive") {
  const auto in = slides_input(OpKind::Sum, ValueType::I32, 8);
  const std::vector<int> inclusive = {3, 9, 16, 20, 28, 30, 31, 40};  // PMPP ch. 11, slide 3
  const std::vector<int> exclusive = {0, 3, 9, 16, 20, 28, 30, 31};
  const auto inc = reference_scan(OpKind::Sum, ValueType::I32, in, false);
  const auto exc = reference_scan(OpKind::Sum, ValueType::I32, in, true);
  for (int i = 0; i < 8; ++i) {
    CHECK(inc[i].as<std::int32_t>() == inclusive[i]);
    CHECK(exc[i].as<std::int32_t>() == exclusive[i]);
  }
  const auto labels = reference_scan(OpKind::Interval, ValueType::Interval, slides_input(OpKind::Interval, ValueType::Interval, 8), true);
  CHECK(text(labels[0].as<Interval>()) == "ID");
  CHECK(text(labels[1].as<Interval>()) == "x0");
  CHECK(text(labels[7].as<Interval>()) == "x0..x6");
}

TEST_CASE("values_match: exact for integers, tolerant of reassociation for floating point") {
  CHECK_FALSE(values_match(ValueType::I32, Payload::of(5), Payload::of(6), 10));
  CHECK(values_match(ValueType::F32, Payload::of(1000.0f), Payload::of(1000.0001f), 100));
  CHECK_FALSE(values_match(ValueType::F32, Payload::of(1000.0f), Payload::of(1001.0f), 100));
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(values_match(ValueType::F32, Payload::of(inf), Payload::of(inf), 1));
  CHECK_FALSE(values_match(ValueType::F32, Payload::of(inf), Payload::of(-inf), 1));
}

TEST_CASE("random input: seeded, reproducible, and different across seeds") {
  for (auto [op, type] : sv_test::all_ops()) {
    CHECK(random_input(op, type, 100, 5) == random_input(op, type, 100, 5));
    if (op != OpKind::Interval) CHECK(random_input(op, type, 100, 5) != random_input(op, type, 100, 6));
  }
}

TEST_CASE("review fixes: cancellation, NaN and the largest interval index") {
  // A float sum whose parallel reassociation is more accurate than the sequential reference.
  const std::vector<Payload> in = {Payload::of(1.0f), Payload::of(1e8f), Payload::of(-1e8f), Payload::of(0.0f)};
  const auto ref = reference_scan(OpKind::Sum, ValueType::F32, in, false);
  const std::vector<Payload> parallel = {Payload::of(1.0f), Payload::of(1e8f), Payload::of(1.0f), Payload::of(1.0f)};
  CHECK(mismatches(OpKind::Sum, ValueType::F32, in, false, ref, parallel).empty());
  const std::vector<Payload> off = {Payload::of(1.0f), Payload::of(1e8f), Payload::of(1e6f), Payload::of(1.0f)};
  CHECK(mismatches(OpKind::Sum, ValueType::F32, in, false, ref, off) == std::vector<std::int64_t>{2});
  // NaN absorbs under min and max, from either side, so they stay associative.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(std::isnan(MinOp<float>{}(MinOp<float>::identity(), nan)));
  CHECK(std::isnan(MinOp<float>{}(nan, 1.0f)));
  CHECK(std::isnan(MaxOp<double>{}(2.0, std::numeric_limits<double>::quiet_NaN())));
  // x2147483647 has no right neighbour: combining it never overflows, it is just not adjacent.
  CHECK(combine(Interval::single(2147483647), Interval::single(0)).is_invalid());
}
