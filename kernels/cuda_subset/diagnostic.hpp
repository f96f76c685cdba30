// Errors in a kernel's source and in its run: one line, clang-style, naming the file, the line, the
// column and the construct ("kernel.cu:12:5: error: ..."), and the kind `scanviz check` reports.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace sv::cuda {

// A position in the source: `file` indexes the files the preprocessor read (0: the file given; an
// #include "local.h" gets the next index), line and column count from 1.
struct SrcPos {
  std::uint32_t line = 0;
  std::uint32_t col = 0;
  std::uint16_t file = 0;
};

// kind: "syntax" (not C), "unsupported" (C outside the subset), "limit" (a budget of an untrusted
// source: size, nesting), and at run time "out-of-bounds", "uninitialized-read", "barrier-divergence",
// "budget" (steps or memory) or "runtime" (division by zero and the like).
struct KernelError : std::runtime_error {
  KernelError(std::string kind_, std::string file_, SrcPos pos_, const std::string& message_)
      : std::runtime_error(file_ + ":" + std::to_string(pos_.line) + ":" + std::to_string(pos_.col) + ": error: " + message_),
        kind(std::move(kind_)), file(std::move(file_)), pos(pos_), message(message_) {}
  std::string kind;
  std::string file;
  SrcPos pos;
  std::string message;
  // The source's further errors, in order, as a compiler lists them (the parser reads on past an
  // error in a statement or at file scope); what() is the first's line only.
  std::vector<KernelError> more;
};

}  // namespace sv::cuda
