// Segmented scan (every block algorithm and decoupled look-back over (flag, value) pairs, every
// operator) and the applications of scan (stream compaction, allocation), against the one sequential
// reference, on seeded random inputs and flags; and their bad inputs.
#include <doctest/doctest.h>

#include <random>
#include <stdexcept>

#include "analysis/application.hpp"
#include "core/segmented.hpp"
#include "core/segments.hpp"
#include "helpers.hpp"
#include "trace/trace_json.hpp"

using namespace sv;

namespace {

std::vector<Payload> ints(std::initializer_list<std::int32_t> v) {
  std::vector<Payload> out;
  for (std::int32_t x : v) out.push_back(Payload::of(x));
  return out;
}

std::vector<std::int32_t> as_ints(const std::vector<Payload>& v) {
  std::vector<std::int32_t> out;
  for (const Payload& p : v) out.push_back(p.as<std::int32_t>());
  return out;
}

BlockRunConfig segmented(const std::string& algo, std::int64_t n, OpKind op, ValueType type, double density,
                         std::uint64_t seed, const std::string& schedule = "in-order") {
  BlockRunConfig c = sv_test::config(algo, n, op, type, schedule, false, seed);
  c.flags = random_flags(static_cast<std::size_t>(n), density, seed + 99);
  return c;
}

void check_segmented(const Trace& t) {
  REQUIRE(t.meta.flags.size() == static_cast<std::size_t>(t.meta.n));
  const auto ref = reference_scan(t.meta.op, t.meta.type, t.meta.input, false, t.meta.flags);
  REQUIRE(t.result.output.size() == ref.size());
  CHECK(mismatches(t.meta.op, t.meta.type, t.meta.input, false, ref, t.result.output, t.meta.flags).empty());
  CHECK(t.result.outcome == Outcome::Correct);
}

const std::vector<std::string> kRaceFree = sv_test::algorithms(sv_test::Rows::RaceFreeBlock);

}  // namespace

TEST_CASE("segmented operator: associative for every operator, restarts at a head") {
  for (auto [kind, type] : sv_test::all_ops()) {
    CAPTURE(op_name(kind));
    CAPTURE(type_name(type));
    const auto values = random_input(kind, type, 300, 5);
    const auto flags = random_flags(300, 0.4, 6);
    const auto pairs = pack_segmented(type, values, flags);
    visit_op(kind, type, [&](auto base) {
      using S = SegmentedOp<decltype(base)>;
      using P = typename S::value_type;
      S op;
      for (std::size_t i = 0; i + 2 < pairs.size(); i += 3) {
        const P a = pairs[i].as<P>(), b = pairs[i + 1].as<P>(), c = pairs[i + 2].as<P>();
        const P l = op(op(a, b), c), r = op(a, op(b, c));
        CHECK(l.flag == r.flag);
        if (type == ValueType::F32 || type == ValueType::F64)
          CHECK(values_match(type, Payload::of(l.v), Payload::of(r.v), 3, 100));
        else
          CHECK(Payload::of(l.v) == Payload::of(r.v));
        const P id = S::identity();
        CHECK(Payload::of(op(id, a)) == Payload::of(a));
        CHECK(Payload::of(op(a, id)) == Payload::of(a));
      }
    });
  }
}

TEST_CASE("segmented reference: the scan restarts at each head (worked by hand)") {
  const auto out = reference_scan(OpKind::Sum, ValueType::I32, ints({1, 2, 3, 4, 5, 6, 7, 8}), false,
                                  {1, 0, 0, 1, 0, 1, 0, 0});
  CHECK(as_ints(out) == std::vector<std::int32_t>{1, 3, 6, 4, 9, 6, 13, 21});
  const auto mx = reference_scan(OpKind::Max, ValueType::I32, ints({5, 1, 9, 2, 3, 1}), false, {0, 0, 0, 1, 0, 1});
  CHECK(as_ints(mx) == std::vector<std::int32_t>{5, 5, 9, 2, 3, 1});
  // A first element without a flag starts the first segment all the same.
  std::vector<Payload> x;
  for (int i = 0; i < 5; ++i) x.push_back(Payload::of(Interval::single(i)));
  const auto iv = reference_scan(OpKind::Interval, ValueType::Interval, x, false, {0, 0, 1, 0, 0});
  CHECK(format_value(ValueType::Interval, iv[1]) == "x0..x1");
  CHECK(format_value(ValueType::Interval, iv[2]) == "x2");
  CHECK(format_value(ValueType::Interval, iv[4]) == "x2..x4");
  CHECK_THROWS_AS(reference_scan(OpKind::Sum, ValueType::I32, ints({1, 2}), false, {1}), std::invalid_argument);
}

