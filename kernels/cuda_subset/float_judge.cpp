// The float judge of float_judge.hpp.
#include "cuda_subset/float_judge.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

namespace sv::cuda {

namespace {

double as_double(ValueType type, const Payload& p) { return type == ValueType::F32 ? p.as<float>() : p.as<double>(); }

// Higham's gamma(k) for unit roundoff u; a sum of 1/u terms or more may be anything.
double gamma(double u, std::int64_t k) {
  const double ku = u * static_cast<double>(k);
  return ku >= 0.5 ? std::numeric_limits<double>::infinity() : ku / (1 - ku);
}

double unit_roundoff(ValueType type) {
  return type == ValueType::F32 ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
}

}  // namespace

std::vector<FloatExpected> float64_scan(ValueType type, const std::vector<Payload>& input, std::int64_t section, bool exclusive) {
  std::vector<FloatExpected> out(input.size());
  double sum = 0, magnitude = 0;
  std::int64_t terms = 0;
  for (std::size_t i = 0; i < input.size(); ++i) {
    if (section > 0 && static_cast<std::int64_t>(i) % section == 0) sum = 0, magnitude = 0, terms = 0;
    const double x = as_double(type, input[i]);
    if (!exclusive) sum += x, magnitude += std::fabs(x), ++terms;
    out[i] = {sum, magnitude, terms > 0 ? terms - 1 : 0};
    if (exclusive) sum += x, magnitude += std::fabs(x), ++terms;
  }
  return out;
}

double float_tolerance(ValueType type, const FloatExpected& e, double factor) {
  return (factor * gamma(unit_roundoff(type), e.additions) + gamma(std::ldexp(1.0, -53), e.additions)) * e.magnitude;
}

bool float_output_ok(ValueType type, const FloatExpected& e, const Payload& actual, double factor) {
  const double a = as_double(type, actual);
  if (!std::isfinite(a)) return false;  // the inputs are finite and small: no correct sum overflows
  return std::fabs(a - e.value) <= float_tolerance(type, e, factor);
}

std::string float_tolerance_text(ValueType type, double factor) {
  char f[32];
  std::snprintf(f, sizeof f, "%g", factor);
  return std::string("each output against the float64 scan, within ") + (factor == 1 ? "" : std::string(f) + " x ") +
         "gamma(k) * sum|x| (k: the additions behind it, gamma(k) = k u / (1 - k u), u = " +
         (type == ValueType::F32 ? "2^-24" : "2^-53") + ")";
}

}  // namespace sv::cuda
