// Host-side value handling: names, text form, comparison, reference scan, seeded inputs.
#include "core/values.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "core/charconv.hpp"

namespace sv {

namespace {
constexpr std::array<std::string_view, kOpKindCount> kOpNames = {"sum", "product", "min",    "max",   "interval",
                                                                  "and", "or",      "bitand", "bitor", "bitxor"};
constexpr std::array<std::string_view, 5> kTypeNames = {"int32", "int64", "float", "double", "interval"};

template <class T>
std::string format_number(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  }
  char buf[64];
  auto res = sv::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

template <class T>
std::optional<T> parse_number(std::string_view s) {
  if constexpr (std::is_floating_point_v<T>) {
    if (s == "inf") return std::numeric_limits<T>::infinity();
    if (s == "-inf") return -std::numeric_limits<T>::infinity();
    if (s == "nan") return std::numeric_limits<T>::quiet_NaN();
  }
  if (s.empty()) return std::nullopt;
  std::string_view body = s;
  if (body.front() == '+') body.remove_prefix(1);
  T v{};
  auto res = sv::from_chars(body.data(), body.data() + body.size(), v);
  if (res.ec != std::errc() || res.ptr != body.data() + body.size()) return std::nullopt;
  return v;
}

std::string format_range(std::int32_t lo, std::int32_t hi) {
  std::string s = "x";  // appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "x" + string
  s += std::to_string(lo);
  if (lo != hi) {
    s += "..x";
    s += std::to_string(hi);
  }
  return s;
}

// "x3" or "x0..x3"; indices non-negative and lo <= hi.
bool parse_range(std::string_view s, std::int32_t& lo, std::int32_t& hi) {
  auto index = [](std::string_view t, std::int32_t& out) {
    if (t.size() < 2 || t[0] != 'x') return false;
    auto body = t.substr(1);
    auto res = std::from_chars(body.data(), body.data() + body.size(), out);
    return res.ec == std::errc() && res.ptr == body.data() + body.size() && out >= 0;
  };
  auto dots = s.find("..");
  if (dots == std::string_view::npos) {
    if (!index(s, lo)) return false;
    hi = lo;
    return true;
  }
  return index(s.substr(0, dots), lo) && index(s.substr(dots + 2), hi) && lo <= hi;
}

}  // namespace

std::string_view op_name(OpKind op) { return kOpNames.at(static_cast<std::size_t>(op)); }
std::string_view type_name(ValueType type) { return kTypeNames.at(static_cast<std::size_t>(type)); }

std::optional<OpKind> parse_op_name(std::string_view s) {
  for (std::size_t i = 0; i < kOpNames.size(); ++i)
    if (kOpNames[i] == s) return static_cast<OpKind>(i);
  return std::nullopt;
}
std::optional<ValueType> parse_type_name(std::string_view s) {
  for (std::size_t i = 0; i < kTypeNames.size(); ++i)
    if (kTypeNames[i] == s) return static_cast<ValueType>(i);
  return std::nullopt;
}

std::string op_names_text() {
  std::string s;
  for (std::size_t i = 0; i < kOpNames.size(); ++i) {
    s += i == 0 ? "" : i + 1 == kOpNames.size() ? " or " : ", ";
    s += kOpNames[i];
  }
  return s;
}

bool is_logical_op(OpKind op) { return op == OpKind::And || op == OpKind::Or; }

ValueType default_type_for(OpKind op) { return op == OpKind::Interval ? ValueType::Interval : ValueType::I32; }

void check_op_type(OpKind op, ValueType type) {
  if (visit_op(op, type, [](auto) {})) return;
  const std::string takes = op == OpKind::Interval ? "interval takes the interval type"
                            : type == ValueType::Interval
                                ? "the interval type goes with the interval operator only"
                                : std::string(op_name(op)) +
                                      (op >= OpKind::And ? " takes int32 or int64"  // and, or and the bitwise ones
                                                         : " takes int32, int64, float or double");
  throw std::invalid_argument("operator " + std::string(op_name(op)) + " does not apply to type " +
                              std::string(type_name(type)) + " (" + takes + ")");
}

void check_op_values(OpKind op, ValueType type, const std::vector<Payload>& values) {
  if (!is_logical_op(op)) return;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::int64_t v = type == ValueType::I64 ? values[i].as<std::int64_t>() : values[i].as<std::int32_t>();
    if (v != 0 && v != 1)
      throw std::invalid_argument("value " + std::to_string(v) + " at position " + std::to_string(i) + " is not 0 or 1 (" +
                                  std::string(op_name(op)) + " scans truth values)");
  }
}

std::string format_value(ValueType type, const Payload& v) {
  switch (type) {
    case ValueType::I32: return format_number(v.as<std::int32_t>());
    case ValueType::I64: return format_number(v.as<std::int64_t>());
    case ValueType::F32: return format_number(v.as<float>());
    case ValueType::F64: return format_number(v.as<double>());
    case ValueType::Interval: {
      auto iv = v.as<Interval>();
      if (iv.is_identity()) return "ID";
      if (iv.is_range()) return format_range(iv.lo, iv.hi);
      std::string s = "!";
      s += format_range(iv.lo, iv.hi);
      s += ",";
      s += format_range(iv.lo2, iv.hi2);
      return s;
    }
  }
  return "?";
}

