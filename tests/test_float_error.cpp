// The float lesson's analysis (analysis/float_error.hpp) and inputs (core/float_inputs.hpp), checked
// against the tests' own exact arithmetic (float_exact.hpp: 128-bit integers), floats added in the
// test itself, and trees worked by hand at n = 4.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "algorithms.hpp"
#include "analysis/float_error.hpp"
#include "core/exact_sum.hpp"
#include "core/float_inputs.hpp"
#include "emulator/record.hpp"
#include "float_exact.hpp"
#include "run/request.hpp"

using namespace sv;
using float_exact::I128;

namespace {

Trace record_float(const std::string& algo, ValueType type, const std::vector<Payload>& input, bool exclusive = false) {
  BlockRunConfig c;
  c.algorithm = algo;
  c.n = static_cast<std::int64_t>(input.size());
  c.type = type;
  c.input = input;
  c.exclusive = exclusive;
  return record_block_scan(c);
}

std::vector<Payload> floats(std::initializer_list<float> v) {
  std::vector<Payload> out;
  for (float x : v) out.push_back(Payload::of(x));
  return out;
}

// Every output's error and the loop's against the integers; a few outputs' trees node by node.
void check_trace(const Trace& t) {
  const ValueType type = t.meta.type;
  const int shift = float_exact::shift_for(type);
  const FloatErrors e = float_errors(t);
  const auto& in = t.meta.input;
  const std::size_t n = in.size();
  REQUIRE(e.outputs.size() == n);
  I128 exact = 0;
  double max_ulps = 0, mean_ulps = 0;
  for (std::size_t i = 0; i < n; ++i) {
    CAPTURE(i);
    const FloatOutput& o = e.outputs[i];
    const std::size_t covered = t.meta.exclusive ? i : i + 1;
    if (t.meta.exclusive && i > 0) exact += float_exact::scaled(float_exact::number(type, in[i - 1]), shift);
    if (!t.meta.exclusive) exact += float_exact::scaled(float_exact::number(type, in[i]), shift);
    CHECK(o.count == static_cast<std::int64_t>(covered));
    CHECK(o.value == float_exact::number(type, t.result.output[i]));
    const long double want = float_exact::ulps(type, exact, float_exact::scaled(o.value, shift), shift);
    CHECK(o.ulps == doctest::Approx(static_cast<double>(want)).epsilon(1e-9));
    const double loop = covered == 0 ? 0 : float_exact::loop_sum(type, in, 0, covered - 1);
    CHECK(o.sequential == loop);
    CHECK(o.sequential_ulps ==
          doctest::Approx(static_cast<double>(float_exact::ulps(type, exact, float_exact::scaled(loop, shift), shift))).epsilon(1e-9));
    max_ulps = std::max(max_ulps, static_cast<double>(want));
    mean_ulps += static_cast<double>(want) / static_cast<double>(n);
  }
  CHECK(e.max_ulps == doctest::Approx(max_ulps).epsilon(1e-9));
  CHECK(e.mean_ulps == doctest::Approx(mean_ulps).epsilon(1e-9));
  for (std::size_t cell : {std::size_t{0}, n / 2, n - 1}) {
    CAPTURE(cell);
    const AdditionTree tree = addition_tree(t, static_cast<std::int64_t>(cell));
    const std::size_t covered = t.meta.exclusive ? cell : cell + 1;
    if (covered == 0) {
      CHECK(tree.root < 0);
      continue;
    }
    REQUIRE(tree.root >= 0);
    CHECK(tree.nodes[static_cast<std::size_t>(tree.root)].value == float_exact::number(type, t.result.output[cell]));
    std::multiset<std::int64_t> leaves;
    for (const AdditionNode& a : tree.nodes) {
      if (a.leaf()) {
        leaves.insert(a.input);
        CHECK(a.value == float_exact::number(type, in[static_cast<std::size_t>(a.input)]));
        continue;
      }
      const AdditionNode &l = tree.nodes[static_cast<std::size_t>(a.left)], &r = tree.nodes[static_cast<std::size_t>(a.right)];
      // The sum rounded in the type, added here; its rounding error exact in integers.
      const double sum = type == ValueType::F32 ? static_cast<double>(static_cast<float>(l.value) + static_cast<float>(r.value)) : l.value + r.value;
      CHECK(a.value == sum);
      CHECK(float_exact::scaled(a.rounding, shift) ==
            float_exact::scaled(l.value, shift) + float_exact::scaled(r.value, shift) - float_exact::scaled(a.value, shift));
      CHECK(a.depth == 1 + std::max(l.depth, r.depth));
    }
    std::multiset<std::int64_t> want;
    for (std::size_t i = 0; i < covered; ++i) want.insert(static_cast<std::int64_t>(i));
    CHECK(leaves == want);  // every input it covers, once
    CHECK(tree.additions() == static_cast<int>(covered) - 1);
  }
}

}  // namespace

