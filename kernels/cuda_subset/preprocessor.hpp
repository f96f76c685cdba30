// Inside the front end: the preprocessing tokens the lexer (lexer.cpp) makes of a file's characters
// and the preprocessor (preprocessor.cpp) expands, and the conversion of the survivors into the
// parser's tokens (lexer.hpp). Not for use outside cuda_subset/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuda_subset/lexer.hpp"

namespace sv::cuda::pp {

// A preprocessing token. Numbers and literals stay text until they reach the parser or an #if: a
// malformed one in a macro nobody uses, or in a skipped group, is no error (as in C).
enum class PK : std::uint8_t { Ident, Number, String, Char, Punct, Other, Placemarker };

struct PPToken {
  std::string text;      // as written (a literal with its quotes and prefix)
  SrcPos pos;            // where written; a macro's own tokens take the position of the macro's use
  PK kind = PK::Other;
  bool space = false;    // blank space or a line break before it (# keeps one blank there)
  bool painted = false;  // named a macro while that macro was being expanded: never expanded again
};

inline bool is_punct(const PPToken& t, std::string_view p) { return t.kind == PK::Punct && t.text == p; }

// A file's characters, line continuations spliced out, read a logical line at a time. Positions are
// those of the characters as written (line, column, file index).
class Scanner {
 public:
  Scanner(std::string_view text, std::string name, std::uint16_t file);

  const std::string& name() const { return name_; }
  std::uint16_t file() const { return file_; }
  bool at_end() const { return pos_ >= text_.size(); }

  // At the start of a line: skips blanks and comments; true when the line begins with '#'.
  bool at_directive();
  // Consumes the '#' at_directive found; its position.
  SrcPos take_hash();

  // A directive's name after '#': an identifier, "0" for a line marker (# 12 "f.cu"), "" for a line
  // with nothing more, or the one character that follows.
  std::string directive_name();

  // The tokens of the rest of the logical line, appended to `out`; the line break is consumed.
  void read_line(std::vector<PPToken>& out);
  // The tokens of all the rest (an override's text).
  void read_all(std::vector<PPToken>& out);
  // Skips the rest of the line without making tokens: a skipped group may hold unbalanced quotes.
  void skip_line();
  // The rest of the line as written, comments dropped, trimmed (#error's message).
  std::string raw_line();

  // After #include: a "name" (quote '"') or <name> (quote '<') as written, or nullopt when the line
  // holds something else (macros to expand); on success the line is consumed.
  std::optional<std::pair<char, std::string>> header_name();

  // The one token `text` spells exactly (the result of ##), or nullopt.
  static std::optional<PPToken> one_token(const std::string& text);

 private:
  [[noreturn]] void fail(const char* kind, SrcPos at, const std::string& what) const;
  SrcPos here() const;
  char peek(std::size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }
  bool skip_blank();  // blanks and comments up to a line break; true when it skipped any
  void skip_block_comment();
  PPToken token();
  void literal(PPToken& t, std::size_t start);  // start: the prefix's first character
  void pp_number(PPToken& t);

  std::string text_;                        // spliced
  std::vector<std::uint32_t> line_starts_;  // where each written line begins in text_
  std::string name_;
  std::uint16_t file_;
  std::size_t pos_ = 0;
};

// A number's value and suffixes (`file`: for errors). Throws KernelError for a malformed one.
struct Number {
  bool is_float = false;
  std::uint64_t int_value = 0;
  double float_value = 0;
  bool u = false, l = false, f = false;  // suffixes
  bool decimal = true;                   // not hex, octal or binary (C types the others differently)
};
Number number_value(const PPToken& t, const std::string& file);

// The value of a character literal ('a', '\n', L'x'), as C's int for an unprefixed one.
std::int64_t char_value(const PPToken& t, const std::string& file);

// The parser's token for a preprocessing token that survived preprocessing. Throws for a stray
// character, a malformed number or literal.
Token to_token(const PPToken& t, const std::string& file);

// A token's text for a message: control characters and bytes outside ASCII as \xNN.
std::string shown(std::string_view text);

// What an #if expression asks of the preprocessor around it; the evaluator is pp_condition.cpp.
class ConditionHost {
 public:
  virtual ~ConditionHost() = default;
  [[noreturn]] virtual void fail(const char* kind, SrcPos at, const std::string& what) const = 0;
  virtual const std::string& file_name(SrcPos at) const = 0;
  // The index of the token that ends `defined X` or `defined(X)` starting at t[k].
  virtual std::size_t defined_operand(const std::vector<PPToken>& t, std::size_t k) const = 0;
  virtual bool is_defined(const std::string& name) const = 0;
  virtual bool has_include(const std::string& name, SrcPos at) const = 0;
};

// The value of an #if line's expression (macros expanded, `defined` kept) as a condition. Throws
// KernelError through host.fail.
bool evaluate_condition(const ConditionHost& host, const std::vector<PPToken>& expr);

}  // namespace sv::cuda::pp