std::optional<Payload> parse_value(ValueType type, std::string_view text) {
  auto wrap = [](auto opt) -> std::optional<Payload> {
    if (!opt) return std::nullopt;
    return Payload::of(*opt);
  };
  switch (type) {
    case ValueType::I32: return wrap(parse_number<std::int32_t>(text));
    case ValueType::I64: return wrap(parse_number<std::int64_t>(text));
    case ValueType::F32: return wrap(parse_number<float>(text));
    case ValueType::F64: return wrap(parse_number<double>(text));
    case ValueType::Interval: {
      if (text == "ID") return Payload::of(Interval::identity());
      std::int32_t lo, hi;
      if (!text.empty() && text.front() == '!') {
        auto comma = text.find(',');
        std::int32_t lo2, hi2;
        if (comma == std::string_view::npos || !parse_range(text.substr(1, comma - 1), lo, hi) ||
            !parse_range(text.substr(comma + 1), lo2, hi2))
          return std::nullopt;
        return Payload::of(Interval::invalid(lo, hi, lo2, hi2));
      }
      if (!parse_range(text, lo, hi)) return std::nullopt;
      return Payload::of(Interval::range(lo, hi));
    }
  }
  return std::nullopt;
}

std::vector<Payload> parse_value_list(std::string_view text, ValueType type) {
  std::vector<Payload> values;
  if (!text.empty() && text.back() == ',') throw std::invalid_argument("empty value after the last comma");
  std::size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    std::string_view item = text.substr(start, comma - start);
    const auto b = item.find_first_not_of(" \t");
    if (b == std::string_view::npos) throw std::invalid_argument("empty value at position " + std::to_string(values.size()));
    item = item.substr(b, item.find_last_not_of(" \t") - b + 1);
    auto v = parse_value(type, item);
    if (!v) throw std::invalid_argument("'" + std::string(item) + "' is not " + (type == ValueType::I32 || type == ValueType::I64 || type == ValueType::Interval ? "an " : "a ") +
                                        std::string(type_name(type)) + " value");
    values.push_back(*v);
    start = comma + 1;
  }
  if (values.empty()) throw std::invalid_argument("no values given");
  return values;
}

Payload identity_of(OpKind op, ValueType type) {
  Payload out;
  if (!visit_op(op, type, [&](auto f) { out = Payload::of(f.identity()); })) check_op_type(op, type);
  return out;
}

Payload apply_op(OpKind op, ValueType type, const Payload& a, const Payload& b) {
  Payload out;
  if (!visit_op(op, type, [&](auto f) {
        using T = typename decltype(f)::value_type;
        out = Payload::of(f(a.as<T>(), b.as<T>()));
      }))
    check_op_type(op, type);
  return out;
}

bool values_match(ValueType type, const Payload& expected, const Payload& actual, std::size_t n_terms, double scale) {
  auto close = [n_terms, scale](auto e, auto a) {
    using T = decltype(e);
    if (std::isnan(e) || std::isnan(a)) return std::isnan(e) && std::isnan(a);
    if (std::isinf(e) || std::isinf(a)) return e == a;
    const double eps = static_cast<double>(std::numeric_limits<T>::epsilon()) * 4.0 * static_cast<double>(n_terms + 1);
    return std::fabs(static_cast<double>(e) - static_cast<double>(a)) <=
           eps * std::max({1.0, std::fabs(static_cast<double>(e)), scale});
  };
  switch (type) {
    case ValueType::I32: return expected.as<std::int32_t>() == actual.as<std::int32_t>();
    case ValueType::I64: return expected.as<std::int64_t>() == actual.as<std::int64_t>();
    case ValueType::F32: return close(expected.as<float>(), actual.as<float>());
    case ValueType::F64: return close(expected.as<double>(), actual.as<double>());
    case ValueType::Interval: return expected.as<Interval>() == actual.as<Interval>();
  }
  return false;
}

std::vector<std::int64_t> mismatches(OpKind op, ValueType type, const std::vector<Payload>& input, bool exclusive,
                                     const std::vector<Payload>& reference, const std::vector<Payload>& output,
                                     const std::vector<std::uint8_t>& flags) {
  std::vector<std::int64_t> wrong;
  double abs_sum = 0;  // sum of |x| over the terms of element i, for sums of floating point values
  const bool floating_sum = op == OpKind::Sum && (type == ValueType::F32 || type == ValueType::F64);
  std::size_t head = 0;  // the segment's first element: terms and their scale restart there
  for (std::size_t i = 0; i < reference.size(); ++i) {
    if (i < flags.size() && flags[i]) head = i, abs_sum = 0;
    if (floating_sum && exclusive && i > 0) abs_sum += std::fabs(type == ValueType::F32 ? input[i - 1].as<float>() : input[i - 1].as<double>());
    if (floating_sum && !exclusive && i < input.size()) abs_sum += std::fabs(type == ValueType::F32 ? input[i].as<float>() : input[i].as<double>());
    if (i >= output.size() || !values_match(type, reference[i], output[i], i - head + 1, abs_sum))
      wrong.push_back(static_cast<std::int64_t>(i));
  }
  return wrong;
}

