// printf's formatting for a kernel's printf (the lines go to the report card and the trace, not the
// terminal): the C conversions %d %i %u %x %X %o %c %e %f %g %a %s %p %%, with flags, width,
// precision and length modifiers, each taking the next argument as its type says.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sv::cuda {

struct PrintfArg {
  bool floating = false;
  bool pointer = false;  // a string or a pointer: the subset keeps no characters, so %s prints "(string)"
  std::int64_t i = 0;
  double f = 0;
};

// The line `format` prints with `args` (a missing argument prints as 0; at most 4096 characters).
std::string format_printf(const std::string& format, const std::vector<PrintfArg>& args);

}  // namespace sv::cuda
