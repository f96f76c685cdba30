// `scanviz chart floats`: its points (app/float_error_runs.hpp) against the largest and mean ULP
// error the test computes itself from each run's outputs in 128-bit integers, the loop added in the
// test, and the command's CSV and refusals.
#include <doctest/doctest.h>

#include <map>
#include <sstream>

#include "algorithms.hpp"
#include "chart.hpp"
#include "core/float_inputs.hpp"
#include "emulator/record.hpp"
#include "float_error_runs.hpp"
#include "float_exact.hpp"
#include "run_command.hpp"

using namespace sv;
using float_exact::I128;

namespace {

struct Errors {
  double max = 0, mean = 0;
};

// The errors of `outputs` (inclusive sums of `in`), in the test's own arithmetic.
Errors errors_of(ValueType type, const std::vector<Payload>& in, const std::vector<double>& outputs) {
  const int shift = float_exact::shift_for(type);
  Errors e;
  I128 exact = 0;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    exact += float_exact::scaled(float_exact::number(type, in[i]), shift);
    const double u = static_cast<double>(float_exact::ulps(type, exact, float_exact::scaled(outputs[i], shift), shift));
    e.max = std::max(e.max, u);
    e.mean += u / static_cast<double>(outputs.size());
  }
  return e;
}

}  // namespace

TEST_CASE("chart floats: each algorithm's and the loop's largest and mean ULP error, recomputed in the test") {
  const std::vector<std::int64_t> sizes = {8, 12, 64, 100, 2048, 3000};  // powers of two and not; past one block
  for (ValueType type : {ValueType::F32, ValueType::F64})
    for (const std::string input : {"uniform", "mixed", "cancel"}) {
      CAPTURE(type_name(type));
      CAPTURE(input);
      const auto points = measure_float_errors(type, input, 9, sizes);
      std::map<std::pair<std::string, std::int64_t>, FloatErrorPoint> by;
      for (const FloatErrorPoint& p : points) by[{p.algorithm, p.n}] = p;
      for (std::int64_t n : sizes) {
        CAPTURE(n);
        const auto in = *float_input(input, type, static_cast<std::size_t>(n), 9);
        std::vector<double> loop(in.size());
        for (std::size_t i = 0; i < in.size(); ++i) loop[i] = float_exact::loop_sum(type, in, 0, i);
        const Errors want_loop = errors_of(type, in, loop);
        REQUIRE(by.count({"sequential", n}) == 1);
        CHECK(by[{"sequential", n}].max_ulps == doctest::Approx(want_loop.max).epsilon(1e-9));
        CHECK(by[{"sequential", n}].mean_ulps == doctest::Approx(want_loop.mean).epsilon(1e-9));
        if (n > 256) continue;  // the block algorithms at the small sizes: every one, recorded here again
        for (const AlgorithmInfo& a : block_algorithms()) {
          CAPTURE(a.name);
          const bool plotted = by.count({std::string(a.name), n}) == 1;
          CHECK(plotted == !a.racy);
          if (!plotted) continue;
          BlockRunConfig c;
          c.algorithm = std::string(a.name);
          c.n = n;
          c.type = type;
          c.input = in;
          const Trace t = record_block_scan(c);
          std::vector<double> out;
          for (const Payload& p : t.result.output) out.push_back(float_exact::number(type, p));
          const Errors want = errors_of(type, in, out);
          CHECK(by[{std::string(a.name), n}].max_ulps == doctest::Approx(want.max).epsilon(1e-9));
          CHECK(by[{std::string(a.name), n}].mean_ulps == doctest::Approx(want.mean).epsilon(1e-9));
        }
      }
      // Past what one block holds only the loop and the algorithms that hold it are plotted.
      for (const FloatErrorPoint& p : points)
        if (p.algorithm != "sequential")
          CHECK(p.n <= static_cast<std::int64_t>(kMaxBlockThreads) * find_algorithm(p.algorithm)->items_per_thread);
    }
  // The loop loses each 1 added to 1e8 (ULP 8): at n = 64, 63 of them, 63/8 ULP; a tree, which adds
  // 1s together before they meet 1e8, far less.
  const auto mixed = measure_float_errors(ValueType::F32, "mixed", 1, {64}, {"brent-kung"});
  REQUIRE(mixed.size() == 2);
  CHECK(mixed[1].algorithm == "sequential");
  CHECK(mixed[1].max_ulps == 63.0 / 8);
  CHECK(mixed[0].max_ulps < mixed[1].max_ulps / 4);
}

TEST_CASE("chart floats: the command's CSV, its charts, and its refusals") {
  sv_test::TempDir d;
  auto r = sv_test::scanviz("chart floats --algos brent-kung,kogge-stone --input mixed --out f.csv", d.path);
  REQUIRE(r.code == 0);
  std::istringstream csv(sv_test::slurp(d.path / "f.csv"));
  std::string line;
  std::getline(csv, line);
  CHECK(line == "algorithm,n,max_ulps,mean_ulps");
  std::map<std::string, int> rows;
  while (std::getline(csv, line)) ++rows[line.substr(0, line.find(','))];
  CHECK(rows["sequential"] == 10);   // 2^3 .. 2^12
  CHECK(rows["brent-kung"] == 9);    // 2^3 .. 2^11: two items a thread, 1024 threads
  CHECK(rows["kogge-stone"] == 8);   // 2^3 .. 2^10
  CHECK(rows.size() == 3);
  r = sv_test::scanviz("chart floats --algos sklansky --type double --out f.svg", d.path);
  CHECK(r.code == 0);
  const std::string svg = sv_test::slurp(d.path / "f.svg");
  CHECK(svg.find("Largest error") != std::string::npos);
  CHECK(svg.find("sequential") != std::string::npos);
  r = sv_test::scanviz("chart floats --type int32 --out f.csv", d.path);
  CHECK(r.code == 2);
  CHECK(sv_test::lines(r.err) == 1);
  r = sv_test::scanviz("chart floats --input slides --out f.csv", d.path);
  CHECK(r.code == 2);
  CHECK(r.err.find("scaled, uniform, mixed or cancel") != std::string::npos);
  r = sv_test::scanviz("trace --algo kogge-stone --input mixed --out t.json", d.path);
  CHECK(r.code == 2);
  CHECK(sv_test::lines(r.err) == 1);
  CHECK(r.err.find("--type float or double") != std::string::npos);
}
