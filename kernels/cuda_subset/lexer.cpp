// The lexer and the small preprocessor of the CUDA subset: comments, #define NAME TOKENS (object-like,
// expanded where used), #include and #pragma lines skipped; every other directive is refused.
#include "cuda_subset/lexer.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>

namespace sv::cuda {

namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

constexpr std::string_view kPuncts[] = {"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
                                        "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "::",
                                        "(", ")", "[", "]", "{", "}", ";", ",", "+", "-", "*", "/", "%", "<",
                                        ">", "=", "!", "~", "&", "|", "^", "?", ":", ".", "#"};

class Lexer {
 public:
  Lexer(std::string_view src, const std::string& file) : src_(src), file_(file) {}

  [[noreturn]] void fail(const char* kind, SrcPos at, const std::string& what) const { throw KernelError(kind, file_, at, what); }

  // The raw tokens of one logical line range [pos_, end of line), or of the whole file.
  std::vector<Token> run(std::map<std::string, std::pair<SrcPos, std::vector<Token>>>& macros) {
    std::vector<Token> out;
    bool line_start = true;
    while (true) {
      skip_space_and_comments(line_start);
      if (pos_ >= src_.size()) break;
      if (src_[pos_] == '#' && line_start) {
        directive(macros);
        line_start = true;
        continue;
      }
      line_start = false;
      out.push_back(next());
      if (out.size() > kMaxTokens)
        fail("limit", out.back().pos, "more than " + std::to_string(kMaxTokens) + " tokens: a kernel this long is refused");
    }
    return out;
  }

 private:
  SrcPos here() const { return {line_, static_cast<std::uint32_t>(pos_ - line_begin_ + 1)}; }
  char peek(std::size_t ahead = 0) const { return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0'; }
  void advance() {
    if (src_[pos_] == '\n') {
      ++line_;
      line_begin_ = pos_ + 1;
    }
    ++pos_;
  }

  // Skips blanks and comments; `stop_at_newline` (inside a directive) stops before an unescaped newline.
  void skip_space_and_comments(bool& line_start, bool stop_at_newline = false) {
    while (pos_ < src_.size()) {
      const char c = src_[pos_];
      if (c == '\\' && peek(1) == '\n') {  // a line continuation
        advance();
        advance();
      } else if (c == '\n') {
        if (stop_at_newline) return;
        line_start = true;
        advance();
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        advance();
      } else if (c == '/' && peek(1) == '/') {
        while (pos_ < src_.size() && src_[pos_] != '\n') advance();
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
    if (ident_start(c)) {
      const std::size_t b = pos_;
      while (pos_ < src_.size() && ident_char(src_[pos_])) advance();
      t.kind = Tok::Ident;
      t.text = std::string(src_.substr(b, pos_ - b));
      return t;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1)))))
      return number(t);
    if (c == '"' || c == '\'') fail("unsupported", t.pos, "string and character literals are outside the CUDA subset");
    for (std::string_view p : kPuncts)
      if (src_.substr(pos_, p.size()) == p) {
        for (std::size_t k = 0; k < p.size(); ++k) advance();
        t.kind = Tok::Punct;
        t.text = std::string(p);
        return t;
      }
    fail("syntax", t.pos, std::string("unexpected character '") + (std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c) : "\\x" + hex(c)) + "'");
  }

  static std::string hex(char c) {
    const char* digits = "0123456789abcdef";
    const auto u = static_cast<unsigned char>(c);
    return {digits[u >> 4], digits[u & 15]};
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
      if (end != body.c_str() + body.size() || !std::isfinite(t.float_value))
        fail("syntax", t.pos, "malformed number '" + body + "'");
      if (peek() == 'f' || peek() == 'F') {
        t.float_suffix = true;
        advance();
      }
    } else {
      t.kind = Tok::Int;
      errno = 0;
      char* end = nullptr;
      t.int_value = std::strtoull(body.c_str() + (is_hex ? 2 : 0), &end, is_hex ? 16 : 10);
      if (errno != 0 || (is_hex && body.size() == 2) || t.int_value > 0xffffffffull)
        fail("unsupported", t.pos, "integer literal '" + body + "' does not fit 32 bits");
      if (peek() == 'u' || peek() == 'U') {
        t.unsigned_suffix = true;
        advance();
      }
      if (t.int_value > 0x7fffffffull) t.unsigned_suffix = true;  // as C types a large hex literal
    }
    if (ident_char(peek())) fail("unsupported", t.pos, "literal suffix '" + std::string(1, peek()) + "' on '" + body + "'");
    return t;
  }

  void directive(std::map<std::string, std::pair<SrcPos, std::vector<Token>>>& macros) {
    const SrcPos at = here();
    advance();  // '#'
    bool ls = false;
    skip_space_and_comments(ls, true);
    std::string name;
    while (pos_ < src_.size() && ident_char(src_[pos_])) {
      name += src_[pos_];
      advance();
    }
    if (name == "include" || name == "pragma") {
      while (pos_ < src_.size() && src_[pos_] != '\n') advance();
      return;
    }
    if (name != "define")
      fail("unsupported", at, "preprocessor directive '#" + name + "' is outside the CUDA subset (#define NAME VALUE, #include and #pragma are read)");
    skip_space_and_comments(ls, true);
    const SrcPos name_at = here();
    std::string macro;
    while (pos_ < src_.size() && ident_char(src_[pos_])) {
      macro += src_[pos_];
      advance();
    }
    if (macro.empty() || !ident_start(macro[0])) fail("syntax", name_at, "#define needs a name");
    if (peek() == '(') fail("unsupported", name_at, "function-like macro '" + macro + "(...)': only #define NAME VALUE is supported");
    std::vector<Token> body;
    while (true) {
      skip_space_and_comments(ls, true);
      if (pos_ >= src_.size() || src_[pos_] == '\n') break;
      body.push_back(next());
    }
    if (macros.count(macro)) fail("syntax", name_at, "macro '" + macro + "' is defined twice");
    macros[macro] = {name_at, std::move(body)};
  }

  std::string_view src_;
  const std::string& file_;
  std::size_t pos_ = 0;
  std::uint32_t line_ = 1;
  std::size_t line_begin_ = 0;
};

