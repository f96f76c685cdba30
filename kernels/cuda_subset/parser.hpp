// The front end: a whole .cu file read by recursive descent (what is read is in docs/kernel-subset.md),
// its host code skipped, one __global__ kernel returned as the entry with the file's __device__
// functions, its names resolved and its expressions typed as it is read.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "cuda_subset/ast.hpp"
#include "cuda_subset/lexer.hpp"

namespace sv::cuda {

// Deepest nesting a kernel may have: statements inside statements, and an expression's tree (the
// compiler recurses on them, and an expression's depth bounds the interpreter's operand stack); and the
// parser's own recursion.
inline constexpr int kMaxStatementNesting = 16;
inline constexpr int kMaxExpressionDepth = 24;
inline constexpr int kMaxParseDepth = 200;
inline constexpr std::int64_t kMaxLocalArray = 256;  // cells of one thread's own array (its frame's slots)

// Parses `source` (named `file` in messages); `overrides` replaces #define bodies (BLOCK_DIM=8);
// `entry` names the kernel returned (empty: the file's only one); `include` reads an #include "x.h".
// Throws KernelError: kind "syntax", "unsupported" or "limit".
Kernel parse_kernel(std::string_view source, const std::string& file, const std::map<std::string, std::string>& overrides = {},
                    const std::string& entry = {}, const IncludeReader& include = {});

// The host functions of `source` (not main) that launch kernels and whose parameters scanviz can bind,
// each as a --launch line (`scan_gpu(in, out, n)`); empty where the file cannot be read.
std::vector<std::string> host_launches(std::string_view source, const std::string& file, const IncludeReader& include = {});

// The names of the #define macros in `source` (no parse; empty on a lexer error).
std::map<std::string, SrcPos> defined_macros(std::string_view source, const std::string& file, const IncludeReader& include = {});

}  // namespace sv::cuda
