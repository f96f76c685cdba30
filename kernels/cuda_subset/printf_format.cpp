// A kernel's printf, formatted (cuda_subset/printf_format.hpp).
#include "cuda_subset/printf_format.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

namespace sv::cuda {

namespace {
constexpr std::size_t kMaxLine = 4096;
}  // namespace

std::string format_printf(const std::string& format, const std::vector<PrintfArg>& args) {
  std::string out;
  std::size_t next = 0;
  for (std::size_t p = 0; p < format.size() && out.size() < kMaxLine; ++p) {
    if (format[p] != '%') {
      out += format[p];
      continue;
    }
    // %[flags][width][.precision][length]conversion; '*' widths are read as written, not from arguments
    std::size_t q = p + 1;
    while (q < format.size() && std::strchr("-+ #0", format[q])) ++q;
    while (q < format.size() && (std::isdigit(static_cast<unsigned char>(format[q])) || format[q] == '.')) ++q;
    const std::size_t length_at = q;
    while (q < format.size() && std::strchr("hlLqjzt", format[q])) ++q;
    if (q >= format.size()) break;
    const char conversion = format[q];
    if (conversion == '%') {
      out += '%';
      p = q;
      continue;
    }
    const std::string flags = format.substr(p, length_at - p);  // '%' flags width precision, no length
    const PrintfArg a = next < args.size() ? args[next] : PrintfArg{};
    ++next;
    char buffer[512];
    int written = 0;
    if (std::strchr("diouxXc", conversion)) {
      const std::string spec = flags + "ll" + (conversion == 'c' ? 'd' : conversion);
      const long long v = a.floating ? static_cast<long long>(a.f) : a.i;
      written = conversion == 'c' ? std::snprintf(buffer, sizeof buffer, "%c", static_cast<char>(v))
                                  : std::snprintf(buffer, sizeof buffer, spec.c_str(), v);
    } else if (std::strchr("eEfFgGaA", conversion)) {
      const std::string spec = flags + conversion;
      written = std::snprintf(buffer, sizeof buffer, spec.c_str(), a.floating ? a.f : static_cast<double>(a.i));
    } else if (conversion == 's') {
      written = std::snprintf(buffer, sizeof buffer, "%s", "(string)");
    } else if (conversion == 'p') {
      written = std::snprintf(buffer, sizeof buffer, "%s", a.pointer ? "(pointer)" : "(nil)");
    } else {  // not a conversion: printed as written
      out += format.substr(p, q - p + 1);
      p = q;
      continue;
    }
    if (written > 0) out.append(buffer, std::min<std::size_t>(static_cast<std::size_t>(written), sizeof buffer - 1));
    p = q;
  }
  if (out.size() > kMaxLine) out.resize(kMaxLine);
  return out;
}

}  // namespace sv::cuda