using MacroTable = std::map<std::string, std::pair<SrcPos, std::vector<Token>>>;

void expand(const Token& use, const MacroTable& macros, std::set<std::string>& active, std::vector<Token>& out,
            const std::string& file) {
  const auto it = use.kind == Tok::Ident ? macros.find(use.text) : macros.end();
  if (it == macros.end() || active.count(use.text)) {
    out.push_back(use);
    if (out.size() > kMaxTokens)
      throw KernelError("limit", file, use.pos, "more than " + std::to_string(kMaxTokens) + " tokens after macro expansion");
    return;
  }
  active.insert(use.text);
  for (Token t : it->second.second) {
    t.pos = use.pos;  // errors point at where the macro is used
    expand(t, macros, active, out, file);
  }
  active.erase(use.text);
}

}  // namespace

Lexed lex(std::string_view source, const std::string& file, const std::map<std::string, std::string>& overrides) {
  if (source.size() > kMaxSourceBytes)
    throw KernelError("limit", file, {1, 1}, "the source is " + std::to_string(source.size()) + " bytes, more than the " +
                                                  std::to_string(kMaxSourceBytes) + " a kernel may have");
  for (char c : source)
    if (c == '\0') throw KernelError("syntax", file, {1, 1}, "the source holds a NUL byte: not a text file");
  MacroTable macros;
  Lexer lexer(source, file);
  std::vector<Token> raw = lexer.run(macros);
  for (const auto& [name, text] : overrides) {
    auto it = macros.find(name);
    if (it == macros.end()) continue;
    MacroTable none;
    it->second.second = Lexer(text, file).run(none);
  }
  Lexed result;
  for (const auto& [name, def] : macros) result.macros[name] = def.first;
  std::set<std::string> active;
  for (const Token& t : raw) expand(t, macros, active, result.tokens, file);
  Token end;
  end.kind = Tok::End;
  end.text = "end of file";
  end.pos = raw.empty() ? SrcPos{1, 1} : raw.back().pos;
  result.tokens.push_back(end);
  return result;
}

}  // namespace sv::cuda
