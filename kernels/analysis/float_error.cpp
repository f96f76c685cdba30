// The float lesson's analysis (float_error.hpp).
#include "analysis/float_error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "algorithms.hpp"
#include "core/exact_sum.hpp"
#include "core/values.hpp"

namespace sv {

double float_value(ValueType type, const Payload& p) {
  return type == ValueType::F32 ? static_cast<double>(p.as<float>()) : p.as<double>();
}

namespace {

// Rounds a double to the trace's type (the sequential loop adds in that type).
double in_type(ValueType type, double v) { return type == ValueType::F32 ? static_cast<double>(static_cast<float>(v)) : v; }

void require(const Trace& trace) {
  if (!float_errors_apply(trace))
    throw std::invalid_argument("the float lesson reads a block-level sum of float or double, not a " +
                                std::string(type_name(trace.meta.type)) + " " + std::string(op_name(trace.meta.op)));
}

// The first input each output covers: its segment's head (none: 0).
std::vector<std::int64_t> segment_starts(const Trace& trace) {
  const std::vector<std::uint8_t> heads = judged_heads(trace.meta);
  std::vector<std::int64_t> starts(trace.result.output.size(), 0);
  std::int64_t head = 0;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    if (i < heads.size() && heads[i]) head = static_cast<std::int64_t>(i);
    starts[i] = head;
  }
  return starts;
}

}  // namespace

bool float_errors_apply(const Trace& trace) {
  const TraceMeta& m = trace.meta;
  return m.op == OpKind::Sum && (m.type == ValueType::F32 || m.type == ValueType::F64) && m.flags.empty() && trace.tile_events.empty() &&
         (find_algorithm(m.algorithm) || is_own_kernel_algorithm(m.algorithm)) && trace.find_buffer("input") >= 0 &&
         trace.find_buffer("output") >= 0 && trace.result.output.size() <= m.input.size();
}

namespace {

// Each output against its exact sum, beside the sequential loop's. `output` null: the loop's own
// sums are the outputs (its errors alone).
FloatErrors errors_of(ValueType type, const std::vector<Payload>& in, const std::vector<Payload>* output, bool exclusive,
                      const std::vector<std::int64_t>& starts) {
  FloatErrors r;
  r.type = type;
  const std::size_t n = output ? output->size() : in.size();
  ExactSum exact;
  double loop = 0;
  for (std::size_t i = 0; i < n; ++i) {
    FloatOutput o;
    o.cell = static_cast<std::int64_t>(i);
    o.first = i < starts.size() ? starts[i] : 0;
    const std::int64_t last = exclusive ? o.cell - 1 : o.cell;
    o.count = std::max<std::int64_t>(0, last - o.first + 1);
    if (o.cell == o.first) exact = ExactSum(), loop = 0;  // a section starts: both sums restart
    if (o.count > 0) {  // the one input this output covers beyond the one before
      const double x = float_value(type, in[static_cast<std::size_t>(last)]);
      exact.add(x);
      loop = o.count == 1 ? x : in_type(type, loop + x);
    }
    o.sequential = loop;
    o.value = output ? float_value(type, (*output)[i]) : loop;
    o.exact = exact.value();
    o.error = -exact.minus(o.value);
    const double ulp = exact.ulp(type);
    o.ulps = std::abs(o.error) / ulp;
    o.sequential_ulps = std::abs(exact.minus(loop)) / ulp;
    r.outputs.push_back(o);
  }
  for (const FloatOutput& o : r.outputs) {
    r.max_ulps = std::max(r.max_ulps, o.ulps);
    r.sequential_max_ulps = std::max(r.sequential_max_ulps, o.sequential_ulps);
    r.mean_ulps += o.ulps / static_cast<double>(r.outputs.size());
    r.sequential_mean_ulps += o.sequential_ulps / static_cast<double>(r.outputs.size());
  }
  return r;
}

}  // namespace

FloatErrors float_errors(const Trace& trace) {
  require(trace);
  return errors_of(trace.meta.type, trace.meta.input, &trace.result.output, trace.meta.exclusive, segment_starts(trace));
}

FloatErrors sequential_float_errors(ValueType type, const std::vector<Payload>& input) {
  if (type != ValueType::F32 && type != ValueType::F64) throw std::invalid_argument("sequential_float_errors: float or double only");
  return errors_of(type, input, nullptr, false, {});
}

FloatErrorPoint float_error_point(const FloatErrors& e, const std::string& algorithm, bool sequential) {
  return {sequential ? "sequential" : algorithm, static_cast<std::int64_t>(e.outputs.size()),
          sequential ? e.sequential_max_ulps : e.max_ulps, sequential ? e.sequential_mean_ulps : e.mean_ulps};
}

std::string float_error_csv(const std::vector<FloatErrorPoint>& points) {
  std::string out = "algorithm,n,max_ulps,mean_ulps\n";
  char buf[128];
  for (const FloatErrorPoint& p : points) {
    std::snprintf(buf, sizeof buf, ",%lld,%.17g,%.17g\n", static_cast<long long>(p.n), p.max_ulps, p.mean_ulps);
    out += p.algorithm + buf;
  }
  return out;
}

std::string ulps_text(double ulps) {
  char buf[32];
  std::snprintf(buf, sizeof buf, ulps == 0 ? "0" : ulps < 0.01 ? "%.1e" : ulps < 100 ? "%.3g" : "%.2g", ulps);
  return buf;
}

}  // namespace sv
