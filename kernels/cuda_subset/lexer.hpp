// The tokens of a kernel's file after preprocessing: its macros expanded, its conditional groups
// chosen, its local includes read (preprocessor.cpp); the characters to tokens (lexer.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuda_subset/diagnostic.hpp"

namespace sv::cuda {

enum class Tok : std::uint8_t { Ident, Int, Float, String, Punct, End };

struct Token {
  Tok kind = Tok::End;
  std::string text;   // identifier, punctuator, or the literal as written
  SrcPos pos;
  std::uint64_t int_value = 0;  // Int: the value (a character literal's too); unsigned_suffix says `u`
  bool unsigned_suffix = false;
  bool long_suffix = false;     // `l` or `ll`
  double float_value = 0;       // Float: the value; float_suffix says `f`
  bool float_suffix = false;
  std::string string_value;     // String: the characters, escapes decoded
  bool line_start = false;      // the first token of its line (a directive's `#`)
};

// What an untrusted source may cost before the front end refuses it.
inline constexpr std::size_t kMaxSourceBytes = 256 * 1024;  // the file and its includes
inline constexpr std::size_t kMaxTokens = 100000;           // after macro expansion
inline constexpr int kMaxIncludeDepth = 16;
inline constexpr int kMaxConditionalDepth = 64;
inline constexpr int kMaxExpansionDepth = 256;

// Reads an #include "name" from `including_file`: its text, or nullopt when there is no such file.
using IncludeReader = std::function<std::optional<std::string>(const std::string& name, const std::string& including_file)>;

struct Lexed {
  std::vector<Token> tokens;                  // ends with one End token
  std::map<std::string, SrcPos> macros;       // each #define of the file (and its includes): name and where
  std::vector<std::string> files;             // by SrcPos::file: the file, then each file it included
};

// The tokens of one file's text, unexpanded, each with its position in file `file_index` (named
// `file` in errors). Throws KernelError.
std::vector<Token> tokenize(std::string_view source, const std::string& file, std::uint16_t file_index);

// Preprocesses `source` (named `file` in errors) and lexes it. `overrides` replaces the bodies of
// object-like macros the file defines (the block size: BLOCK_DIM=8); `include` reads #include "x.h".
// Throws KernelError (kind "syntax", "unsupported" or "limit").
Lexed lex(std::string_view source, const std::string& file, const std::map<std::string, std::string>& overrides = {},
          const IncludeReader& include = {});

}  // namespace sv::cuda