TEST_CASE("floats: exact sums by Shewchuk's expansions against 128-bit integers, and the ULP") {
  ExactSum s;
  s.add(1e100);
  s.add(1);
  s.add(-1e100);
  CHECK(s.value() == 1);
  // Half an ULP of 1 ties to even (1), unless something below pushes it past the half.
  ExactSum tie;
  tie.add(1);
  tie.add(std::ldexp(1.0, -53));
  CHECK(tie.value() == 1);
  tie.add(std::ldexp(1.0, -110));
  CHECK(tie.value() == 1 + std::ldexp(1.0, -52));
  // Random doubles of many magnitudes, as multiples of 2^-40 under 2^60: exact in 128 bits.
  std::uint64_t state = 7;
  auto next = [&] { return state = state * 6364136223846793005ull + 1442695040888963407ull; };
  ExactSum r;
  I128 exact = 0;
  for (int i = 0; i < 2000; ++i) {
    const int e = static_cast<int>(next() % 61) - 40;  // 2^-40 .. 2^20 times 52 bits
    double x = std::ldexp(static_cast<double>(next() >> 12), e);
    if (next() & 1) x = -x;
    r.add(x);
    exact += float_exact::scaled(x, 40);
  }
  // GCC rounds a 128-bit integer to the nearest double; the scaling back by 2^-40 is exact.
  CHECK(r.value() == std::ldexp(static_cast<double>(exact), -40));
  CHECK(r.minus(r.value()) == std::ldexp(static_cast<double>(exact - float_exact::scaled(r.value(), 40)), -40));
  CHECK(ulp_of(ValueType::F32, 1) == std::ldexp(1.0, -23));
  CHECK(ulp_of(ValueType::F32, 1e8) == 8);
  CHECK(ulp_of(ValueType::F32, -3) == std::ldexp(1.0, -22));
  CHECK(ulp_of(ValueType::F64, 1) == std::numeric_limits<double>::epsilon());
  CHECK(ulp_of(ValueType::F64, 0) == std::numeric_limits<double>::denorm_min());
  CHECK(ulp_of(ValueType::F32, 0) == static_cast<double>(std::numeric_limits<float>::denorm_min()));
}

TEST_CASE("floats: the named inputs, and their refusal for integers in one line") {
  const auto mixed = *float_input("mixed", ValueType::F32, 5, 1);
  CHECK(mixed[0].as<float>() == 1e8f);
  for (std::size_t i = 1; i < 5; ++i) CHECK(mixed[i].as<float>() == 1.0f);
  const auto cancel = *float_input("cancel", ValueType::F64, 8, 1);
  const double want[] = {1e17, 1, -1e17, 1, 1e17, 1, -1e17, 1};
  for (std::size_t i = 0; i < 8; ++i) CHECK(cancel[i].as<double>() == want[i]);
  const auto scaled = *float_input("scaled", ValueType::F32, 9, 1);
  CHECK(scaled[0].as<float>() == 0.3f);
  CHECK(scaled[7].as<float>() == 0.9f);
  CHECK(scaled[8].as<float>() == 0.3f);
  for (ValueType type : {ValueType::F32, ValueType::F64}) {
    const auto u = *float_input("uniform", type, 500, 3);
    std::set<double> seen;
    for (const Payload& p : u) {
      const double x = float_exact::number(type, p);
      CHECK(x >= 0);
      CHECK(x < 1);
      CHECK(std::ldexp(x, type == ValueType::F32 ? 24 : 53) == std::floor(std::ldexp(x, type == ValueType::F32 ? 24 : 53)));
      seen.insert(x);
    }
    CHECK(seen.size() > 490);
  }
  CHECK(!float_input("slides", ValueType::F32, 4, 1));
  // Through the one place a run's input is made: the request's seed draws uniform, n its length.
  RunRequest r;
  r.algorithm = "brent-kung";
  r.n = 12;
  r.type = ValueType::F64;
  r.input = "uniform";
  r.seed = 5;
  const BlockRunConfig c = run_config(r);
  CHECK(c.n == 12);
  CHECK(c.input == *float_input("uniform", ValueType::F64, 12, 5));
  for (const char* name : {"mixed", "cancel", "uniform", "scaled"}) {
    RunRequest i = r;
    i.type = ValueType::I32;
    i.input = name;
    try {
      run_config(i);
      FAIL("accepted --input " << name << " for int32");
    } catch (const RequestError& e) {
      const std::string text = request_error_text(e, "--");
      CHECK(text.find('\n') == std::string::npos);
      CHECK(text.find("--input") != std::string::npos);
      CHECK(text.find("--type float or double") != std::string::npos);
    }
  }
}

