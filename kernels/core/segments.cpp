// Segment flags on the host: parsing, seeded random flags, and packing into (value, flag) pairs.
#include "core/segments.hpp"

#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>

#include "core/segmented.hpp"
#include "core/values.hpp"

namespace sv {

std::vector<std::uint8_t> parse_flag_list(std::string_view text) {
  std::vector<std::uint8_t> flags;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    std::string_view item = text.substr(start, comma - start);
    const auto b = item.find_first_not_of(" \t");
    if (b == std::string_view::npos) throw std::invalid_argument("empty flag at position " + std::to_string(flags.size()));
    item = item.substr(b, item.find_last_not_of(" \t") - b + 1);
    if (item != "0" && item != "1")
      throw std::invalid_argument("flag '" + std::string(item) + "' at position " + std::to_string(flags.size()) +
                                  " is not 0 or 1");
    flags.push_back(item == "1" ? 1 : 0);
    start = comma + 1;
  }
  return flags;
}

std::vector<std::uint8_t> random_flags(std::size_t n, double density, std::uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 17);
  std::vector<std::uint8_t> flags(n);
  for (std::size_t i = 0; i < n; ++i) flags[i] = i == 0 || static_cast<double>(rng() >> 11) * 0x1.0p-53 < density;
  return flags;
}

std::vector<std::uint8_t> flags_from_option(std::string_view text, std::size_t n, std::uint64_t seed) {
  if (text.rfind("random:", 0) == 0) {
    const std::string d(text.substr(7));
    char* end = nullptr;
    const double density = std::strtod(d.c_str(), &end);
    if (d.empty() || *end != '\0' || !(density >= 0 && density <= 1))
      throw std::invalid_argument("the density in '" + std::string(text) + "' is not a number from 0 to 1");
    return random_flags(n, density, seed);
  }
  std::vector<std::uint8_t> flags = parse_flag_list(text);
  if (flags.size() != n)
    throw std::invalid_argument(std::to_string(flags.size()) + " flags for " + std::to_string(n) +
                                " values: give one flag per element");
  return flags;
}

std::vector<Payload> pack_segmented(ValueType type, const std::vector<Payload>& values,
                                    const std::vector<std::uint8_t>& flags) {
  if (flags.size() != values.size())
    throw std::invalid_argument(std::to_string(flags.size()) + " segment flags for " + std::to_string(values.size()) +
                                " values");
  std::vector<Payload> pairs(values.size());
  visit_value_type(type, [&](auto t) {
    using T = decltype(t);
    for (std::size_t i = 0; i < values.size(); ++i)
      pairs[i] = Payload::of(Seg<T>{values[i].as<T>(), static_cast<SegFlag<T>>(flags[i] ? 1 : 0)});
  });
  return pairs;
}

std::vector<Payload> unpack_segmented(ValueType type, const std::vector<Payload>& pairs) {
  std::vector<Payload> values(pairs.size());
  visit_value_type(type, [&](auto t) {
    using T = decltype(t);
    for (std::size_t i = 0; i < pairs.size(); ++i) values[i] = Payload::of(pairs[i].as<Seg<T>>().v);
  });
  return values;
}

std::string segmented_gpu_type_error(ValueType type) {
  return "flags: the GPU's segmented kernels are built for int32 (every operator) and interval values, not " +
         std::string(type_name(type)) + " (executor emulator runs every type)";
}

bool segment_flag(ValueType type, const Payload& pair) {
  bool set = false;
  visit_value_type(type, [&](auto t) { set = pair.as<Seg<decltype(t)>>().flag != 0; });
  return set;
}

}  // namespace sv
