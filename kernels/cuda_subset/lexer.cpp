// Characters to tokens (lexer.hpp): comments and line continuations dropped, identifiers, numbers
// with their suffixes, string and character literals, punctuators. A character no token starts with,
// and an unterminated literal, become a one-character token the preprocessor refuses only where it
// is not skipped (`#if 0` around prose is common).
#include "cuda_subset/lexer.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace sv::cuda {

namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

constexpr std::string_view kPuncts[] = {"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
                                        "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "::", "##",
                                        "(", ")", "[", "]", "{", "}", ";", ",", "+", "-", "*", "/", "%", "<",
                                        ">", "=", "!", "~", "&", "|", "^", "?", ":", ".", "#"};

class Tokenizer {
 public:
  Tokenizer(std::string_view src, const std::string& file, std::uint16_t index) : src_(src), file_(file), index_(index) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    bool line_start = true;
    while (true) {
      skip_space_and_comments(line_start);
      if (pos_ >= src_.size()) break;
      Token t = next();
      t.line_start = line_start;
      line_start = false;
      out.push_back(std::move(t));
      if (out.size() > 4 * kMaxTokens)
        fail("limit", out.back().pos, "more than " + std::to_string(4 * kMaxTokens) + " tokens: a file this long is refused");
    }
    return out;
  }

 private:
  [[noreturn]] void fail(const char* kind, SrcPos at, const std::string& what) const { throw KernelError(kind, file_, at, what); }

  SrcPos here() const { return {line_, static_cast<std::uint32_t>(pos_ - line_begin_ + 1), index_}; }
  char peek(std::size_t ahead = 0) const { return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0'; }
  void advance() {
    if (src_[pos_] == '\n') {
      ++line_;
      line_begin_ = pos_ + 1;
    }
    ++pos_;
  }

  void skip_space_and_comments(bool& line_start) {
    while (pos_ < src_.size()) {
      const char c = src_[pos_];
      if (c == '\\' && (peek(1) == '\n' || (peek(1) == '\r' && peek(2) == '\n'))) {  // a line continuation
        if (peek(1) == '\r') advance();
        advance();
        advance();
      } else if (c == '\n') {
        line_start = true;
        advance();
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        advance();
      } else if (c == '/' && peek(1) == '/') {
        while (pos_ < src_.size() && src_[pos_] != '\n') {
          if (src_[pos_] == '\\' && peek(1) == '\n') advance();  // a // comment continued
          advance();
        }
      } else if (c == '/' && peek(1) == '*') {
        const SrcPos at = here();
        advance();
        advance();
        while (pos_ < src_.size() && !(src_[pos_] == '*' && peek(1) == '/')) advance();
        if (pos_ >= src_.size()) fail("syntax", at, "unterminated /* comment");
        advance();
        advance();
      } else {
        return;
      }
    }
  }

  Token next() {
    Token t;
    t.pos = here();
    const char c = src_[pos_];
    if ((c == 'u' || c == 'U' || c == 'L') && (peek(1) == '"' || peek(1) == '\'')) advance();  // u"", L'' prefixes
    else if (c == 'u' && peek(1) == '8' && peek(2) == '"') {
      advance();
      advance();
    }
    if (src_[pos_] == '"' || src_[pos_] == '\'') return literal(t);
    if (ident_start(c)) {
      const std::size_t b = pos_;
      while (pos_ < src_.size() && ident_char(src_[pos_])) advance();
      t.kind = Tok::Ident;
      t.text = std::string(src_.substr(b, pos_ - b));
      return t;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))) return number(t);
    for (std::string_view p : kPuncts)
      if (src_.substr(pos_, p.size()) == p) {
        for (std::size_t k = 0; k < p.size(); ++k) advance();
        t.kind = Tok::Punct;
        t.text = std::string(p);
        return t;
      }
    t.kind = Tok::Punct;  // no token starts here: refused where it is not skipped
    t.text = std::string(1, c);
    advance();
    return t;
  }

  // A string or character literal; unterminated on its line, the quote alone (refused where used).
  Token literal(Token& t) {
    const char quote = src_[pos_];
    const std::size_t b = pos_;
    advance();
    std::string value;
    while (pos_ < src_.size() && src_[pos_] != quote && src_[pos_] != '\n') {
      if (src_[pos_] == '\\' && pos_ + 1 < src_.size()) {
        advance();
        value += escape();
        continue;
      }
      value += src_[pos_];
      advance();
    }
    if (pos_ >= src_.size() || src_[pos_] != quote) {
      t.kind = Tok::Punct;
      t.text = std::string(1, quote);
      t.string_value = "unterminated";
      return t;
    }
    advance();
    t.text = std::string(src_.substr(b, pos_ - b));
    if (quote == '"') {
      t.kind = Tok::String;
      t.string_value = std::move(value);
      return t;
    }
    t.kind = Tok::Int;  // 'a': an int of the character's value
    if (value.empty()) fail("syntax", t.pos, "an empty character literal ''");
    t.int_value = static_cast<unsigned char>(value[0]);
    return t;
  }

  char escape() {
    const char e = src_[pos_];
    advance();
    switch (e) {
      case 'n': return '\n';
      case 't': return '\t';
      case 'r': return '\r';
      case '0': return '\0';
      case 'a': return '\a';
      case 'b': return '\b';
      case 'f': return '\f';
      case 'v': return '\v';
      default: return e;  // \\ \" \' \?
    }
  }

  Token number(Token& t) {
    const std::size_t b = pos_;
    bool is_float = false, is_hex = false;
    if (src_[pos_] == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
      is_hex = true;
      advance();
      advance();
      while (pos_ < src_.size() && std::isxdigit(static_cast<unsigned char>(src_[pos_]))) advance();
    } else {
      while (pos_ < src_.size() && (std::isdigit(static_cast<unsigned char>(src_[pos_])) || src_[pos_] == '.')) {
        is_float |= src_[pos_] == '.';
        advance();
      }
      if (peek() == 'e' || peek() == 'E') {
        is_float = true;
        advance();
        if (peek() == '+' || peek() == '-') advance();
        while (pos_ < src_.size() && std::isdigit(static_cast<unsigned char>(src_[pos_]))) advance();
      }
    }
    const std::string body(src_.substr(b, pos_ - b));
    t.text = body;
    if (is_float) {
      t.kind = Tok::Float;
      char* end = nullptr;
      t.float_value = std::strtod(body.c_str(), &end);
      if (end != body.c_str() + body.size() || !std::isfinite(t.float_value)) fail("syntax", t.pos, "malformed number '" + body + "'");
      if (peek() == 'f' || peek() == 'F') {
        t.float_suffix = true;
        advance();
      } else if (peek() == 'l' || peek() == 'L') {
        advance();  // long double: read as double
      }
    } else {
      t.kind = Tok::Int;
      errno = 0;
      char* end = nullptr;
      t.int_value = std::strtoull(body.c_str() + (is_hex ? 2 : 0), &end, is_hex ? 16 : 10);
      if (errno != 0 || (is_hex && body.size() == 2)) fail("unsupported", t.pos, "integer literal '" + body + "' does not fit 64 bits");
      // Suffixes in any order: u, l, ll.
      for (int k = 0; k < 3 && (peek() == 'u' || peek() == 'U' || peek() == 'l' || peek() == 'L'); ++k) {
        if (peek() == 'u' || peek() == 'U') t.unsigned_suffix = true;
        else {
          t.long_suffix = true;
          if (peek(1) == 'l' || peek(1) == 'L') advance();
        }
        advance();
      }
      if (is_hex && t.int_value > 0x7fffffffull && t.int_value <= 0xffffffffull) t.unsigned_suffix = true;  // as C types a large hex literal
    }
    if (ident_char(peek())) fail("unsupported", t.pos, "literal suffix '" + std::string(1, peek()) + "' on '" + body + "'");
    return t;
  }

  std::string_view src_;
  const std::string& file_;
  std::uint16_t index_;
  std::size_t pos_ = 0;
  std::uint32_t line_ = 1;
  std::size_t line_begin_ = 0;
};

}  // namespace

std::vector<Token> tokenize(std::string_view source, const std::string& file, std::uint16_t file_index) {
  for (char c : source)
    if (c == '\0') throw KernelError("syntax", file, {1, 1, file_index}, "the source holds a NUL byte: not a text file");
  return Tokenizer(source, file, file_index).run();
}

}  // namespace sv::cuda