std::vector<Payload> reference_scan(OpKind op, ValueType type, const std::vector<Payload>& input, bool exclusive,
                                    const std::vector<std::uint8_t>& flags) {
  if (!flags.empty() && flags.size() != input.size())
    throw std::invalid_argument(std::to_string(flags.size()) + " segment flags for " + std::to_string(input.size()) +
                                " values");
  std::vector<Payload> out(input.size());
  const Payload identity = identity_of(op, type);
  Payload acc = identity;
  for (std::size_t i = 0; i < input.size(); ++i) {
    if (!flags.empty() && flags[i]) acc = identity;
    if (exclusive) {
      out[i] = acc;
      acc = apply_op(op, type, acc, input[i]);
    } else {
      acc = apply_op(op, type, acc, input[i]);
      out[i] = acc;
    }
  }
  return out;
}

namespace {
// Bitwise inputs: bitand clears one random bit per element and bitor sets one, so the running result
// loses or gains bits gradually; bitxor takes random bits over the whole width.
Payload random_bits(OpKind op, ValueType type, std::uint64_t r) {
  const unsigned width = type == ValueType::I64 ? 64 : 32;
  const std::uint64_t bit = std::uint64_t{1} << ((r >> 32) % width);
  const std::uint64_t bits = op == OpKind::BitAnd ? ~bit : op == OpKind::BitOr ? bit : r;
  return type == ValueType::I64 ? Payload::of(static_cast<std::int64_t>(bits))
                                : Payload::of(static_cast<std::int32_t>(static_cast<std::uint32_t>(bits)));
}
}  // namespace

std::vector<Payload> random_input(OpKind op, ValueType type, std::size_t n, std::uint64_t seed) {
  check_op_type(op, type);
  std::mt19937_64 rng(seed);
  std::vector<Payload> out(n);
  auto of_number = [type](double v) {
    switch (type) {
      case ValueType::I32: return Payload::of(static_cast<std::int32_t>(v));
      case ValueType::I64: return Payload::of(static_cast<std::int64_t>(v));
      case ValueType::F32: return Payload::of(static_cast<float>(v));
      default: return Payload::of(v);
    }
  };
  const bool floating = type == ValueType::F32 || type == ValueType::F64;
  int exponent = 0;  // products: a bounded walk of powers of two keeps every partial product exact
  for (std::size_t i = 0; i < n; ++i) {
    switch (op) {
      case OpKind::Sum: out[i] = of_number(static_cast<double>(static_cast<int>(rng() % 19) - 9)); break;
      case OpKind::Product:
        if (floating) {
          int step = static_cast<int>(rng() % 3) - 1;
          if (exponent + step > 20 || exponent + step < -20) step = -step;
          exponent += step;
          double sign = rng() % 8 == 0 ? -1.0 : 1.0;
          out[i] = of_number(sign * std::ldexp(1.0, step));
        } else {
          static constexpr int kFactors[] = {-3, -2, -1, 1, 2, 3, 5, 7};
          out[i] = of_number(kFactors[rng() % 8]);
        }
        break;
      case OpKind::Min:
      case OpKind::Max:
        out[i] = of_number(static_cast<double>(static_cast<std::int64_t>(rng() % 2000001) - 1000000) /
                           (floating ? 64.0 : 1.0));
        break;
      case OpKind::Interval: out[i] = Payload::of(Interval::single(static_cast<std::int32_t>(i))); break;
      // Truth values mostly the identity, so the scan's result changes somewhere in the middle.
      case OpKind::And: out[i] = of_number(rng() % 16 == 0 ? 0 : 1); break;
      case OpKind::Or: out[i] = of_number(rng() % 16 == 0 ? 1 : 0); break;
      default: out[i] = random_bits(op, type, rng()); break;
    }
  }
  return out;
}

std::vector<Payload> slides_input(OpKind op, ValueType type, std::size_t n) {
  check_op_type(op, type);
  static constexpr int kSlides[] = {3, 6, 7, 4, 8, 2, 1, 9};
  std::vector<Payload> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    int v = kSlides[i % 8];
    if (is_logical_op(op)) v %= 2;  // "is odd": 1 0 1 0 0 0 1 1
    switch (type) {
      case ValueType::I32: out[i] = Payload::of(static_cast<std::int32_t>(v)); break;
      case ValueType::I64: out[i] = Payload::of(static_cast<std::int64_t>(v)); break;
      case ValueType::F32: out[i] = Payload::of(static_cast<float>(v)); break;
      case ValueType::F64: out[i] = Payload::of(static_cast<double>(v)); break;
      case ValueType::Interval: out[i] = Payload::of(Interval::single(static_cast<std::int32_t>(i))); break;
    }
  }
  return out;
}

}  // namespace sv
