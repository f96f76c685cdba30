// The tokens of a kernel's file after preprocessing: its directives obeyed (macros object- and
// function-like, conditional groups, local #includes) and its macros expanded (preprocessor.cpp);
// the characters to tokens in lexer.cpp.
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
  std::string text;   // identifier, punctuator, or the literal as written (suffix, quotes and prefix too)
  SrcPos pos;
  std::uint64_t int_value = 0;  // Int: the value (a character literal's too, as C's int)
  bool unsigned_suffix = false; // `u`, or a literal C types unsigned without one (0xffffffff)
  bool long_suffix = false;     // `l` or `ll`
  double float_value = 0;       // Float: the value; float_suffix says `f`
  bool float_suffix = false;
  std::string string_value;     // String: the characters, escapes decoded
};

// What an untrusted source may cost before the front end refuses it.
inline constexpr std::size_t kMaxSourceBytes = 256 * 1024;  // the file and all its includes
inline constexpr std::size_t kMaxTokens = 100000;           // after macro expansion
inline constexpr int kMaxIncludeDepth = 16;
inline constexpr int kMaxConditionalDepth = 64;             // #if inside #if
inline constexpr int kMaxExpansionDepth = 256;              // macro uses inside macro uses, #if expressions

// Reads an #include "name" met in `including_file`: its text, or nullopt when there is no such file.
using IncludeReader = std::function<std::optional<std::string>(const std::string& name, const std::string& including_file)>;

struct Lexed {
  std::vector<Token> tokens;              // ends with one End token
  std::map<std::string, SrcPos> macros;   // each macro the file (or an include) #defines: its first #define
  std::vector<std::string> files;         // by SrcPos::file: the file, then each #include "name" read, as written
};

// Preprocesses `source` (named `file` in errors) and lexes it. `overrides` replaces the bodies of
// object-like macros the file defines (the block size: BLOCK_DIM=8), even one under #ifndef;
// `include` reads #include "x.h" (without it every such include is not found). Throws KernelError
// (kind "syntax", "unsupported" or "limit") naming the file the position is in.
Lexed lex(std::string_view source, const std::string& file, const std::map<std::string, std::string>& overrides = {},
          const IncludeReader& include = {});

}  // namespace sv::cuda