TEST_CASE("floats: n = 4 worked by hand: Kogge-Stone's and Brent-Kung's trees against the loop's chain") {
  // 1e8 + 1 rounds back to 1e8 in float (its ULP is 8): where the 1s meet 1e8 decides the bits.
  const auto in = floats({1e8f, 1.0f, 1.0f, 1.0f});
  const float x0 = 1e8f, x1 = 1, x2 = 1, x3 = 1;
  const Trace ks = record_float("kogge-stone", ValueType::F32, in);
  CHECK(ks.result.output[3].as<float>() == (x0 + x1) + (x2 + x3));
  CHECK(addition_order_text(addition_tree(ks, 3)) == "(x0+x1)+(x2+x3)");
  CHECK(addition_order_text(addition_tree(ks, 2)) == "x0+(x1+x2)");
  const Trace bk = record_float("brent-kung", ValueType::F32, in);
  CHECK(bk.result.output[2].as<float>() == (x0 + x1) + x2);
  CHECK(addition_order_text(addition_tree(bk, 2)) == "x0+x1 then +x2");
  CHECK(addition_order_text(addition_tree(bk, 3)) == "(x0+x1)+(x2+x3)");
  const AdditionTree tree = addition_tree(bk, 3);
  CHECK(tree.additions() == 3);
  CHECK(tree.nodes[static_cast<std::size_t>(tree.root)].depth == 2);
  // 1e8+1 rounds (lost 1), 1+1 is exact, 1e8+2 rounds (lost 2): the exact 1e8+3 is 3/8 ULP away.
  CHECK(tree.inexact() == 2);
  const FloatErrors e = float_errors(bk);
  CHECK(e.outputs[3].value == 1e8);
  CHECK(e.outputs[3].exact == 1e8 + 3);
  CHECK(e.outputs[3].ulps == 0.375);
  CHECK(e.outputs[3].sequential == static_cast<double>(((x0 + x1) + x2) + x3));
  const std::string said = float_narration(e.outputs[2], addition_tree(bk, 2));
  CHECK(said.find("y2 = x0+x1 then +x2: rounded twice") == 0);
  CHECK(said.find("The sequential loop rounds twice before output 2") != std::string::npos);
  // At n = 16 the tree adds eight 1s together before they meet 1e8, the loop loses every one of them.
  const Trace bk16 = record_float("brent-kung", ValueType::F32, *float_input("mixed", ValueType::F32, 16, 1));
  const FloatErrors e16 = float_errors(bk16);
  CHECK(e16.outputs[15].value == 1e8 + 8);
  CHECK(e16.outputs[15].ulps == 7.0 / 8);
  CHECK(e16.outputs[15].sequential == 1e8);
  CHECK(e16.outputs[15].sequential_ulps == 15.0 / 8);
  CHECK(float_narration(e16.outputs[15], addition_tree(bk16, 15)).find("rounds 15 times before output 15") != std::string::npos);
}

TEST_CASE("floats: every race-free block algorithm, float and double, each input, sizes powers of two and not") {
  for (const AlgorithmInfo& a : block_algorithms()) {
    if (a.racy) continue;
    for (ValueType type : {ValueType::F32, ValueType::F64})
      for (const std::string input : {"uniform", "mixed", "cancel", "scaled"})
        for (std::size_t n : {1, 3, 4, 13, 32, 100, 256}) {
          CAPTURE(a.name);
          CAPTURE(type_name(type));
          CAPTURE(input);
          CAPTURE(n);
          check_trace(record_float(std::string(a.name), type, *float_input(input, type, n, 2)));
        }
    CAPTURE(a.name);
    check_trace(record_float(std::string(a.name), ValueType::F32, *float_input("uniform", ValueType::F32, 13, 4), true));
    check_trace(record_float(std::string(a.name), ValueType::F64, *float_input("mixed", ValueType::F64, 32, 4), true));
  }
}

TEST_CASE("floats: the analysis refuses what is not a sum of floats") {
  BlockRunConfig c;
  c.algorithm = "kogge-stone";
  const Trace ints = record_block_scan(c);
  CHECK(!float_errors_apply(ints));
  CHECK_THROWS_AS(float_errors(ints), std::invalid_argument);
  CHECK_THROWS_AS(addition_tree(ints, 0), std::invalid_argument);
  const Trace f = record_float("sklansky", ValueType::F32, floats({1, 2, 3}));
  CHECK_THROWS_AS(addition_tree(f, 3), std::invalid_argument);
}
