// std::from_chars and std::to_chars, also for floating point where the standard library lacks them:
// libc++ before 17, which the WebAssembly build's Emscripten (3.1.6, Debian 12) ships. There strtold
// parses, held to from_chars' grammar (no leading space or '+', no hexadecimal), and printf's %g
// writes the shortest text that reads back as the same value.
#pragma once

#include <cerrno>
#include <cstdio>
#include <limits>
#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <string>
#include <system_error>
#include <type_traits>

namespace sv {

template <class T>
std::from_chars_result from_chars(const char* first, const char* last, T& value) {
#if defined(_LIBCPP_VERSION) && _LIBCPP_VERSION < 170000
  if constexpr (std::is_floating_point_v<T>) {
    const std::string text(first, last);
    const bool foreign = text.empty() || text[0] == '+' || text.find_first_of(" \t\n\v\f\rxX") != std::string::npos;
    char* end = nullptr;
    errno = 0;
    const long double parsed = foreign ? 0 : std::strtold(text.c_str(), &end);
    if (foreign || end == text.c_str()) return {first, std::errc::invalid_argument};
    const char* stop = first + (end - text.c_str());
    if (errno == ERANGE || parsed > std::numeric_limits<T>::max() || parsed < std::numeric_limits<T>::lowest())
      return {stop, std::errc::result_out_of_range};
    value = static_cast<T>(parsed);
    return {stop, std::errc()};
  } else
#endif
    return std::from_chars(first, last, value);
}

template <class T>
std::to_chars_result to_chars(char* first, char* last, T value) {
#if defined(_LIBCPP_VERSION) && _LIBCPP_VERSION < 170000
  if constexpr (std::is_floating_point_v<T>) {
    char text[64];
    int length = 0;
    for (int digits = 1; digits <= 17; ++digits) {
      length = std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(value));
      if (static_cast<T>(std::strtod(text, nullptr)) == value) break;
    }
    if (length > last - first) return {last, std::errc::value_too_large};
    std::copy(text, text + length, first);
    return {first + length, std::errc()};
  } else
#endif
    return std::to_chars(first, last, value);
}

}  // namespace sv
