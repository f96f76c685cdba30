// Float outputs judged as numerical analysis judges a sum: against the float64 scan, within Higham's
// bound for the additions behind each output. A correct Brent-Kung in float passes at n = 2^20; an
// element left out fails at n = 3, by the judge alone and through check.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "cuda_subset/check.hpp"
#include "cuda_subset/float_judge.hpp"

using namespace sv;

namespace {

// Brent-Kung's inclusive scan of `a` in float, in place: the reduction tree, then the distribution
// tree, each addition rounded to float as a GPU rounds it.
void brent_kung_float(std::vector<float>& a) {
  const std::size_t n = a.size();
  for (std::size_t stride = 1; stride < n; stride *= 2)
    for (std::size_t i = 2 * stride - 1; i < n; i += 2 * stride) a[i] += a[i - stride];
  for (std::size_t stride = n / 4; stride > 0; stride /= 2)
    for (std::size_t i = 2 * stride - 1; i + stride < n; i += 2 * stride) a[i + stride] += a[i];
}

std::vector<float> random_floats(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(u(rng));
  return v;
}

std::vector<Payload> payloads(const std::vector<float>& v) {
  std::vector<Payload> p;
  for (const float x : v) p.push_back(Payload::of(x));
  return p;
}

}  // namespace

TEST_CASE("float judge: a correct Brent-Kung in float passes at n = 2^20, though its outputs are not the float64 ones") {
  const std::size_t n = std::size_t{1} << 20;
  const std::vector<float> x = random_floats(n, 5);
  std::vector<float> y = x;
  brent_kung_float(y);
  const std::vector<cuda::FloatExpected> want = cuda::float64_scan(ValueType::F32, payloads(x), 0, false);
  REQUIRE(want.size() == n);
  CHECK(want.back().additions == static_cast<std::int64_t>(n) - 1);
  std::size_t failed = 0, inexact = 0;
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    failed += !cuda::float_output_ok(ValueType::F32, want[i], Payload::of(y[i]), 1);
    inexact += y[i] != static_cast<float>(want[i].value);  // more than float's rounding of the exact sum
    worst = std::max(worst, std::fabs(y[i] - want[i].value));
  }
  CHECK(failed == 0);
  CHECK(inexact > n / 100);  // reassociation and float rounding show: an exact compare would fail
  CHECK(worst > 1e-5);
}

TEST_CASE("float judge: an element left out fails at n = 3, and a sum off by more than its bound fails at n = 2^20") {
  const std::vector<float> x = random_floats(3, 9);
  const std::vector<cuda::FloatExpected> want = cuda::float64_scan(ValueType::F32, payloads(x), 0, false);
  CHECK(cuda::float_output_ok(ValueType::F32, want[2], Payload::of(x[0] + x[1] + x[2]), 1));
  CHECK_FALSE(cuda::float_output_ok(ValueType::F32, want[2], Payload::of(x[0] + x[2]), 1));  // x1 dropped
  CHECK_FALSE(cuda::float_output_ok(ValueType::F32, want[1], Payload::of(x[0]), 1));
  CHECK_FALSE(cuda::float_output_ok(ValueType::F32, want[2], Payload::of(std::nanf("")), 1));
  // The bound grows with the additions: none for the first output, 2^20 - 1 for the last.
  const std::vector<float> big = random_floats(std::size_t{1} << 20, 3);
  const std::vector<cuda::FloatExpected> w = cuda::float64_scan(ValueType::F32, payloads(big), 0, false);
  CHECK(cuda::float_tolerance(ValueType::F32, w.front(), 1) < 1e-12);
  const double bound = cuda::float_tolerance(ValueType::F32, w.back(), 1);
  CHECK(bound > cuda::float_tolerance(ValueType::F32, w[1000], 1));
  CHECK_FALSE(cuda::float_output_ok(ValueType::F32, w.back(), Payload::of(static_cast<float>(w.back().value + 2 * bound)), 1));
  // Exclusive: the first output is the identity, made of no addition; sections restart.
  const std::vector<cuda::FloatExpected> ex = cuda::float64_scan(ValueType::F32, payloads(x), 2, true);
  CHECK(ex[0].value == 0);
  CHECK(ex[1].value == static_cast<double>(x[0]));
  CHECK(ex[2].value == 0);
}

TEST_CASE("check: a float kernel that drops an element is wrong at n = 3 on float inputs, a correct one is right, and the card says how floats are judged") {
  const std::string dropped = R"(#define BLOCK_DIM 4
__global__ void scan(float* in, float* out, unsigned int n) {
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (unsigned int i = 0; i < n; ++i) {
      if (i != 1) s += in[i];
      out[i] = s;
    }
  }
}
)";
  std::string correct = dropped;
  correct.replace(correct.find("if (i != 1) "), 12, "");
  cuda::CheckOptions o;
  o.sizes = {3};
  o.exclusive = false;
  const cuda::CheckReport bad = cuda::check_kernel("dropped.cu", dropped, o);
  const cuda::CheckReport good = cuda::check_kernel("correct.cu", correct, o);
  const auto float_cases = [](const cuda::CheckReport& r, const std::string& outcome) {
    return std::count_if(r.cases.begin(), r.cases.end(), [&](const cuda::CheckCase& c) { return c.input == "floats" && c.outcome == outcome; });
  };
  CHECK(float_cases(bad, "wrong") > 0);
  CHECK(float_cases(bad, "correct") == 0);
  CHECK(float_cases(good, "correct") > 0);
  CHECK(float_cases(good, "wrong") == 0);
  CHECK(good.verdict == "correct");
  CHECK(good.float_judge.find("float64") != std::string::npos);
  const auto wrong = std::find_if(bad.cases.begin(), bad.cases.end(), [](const cuda::CheckCase& c) { return c.input == "floats" && c.outcome == "wrong"; });
  REQUIRE(wrong != bad.cases.end());
  CHECK(wrong->detail.find("output[1]") != std::string::npos);
  CHECK(wrong->detail.find("additions") != std::string::npos);
}
