// The float lesson's named inputs (--input scaled, uniform, mixed, cancel): values whose sums round
// differently in each order of addition, so Kogge-Stone, Brent-Kung and the sequential loop give
// different bits. Floating-point types only.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/ops.hpp"
#include "core/payload.hpp"

namespace sv {

// scaled, uniform, mixed, cancel: in this order (the window's input combo lists them so).
std::span<const std::string_view> float_input_names();
// "scaled, uniform, mixed or cancel".
std::string_view float_input_names_text();
bool is_float_input_name(std::string_view name);

// The large value of `mixed` and `cancel`: 1e8 for float (its ulp is 8, so 1e8 + 1 rounds back to
// 1e8), 1e17 for double (ulp 16).
double float_input_big(ValueType type);

// The named input of length n (nullopt for a name not listed). Throws std::invalid_argument for an
// integer or interval type, whose sums are exact whatever the order:
//   scaled:  the slides' 3 6 7 4 8 2 1 9 times 0.1 (0.3 0.6 ...: none of them exact in binary)
//   uniform: seeded values uniform in [0, 1), each a whole multiple of 2^-24 (float) or 2^-53 (double)
//   mixed:   big, then 1s (1e8 1 1 1 ... for float): the loop adds each 1 to big and loses it, a tree
//            adds 1s together first
//   cancel:  big, 1, -big, 1, repeated: the sums rise to big and fall back to a few 1s
std::optional<std::vector<Payload>> float_input(std::string_view name, ValueType type, std::size_t n, std::uint64_t seed);

}  // namespace sv