TEST_CASE("segmented block scans match the reference: every algorithm, operator, odd and even sizes") {
  for (const std::string& algo : kRaceFree)
    for (auto [op, type] : sv_test::all_ops())
      for (std::int64_t n : {1, 2, 3, 16, 17, 32, 33, 65, 100, 1000})
        for (double density : {0.0, 0.15, 0.5, 1.0}) {
          CAPTURE(algo);
          CAPTURE(op_name(op));
          CAPTURE(type_name(type));
          CAPTURE(n);
          CAPTURE(density);
          const std::string schedule = n % 2 ? "random:3" : "reverse";
          check_segmented(record_block_scan(segmented(algo, n, op, type, density, 40 + n, schedule)));
        }
}

TEST_CASE("segmented scan with one segment equals the plain scan") {
  for (const std::string& algo : kRaceFree) {
    CAPTURE(algo);
    BlockRunConfig c = sv_test::config(algo, 77, OpKind::Interval, ValueType::Interval);
    c.flags.assign(77, 0);
    const Trace s = record_block_scan(c);
    const Trace p = sv_test::record(algo, 77, OpKind::Interval, ValueType::Interval);
    CHECK(s.result.output == p.result.output);
    CHECK(format_value(ValueType::Interval, s.result.output[76]) == "x0..x76");
  }
}

TEST_CASE("segmented decoupled look-back over (flag, value) pairs matches the reference") {
  for (auto [op, type] : sv_test::all_ops())
    for (std::int64_t n : {1, 127, 128, 1000, 4097})
      for (double density : {0.0, 0.002, 0.3}) {
        CAPTURE(op_name(op));
        CAPTURE(type_name(type));
        CAPTURE(n);
        CAPTURE(density);
        BlockRunConfig c = segmented("decoupled-lookback", n, op, type, density, 7 + n);
        c.block = 32;
        c.options = {{"launch", n % 2 ? "random:5" : "reverse"}, {"window", density > 0.1 ? "4" : "32"}};
        check_segmented(record_scan(c));
      }
}

TEST_CASE("segmented decoupled look-back: heads exactly at tile starts, and every element a head") {
  BlockRunConfig c = sv_test::config("decoupled-lookback", 3000, OpKind::Sum, ValueType::I64);
  c.block = 32;
  c.options = {{"items", "4"}};
  c.flags.assign(3000, 0);
  for (std::size_t i = 0; i < c.flags.size(); i += 128) c.flags[i] = 1;
  check_segmented(record_scan(c));
  c.flags.assign(3000, 1);
  const Trace all = record_scan(c);
  check_segmented(all);
  CHECK(all.result.output == all.meta.input);
}

TEST_CASE("segmented scans: a trace keeps values and heads through JSON") {
  BlockRunConfig c = segmented("brent-kung", 21, OpKind::Interval, ValueType::Interval, 0.3, 3);
  const Trace t = record_block_scan(c);
  const Trace back = trace_from_json(trace_to_json(t));
  CHECK(back.meta.flags == t.meta.flags);
  CHECK(back.result.output == t.result.output);
  REQUIRE(back.events.size() == t.events.size());
  for (std::size_t i = 0; i < t.events.size(); ++i) CHECK(back.events[i].value == t.events[i].value);
}

