// The float lesson's named inputs (float_inputs.hpp).
#include "core/float_inputs.hpp"

#include <array>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include "core/values.hpp"

namespace sv {

namespace {
constexpr std::array<std::string_view, 4> kNames = {"scaled", "uniform", "mixed", "cancel"};
}

std::span<const std::string_view> float_input_names() { return kNames; }

std::string_view float_input_names_text() { return "scaled, uniform, mixed or cancel"; }

bool is_float_input_name(std::string_view name) {
  for (std::string_view k : kNames)
    if (k == name) return true;
  return false;
}

double float_input_big(ValueType type) { return type == ValueType::F32 ? 1e8 : 1e17; }

std::optional<std::vector<Payload>> float_input(std::string_view name, ValueType type, std::size_t n, std::uint64_t seed) {
  if (!is_float_input_name(name)) return std::nullopt;
  const bool single = type == ValueType::F32;
  if (!single && type != ValueType::F64)
    throw std::invalid_argument("'" + std::string(name) + "' is an input of floats: its sums are exact in " +
                                std::string(type_name(type)) + " (use --type float or double)");
  const double big = float_input_big(type);
  std::mt19937_64 rng(seed);
  std::vector<Payload> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    static constexpr int kSlides[] = {3, 6, 7, 4, 8, 2, 1, 9};
    double v = 0;
    if (name == "scaled") v = kSlides[i % 8] / 10.0;
    else if (name == "uniform") v = single ? std::ldexp(static_cast<double>(rng() >> 40), -24) : std::ldexp(static_cast<double>(rng() >> 11), -53);
    else if (name == "mixed") v = i == 0 ? big : 1;
    else v = i % 4 == 0 ? big : i % 4 == 2 ? -big : 1;
    out[i] = single ? Payload::of(static_cast<float>(v)) : Payload::of(v);
  }
  return out;
}

}  // namespace sv
