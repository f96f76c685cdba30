// The front end of the CUDA subset: one __global__ kernel parsed by recursive descent (the grammar is
// in docs/kernel-subset.md), its names resolved and its expressions typed as it is read.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "cuda_subset/ast.hpp"

namespace sv::cuda {

// Deepest nesting a kernel may have: statements inside statements, and an expression's tree (the
// compiler recurses on them, and an expression's depth bounds the interpreter's operand stack); and the
// parser's own recursion.
inline constexpr int kMaxStatementNesting = 16;
inline constexpr int kMaxExpressionDepth = 24;
inline constexpr int kMaxParseDepth = 200;

// Parses `source` (named `file` in messages); `overrides` replaces #define bodies (BLOCK_DIM=8).
// Throws KernelError: kind "syntax", "unsupported" or "limit".
Kernel parse_kernel(std::string_view source, const std::string& file, const std::map<std::string, std::string>& overrides = {});

// The names of the #define macros in `source` (no parse; empty on a lexer error).
std::map<std::string, SrcPos> defined_macros(std::string_view source, const std::string& file);

}  // namespace sv::cuda