TEST_CASE("trace files: segment flags and applications are checked when loaded") {
  const std::string good = trace_to_json(record_block_scan(segmented("kogge-stone", 4, OpKind::Sum, ValueType::I32, 0.5, 2)));
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
  };
  const std::string flags = "\"segment_flags\": [";
  CHECK_THROWS_WITH_AS(trace_from_json(with(flags, flags + "1,")), doctest::Contains("segment_flags"), TraceError);
  CHECK_THROWS_WITH_AS(trace_from_json(with(flags + "1", flags + "2")), doctest::Contains("segment_flags[0]"), TraceError);
  CHECK_THROWS_WITH_AS(trace_from_json(with(flags, "\"application\": {\"kind\": \"sort\", \"predicate\": \"\", "
                                                   "\"values\": []}, " + flags)),
                       doctest::Contains("compact, allocate"), TraceError);
}

TEST_CASE("segmented scans: bad configurations are refused with a reason") {
  BlockRunConfig c = segmented("kogge-stone", 8, OpKind::Sum, ValueType::I32, 0.3, 1);
  c.flags.pop_back();
  CHECK_THROWS_WITH_AS(record_block_scan(c), doctest::Contains("7 flags for n = 8"), std::invalid_argument);
  c = segmented("kogge-stone", 8, OpKind::Sum, ValueType::I32, 0.3, 1);
  c.exclusive = true;
  CHECK_THROWS_WITH_AS(record_block_scan(c), doctest::Contains("inclusive"), std::invalid_argument);
  c = segmented("hierarchical", 8, OpKind::Sum, ValueType::I32, 0.3, 1);
  CHECK_THROWS_WITH_AS(record_scan(c), doctest::Contains("decoupled-lookback"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(flags_from_option("1,0,2", 3, 1), doctest::Contains("'2' at position 2"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(flags_from_option("1,0", 3, 1), doctest::Contains("2 flags for 3 values"), std::invalid_argument);
  CHECK_THROWS_AS(flags_from_option("random:1.5", 3, 1), std::invalid_argument);
  CHECK(flags_from_option("random:0", 4, 1) == std::vector<std::uint8_t>{1, 0, 0, 0});
}

// ---- applications ----

TEST_CASE("predicates: what they accept and how they evaluate") {
  CHECK(Predicate::parse("x>0")(1));
  CHECK_FALSE(Predicate::parse("x > 0")(0));
  CHECK(Predicate::parse("x % 2 == 0")(-4));
  CHECK_FALSE(Predicate::parse("x%2==0")(7));
  CHECK(Predicate::parse("x % 2 != 0")(-3));  // C's %: -3 % 2 is -1
  CHECK(Predicate::parse("x >= -3 && x < 5")(-3));
  CHECK_FALSE(Predicate::parse("x >= -3 && x < 5")(5));
  CHECK(Predicate::parse("x < 0 || x > 10")(11));
  CHECK(Predicate::parse("!(x == 1)")(2));
  CHECK(Predicate::parse("(x<=2.5)")(2.5));
  for (const char* bad : {"", "x", "x >", "y > 0", "x > 0 &&", "x % 0 == 1", "(x > 0", "x > 0)", "x => 0", "x > z"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(Predicate::parse(bad), doctest::Contains("expected"), std::invalid_argument);
  }
  CHECK_THROWS_WITH_AS(Predicate::parse("x >"), doctest::Contains("column 4"), std::invalid_argument);
}

TEST_CASE("allocation: the slides' requests [8,6,7,5,3,0,9] get the offsets [0,8,14,21,26,29,29]") {
  // Expected offsets as Merrill and Garland's report states them, not computed here.
  const std::vector<std::int32_t> expected = {0, 8, 14, 21, 26, 29, 29};
  std::vector<std::string> algos = kRaceFree;
  algos.insert(algos.end(), {"decoupled-lookback", "hierarchical", "reduce-then-scan", "chained"});
  for (const std::string& algo : algos) {
    CAPTURE(algo);
    BlockRunConfig c = sv_test::config(algo, 7, OpKind::Sum, ValueType::I32, "in-order", true, 1,
                                       ints({8, 6, 7, 5, 3, 0, 9}));
    c.application.kind = "allocate";
    const Trace t = record_scan(c);
    CHECK(as_ints(t.result.output) == expected);
    const ApplicationView v = application_view(t);
    CHECK(v.scan == std::vector<std::int64_t>{0, 8, 14, 21, 26, 29, 29});
    CHECK(v.total == 38);
    CHECK(v.correct);
    REQUIRE(v.owner.size() == 38);
    CHECK(v.owner[0] == 0);
    CHECK(v.owner[8] == 1);
    CHECK(v.owner[28] == 4);
    CHECK(v.owner[29] == 6);  // request 5 asked for nothing
    CHECK(v.owner[37] == 6);
  }
  CHECK_THROWS_WITH_AS(check_requests(ValueType::I32, ints({3, -1})), doctest::Contains("negative"), std::invalid_argument);
}

TEST_CASE("stream compaction keeps exactly the passing elements in order: every algorithm, odd and even sizes") {
  const Predicate keep = Predicate::parse("x % 3 != 0 && x > -5");
  std::vector<std::string> algos = kRaceFree;
  algos.insert(algos.end(), {"decoupled-lookback", "hierarchical"});
  for (const std::string& algo : algos)
    for (std::int64_t n : {1, 2, 17, 32, 100, 1000}) {
      CAPTURE(algo);
      CAPTURE(n);
      const auto values = random_input(OpKind::Sum, ValueType::I64, static_cast<std::size_t>(n), 3 + n);
      BlockRunConfig c = sv_test::config(algo, n, OpKind::Sum, ValueType::I64, "random:9", true, 1,
                                         compaction_flags(keep, ValueType::I64, values));
      c.application = {"compact", keep.text(), values};
      const Trace t = record_scan(c);
      const ApplicationView v = application_view(t);
      std::vector<std::int64_t> kept;
      for (std::size_t i = 0; i < values.size(); ++i)
        if (keep(static_cast<double>(values[i].as<std::int64_t>()))) kept.push_back(static_cast<std::int64_t>(i));
      CHECK(v.owner == kept);
      CHECK(v.total == static_cast<std::int64_t>(kept.size()));
      CHECK(v.collisions == 0);
      CHECK(v.correct);
      const Trace back = trace_from_json(trace_to_json(t));
      CHECK(back.meta.application.values == values);
      CHECK(back.meta.application.predicate == keep.text());
    }
}

TEST_CASE("stream compaction on the racy kernel: a wrong scan shows as claimed-twice slots") {
  // Kogge-Stone with one barrier a step gives wrong sums under the reverse schedule.
  const Predicate keep = Predicate::parse("x > -100");
  const auto values = random_input(OpKind::Sum, ValueType::I32, 64, 4);
  BlockRunConfig c = sv_test::config("kogge-stone-racy", 64, OpKind::Sum, ValueType::I32, "reverse", true, 1,
                                     compaction_flags(keep, ValueType::I32, values));
  c.application = {"compact", keep.text(), values};
  const Trace t = record_scan(c);
  const ApplicationView v = application_view(t);
  if (t.result.outcome == Outcome::Wrong) CHECK_FALSE(v.correct);
  else CHECK(v.correct);
}

// ---- the command line ----

#include <filesystem>
#include <nlohmann/json.hpp>

#include "run_command.hpp"

TEST_CASE("cli: segmented scans, compaction and allocation from trace to show and stats") {
  sv_test::TempDir d;
  sv_test::Run r = sv_test::scanviz("algos", d.path);
  REQUIRE(r.code == 0);
  for (const char* text : {"Segmented scan (--flags", "(f1,v1) (+)s (f2,v2)", "compact", "allocate", "[0,8,14,21,26,29,29]"}) {
    CAPTURE(text);
    CHECK(r.out.find(text) != std::string::npos);
  }
  r = sv_test::scanviz("trace --algo sklansky --input 1,2,3,4,5,6,7,8 --flags 1,0,0,1,0,1,0,0 --executor emulator --out s.json", d.path);
  REQUIRE(r.code == 0);
  r = sv_test::scanviz("stats s.json --json", d.path);
  REQUIRE(r.code == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["output"] == nlohmann::json::array({1, 3, 6, 4, 9, 6, 13, 21}));
  CHECK(j["segment_flags"] == nlohmann::json::array({1, 0, 0, 1, 0, 1, 0, 0}));
  CHECK(j["outcome"] == "correct");
  r = sv_test::scanviz("show s.json", d.path);
  CHECK(r.out.find("segmented, 3 segments") != std::string::npos);
  CHECK(r.out.find("heads") != std::string::npos);

  r = sv_test::scanviz("trace --algo decoupled-lookback --n 3000 --block 32 --flags random:0.05 --op interval --executor emulator --out dl.json", d.path);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("outcome correct") != std::string::npos);

  r = sv_test::scanviz("trace --algo blelloch --app allocate --input 8,6,7,5,3,0,9 --executor emulator --out a.json", d.path);
  REQUIRE(r.code == 0);
  r = sv_test::scanviz("stats a.json --json", d.path);
  j = nlohmann::json::parse(r.out);
  CHECK(j["output"] == nlohmann::json::array({0, 8, 14, 21, 26, 29, 29}));
  CHECK(j["application"]["kind"] == "allocate");
  CHECK(j["application"]["total"] == 38);
  r = sv_test::scanviz("show a.json", d.path);
  CHECK(r.out.find("offset (excl. scan)  0  8  14  21  26  29  29") != std::string::npos);

  r = sv_test::scanviz("trace --algo kogge-stone --app compact --predicate 'x % 2 == 0' --input 3,8,-2,7,0,5 --executor emulator --out c.json", d.path);
  REQUIRE(r.code == 0);
  r = sv_test::scanviz("stats c.json --json", d.path);
  j = nlohmann::json::parse(r.out);
  CHECK(j["application"]["marks"] == nlohmann::json::array({0, 1, 1, 0, 1, 0}));
  CHECK(j["application"]["scan"] == nlohmann::json::array({0, 0, 1, 2, 2, 3}));
  CHECK(j["application"]["owner"] == nlohmann::json::array({1, 2, 4}));
  r = sv_test::scanviz("show c.json", d.path);
  CHECK(r.out.find("3 of 6 kept") != std::string::npos);
}

TEST_CASE("cli: bad segment flags and predicates give one line and exit 2, with no file") {
  sv_test::TempDir d;
  const std::pair<const char*, const char*> cases[] = {
      {"trace --algo kogge-stone --input 1,2,3 --flags 1,0 --out x.json", "2 flags for 3 values"},
      {"trace --algo kogge-stone --n 4 --flags 1,0,2,0 --out x.json", "not 0 or 1"},
      {"trace --algo kogge-stone --n 4 --flags random:2 --out x.json", "from 0 to 1"},
      {"trace --algo kogge-stone --n 4 --flags 1,0,0,0 --exclusive --out x.json", "inclusive"},
      {"trace --algo hierarchical --n 4 --flags 1,0,0,0 --out x.json", "decoupled-lookback"},
      {"trace --algo kogge-stone --n 4 --app compact --predicate 'x >' --out x.json", "column 4"},
      {"trace --algo kogge-stone --n 4 --app compact --predicate 'y > 0' --out x.json", "expected x"},
      {"trace --algo kogge-stone --n 4 --app compact --out x.json", "needs --predicate"},
      {"trace --algo kogge-stone --n 4 --predicate 'x > 0' --out x.json", "--app compact"},
      {"trace --algo kogge-stone --n 4 --app sort --out x.json", "unknown application"},
      {"trace --algo kogge-stone --input 1,-2 --app allocate --out x.json", "negative"},
      {"trace --algo kogge-stone --n 4 --app allocate --op max --out x.json", "scans with sum"},
      {"trace --algo kogge-stone --n 4 --app allocate --type float --out x.json", "integer counts"},
      {"trace --algo kogge-stone --n 4 --app allocate --flags 1,0,0,0 --out x.json", "not segmented"},
  };
  for (auto [args, reason] : cases) {
    CAPTURE(args);
    const sv_test::Run r = sv_test::scanviz(args, d.path);
    CHECK(r.code == 2);
    CHECK(sv_test::lines(r.err) == 1);
    CHECK(r.err.find(reason) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(d.path / "x.json"));
  }
}
