// A launch said the way a CUDA programmer says it: `scan<<<(n + 255) / 256, 256, 512 * sizeof(float)>>>(in,
// out, n)`. GRID, BLOCK and SHARED_BYTES are expressions in n (the case's size) with sizeof; the
// arguments name what scanviz provides (docs/cli.md): in, out, io, sums, zeros(K), buf(K), n, numbers,
// true and false.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace sv {

// A launch that cannot be read or evaluated; the message quotes at most a short piece of it.
struct LaunchError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

struct LaunchArg {
  enum Kind { In, Out, Io, Sums, Zeros, Buf, Number } kind = Number;
  std::string cells;  // Zeros, Buf: K, an expression in n
  double number = 0;  // Number (true and false are 1 and 0; `n` is the expression "n")
  std::string expr;   // Number: an expression in n (empty when `number` is the value)
};

struct LaunchSpec {
  std::string kernel;                      // the __global__ function launched
  std::vector<std::string> template_args;  // scan<float, 256>: as written
  std::string grid, block, shared;         // expressions in n; shared may be empty (0 bytes)
  bool host = false;                       // NAME(ARGS): a host function of the file that launches the kernels
  std::vector<LaunchArg> args;
  std::string text;                        // the launch as given, for the card
};

// Reads `text`: NAME[<TARGS>]<<<GRID, BLOCK[, SHARED]>>>(ARGS), or NAME(ARGS) for a host function of
// the file that allocates, copies and launches as its code says. Throws LaunchError.
LaunchSpec parse_launch(const std::string& text);

// The value of a launch expression for a case of n values: integers, n, sizeof(TYPE), + - * / % << >>,
// comparisons, ?:, parentheses, min and max. Throws LaunchError (a division by zero, a value outside
// 64 bits).
std::int64_t eval_launch_expr(const std::string& expr, std::int64_t n);

// The entry the parser takes for it: the kernel or host function, with its template arguments
// (`scan<float, 256>`).
std::string launch_entry(const LaunchSpec& l);

// The launch as a line a student can copy and edit.
std::string launch_text(const LaunchSpec& l);

}  // namespace sv
