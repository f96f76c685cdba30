// The tokens of a kernel file after its object-like #define macros are expanded.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cuda_subset/diagnostic.hpp"

namespace sv::cuda {

enum class Tok : std::uint8_t { Ident, Int, Float, Punct, End };

struct Token {
  Tok kind = Tok::End;
  std::string text;   // identifier, punctuator, or the literal as written
  SrcPos pos;
  std::uint64_t int_value = 0;  // Int: the value; unsigned_suffix says `u`
  bool unsigned_suffix = false;
  double float_value = 0;       // Float: the value; float_suffix says `f`
  bool float_suffix = false;
};

// What an untrusted source may cost before the front end refuses it.
inline constexpr std::size_t kMaxSourceBytes = 256 * 1024;
inline constexpr std::size_t kMaxTokens = 100000;

struct Lexed {
  std::vector<Token> tokens;                  // ends with one End token
  std::map<std::string, SrcPos> macros;       // each #define's name and where
};

// Lexes `source` (named `file` in errors). `overrides` replaces the bodies of macros the file defines
// (the block size: BLOCK_DIM=8). Throws KernelError.
Lexed lex(std::string_view source, const std::string& file, const std::map<std::string, std::string>& overrides = {});

}  // namespace sv::cuda
