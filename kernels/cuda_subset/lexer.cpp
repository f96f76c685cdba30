// Characters to preprocessing tokens (preprocessor.hpp): line continuations spliced, comments
// dropped, identifiers, numbers, string and character literals, punctuators, each with the line and
// column where it is written; and the conversion of a preprocessed token into the parser's (lexer.hpp):
// a number's value and suffixes, a literal's escapes decoded.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>

#include "cuda_subset/preprocessor.hpp"

namespace sv::cuda::pp {

namespace {

bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool digit(char c) { return c >= '0' && c <= '9'; }
bool ident_char(char c) { return ident_start(c) || digit(c); }
bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// Longest first: the lexer takes the longest punctuator that matches.
constexpr std::string_view kPuncts[] = {"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
                                        "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "::", "##",
                                        "(", ")", "[", "]", "{", "}", ";", ",", "+", "-", "*", "/", "%", "<",
                                        ">", "=", "!", "~", "&", "|", "^", "?", ":", ".", "#"};

int hex_digit(char c) {
  if (digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& s, std::uint32_t cp) {
  if (cp < 0x80) {
    s += static_cast<char>(cp);
  } else if (cp < 0x800) {
    s += static_cast<char>(0xc0 | (cp >> 6));
    s += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    s += static_cast<char>(0xe0 | (cp >> 12));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    s += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    s += static_cast<char>(0xf0 | (cp >> 18));
    s += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    s += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

// The characters of a literal's body (between its quotes), escapes decoded; `wide`: a prefixed literal,
// whose \x and octal escapes may exceed a byte (kept as UTF-8).
std::string decode_escapes(std::string_view body, bool wide, const PPToken& t, const std::string& file) {
  auto bad = [&](const std::string& what) -> void { throw KernelError("syntax", file, t.pos, what + " in " + shown(t.text)); };
  std::string out;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\') {
      out += body[i];
      continue;
    }
    if (++i >= body.size()) bad("a '\\' that escapes nothing");
    const char e = body[i];
    switch (e) {
      case 'n': out += '\n'; continue;
      case 't': out += '\t'; continue;
      case 'r': out += '\r'; continue;
      case 'a': out += '\a'; continue;
      case 'b': out += '\b'; continue;
      case 'f': out += '\f'; continue;
      case 'v': out += '\v'; continue;
      case 'e': out += '\x1b'; continue;  // GNU
      default: break;
    }
    std::uint32_t v = 0;
    if (e >= '0' && e <= '7') {
      std::size_t k = 0;
      for (; k < 3 && i + k < body.size() && body[i + k] >= '0' && body[i + k] <= '7'; ++k) v = v * 8 + static_cast<std::uint32_t>(body[i + k] - '0');
      i += k - 1;
    } else if (e == 'x') {
      std::size_t k = 1;
      for (; i + k < body.size() && hex_digit(body[i + k]) >= 0; ++k) {
        v = v * 16 + static_cast<std::uint32_t>(hex_digit(body[i + k]));
        if (v > 0x10ffff) bad("a \\x escape out of range");
      }
      if (k == 1) bad("\\x with no hex digits");
      i += k - 1;
    } else if (e == 'u' || e == 'U') {
      const std::size_t n = e == 'u' ? 4 : 8;
      for (std::size_t k = 1; k <= n; ++k) {
        if (i + k >= body.size() || hex_digit(body[i + k]) < 0) bad(std::string("\\") + e + " needs " + std::to_string(n) + " hex digits");
        v = v * 16 + static_cast<std::uint32_t>(hex_digit(body[i + k]));
      }
      if (v > 0x10ffff) bad("a universal character name out of range");
      i += n;
      append_utf8(out, v);
      continue;
    } else {
      out += e;  // \\ \' \" \? and, as compilers do, any other escaped character
      continue;
    }
    if (v > 0xff && !wide) bad("an escape out of the range of a char");
    if (v > 0xff) append_utf8(out, v);
    else out += static_cast<char>(v);
  }
  return out;
}

// A literal's prefix (u8, u, U, L or none) and body between its quotes.
std::pair<std::string_view, std::string_view> split_literal(std::string_view text) {
  const std::size_t open = text.find_first_of("\"'");
  return {text.substr(0, open), text.substr(open + 1, text.size() - open - 2)};
}

// The one code point of a prefixed character literal's UTF-8, or nullopt.
std::optional<std::uint32_t> one_code_point(const std::string& s) {
  if (s.empty()) return std::nullopt;
  const auto b = static_cast<unsigned char>(s[0]);
  const std::size_t n = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 0;
  if (n == 0 || s.size() != n) return std::nullopt;
  std::uint32_t cp = n == 1 ? b : b & (0x7fu >> n);
  for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[k]) & 0x3fu);
  return cp;
}

bool valid_int_suffix(std::string_view s) {
  static const std::set<std::string, std::less<>> ok = [] {
    std::set<std::string, std::less<>> all;
    for (const char* u : {"", "u", "U"})
      for (const char* l : {"", "l", "L", "ll", "LL"}) {
        all.insert(std::string(u) + l);
        all.insert(std::string(l) + u);
      }
    return all;
  }();
  return ok.count(s) > 0;
}

}  // namespace

std::string shown(std::string_view text) {
  static const char* hex = "0123456789abcdef";
  std::string s;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f) s += std::string("\\x") + hex[u >> 4] + hex[u & 15];
    else s += c;
  }
  return s;
}

// ---- the scanner ----

Scanner::Scanner(std::string_view text, std::string name, std::uint16_t file) : name_(std::move(name)), file_(file) {
  text_.reserve(text.size());
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\') {  // a line continuation: the next line goes on this one
      std::size_t j = i + 1;
      if (j + 1 < text.size() && text[j] == '\r' && text[j + 1] == '\n') ++j;
      if (j < text.size() && text[j] == '\n') {
        i = j;
        line_starts_.push_back(static_cast<std::uint32_t>(text_.size()));
        continue;
      }
    }
    text_ += c;
    if (c == '\n') line_starts_.push_back(static_cast<std::uint32_t>(text_.size()));
  }
}

void Scanner::fail(const char* kind, SrcPos at, const std::string& what) const { throw KernelError(kind, name_, at, what); }

SrcPos Scanner::here() const {
  const auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), static_cast<std::uint32_t>(pos_));
  const auto line = static_cast<std::size_t>(it - line_starts_.begin());  // >= 1: line_starts_[0] is 0
  return {static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(pos_ - line_starts_[line - 1] + 1), file_};
}

void Scanner::skip_block_comment() {
  const SrcPos at = here();
  const std::size_t end = text_.find("*/", pos_ + 2);
  if (end == std::string::npos) fail("syntax", at, "unterminated /* comment");
  pos_ = end + 2;  // a comment is one blank, even across lines
}

bool Scanner::skip_blank() {
  bool any = false;
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (blank(c)) {
      ++pos_;
    } else if (c == '/' && peek(1) == '/') {
      while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    } else if (c == '/' && peek(1) == '*') {
      skip_block_comment();
    } else {
      return any;
    }
    any = true;
  }
  return any;
}

bool Scanner::at_directive() {
  skip_blank();
  return peek() == '#';
}

SrcPos Scanner::take_hash() {
  const SrcPos at = here();
  ++pos_;
  return at;
}

std::string Scanner::directive_name() {
  skip_blank();
  if (pos_ >= text_.size() || text_[pos_] == '\n') return "";
  if (digit(text_[pos_])) return "0";
  if (!ident_start(text_[pos_])) return std::string(1, text_[pos_++]);
  const std::size_t b = pos_;
  while (pos_ < text_.size() && ident_char(text_[pos_])) ++pos_;
  return text_.substr(b, pos_ - b);
}

void Scanner::read_line(std::vector<PPToken>& out) {
  bool space = true;  // a line break before the line's first token
  while (true) {
    space |= skip_blank();
    if (pos_ >= text_.size()) return;
    if (text_[pos_] == '\n') {
      ++pos_;
      return;
    }
    out.push_back(token());
    out.back().space = space;
    space = false;
  }
}

void Scanner::read_all(std::vector<PPToken>& out) {
  while (!at_end()) read_line(out);
}

void Scanner::skip_line() {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == '\n') {
      ++pos_;
      return;
    }
    if (c == '/' && (peek(1) == '/' || peek(1) == '*')) {
      skip_blank();
    } else if (c == '"' || c == '\'') {  // a quote to its match on this line, or to the line's end
      ++pos_;
      while (pos_ < text_.size() && text_[pos_] != c && text_[pos_] != '\n') pos_ += text_[pos_] == '\\' && peek(1) != '\n' ? 2 : 1;
      if (pos_ < text_.size() && text_[pos_] == c) ++pos_;
    } else {
      ++pos_;
    }
  }
}

std::string Scanner::raw_line() {
  std::string s;
  while (pos_ < text_.size() && text_[pos_] != '\n') {
    const char c = text_[pos_];
    if (c == '/' && (peek(1) == '/' || peek(1) == '*')) {
      skip_blank();
      s += ' ';
    } else {
      s += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;  // one line: control characters as blanks
      ++pos_;
    }
  }
  if (pos_ < text_.size()) ++pos_;
  const std::size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::optional<std::pair<char, std::string>> Scanner::header_name() {
  skip_blank();
  const char open = peek();
  if (open != '"' && open != '<') return std::nullopt;
  const char close = open == '"' ? '"' : '>';
  const SrcPos at = here();
  std::size_t end = pos_ + 1;
  while (end < text_.size() && text_[end] != close && text_[end] != '\n') ++end;
  if (end >= text_.size() || text_[end] != close) fail("syntax", at, std::string("#include's file name has no closing ") + close);
  std::string name = text_.substr(pos_ + 1, end - pos_ - 1);
  pos_ = end + 1;
  skip_line();
  return std::pair{open, std::move(name)};
}

std::optional<PPToken> Scanner::one_token(const std::string& text) {
  if (text.empty() || text.find('\n') != std::string::npos) return std::nullopt;
  Scanner s(text, "", 0);
  try {
    if (s.skip_blank()) return std::nullopt;
    PPToken t = s.token();
    if (!s.at_end()) return std::nullopt;
    return t;
  } catch (const KernelError&) {  // an unterminated literal
    return std::nullopt;
  }
}

PPToken Scanner::token() {
  PPToken t;
  t.pos = here();
  const std::size_t start = pos_;
  const char c = text_[pos_];
  const bool quote1 = peek(1) == '"' || peek(1) == '\'';
  if ((c == 'u' || c == 'U' || c == 'L') && quote1) {  // u"", U'', L"" prefixes
    ++pos_;
  } else if (c == 'u' && peek(1) == '8' && (peek(2) == '"' || peek(2) == '\'')) {
    pos_ += 2;
  }
  if (peek() == '"' || peek() == '\'') {
    literal(t, start);
    return t;
  }
  if (ident_start(c)) {
    const std::size_t b = pos_;
    while (pos_ < text_.size() && ident_char(text_[pos_])) ++pos_;
    t.kind = PK::Ident;
    t.text = text_.substr(b, pos_ - b);
    return t;
  }
  if (digit(c) || (c == '.' && digit(peek(1)))) {
    pp_number(t);
    return t;
  }
  for (std::string_view p : kPuncts)
    if (std::string_view(text_).substr(pos_, p.size()) == p) {
      pos_ += p.size();
      t.kind = PK::Punct;
      t.text = std::string(p);
      return t;
    }
  t.kind = PK::Other;  // no token starts with it: an error only where it is not skipped
  t.text = std::string(1, c);
  ++pos_;
  return t;
}

void Scanner::literal(PPToken& t, std::size_t start) {
  const char quote = text_[pos_];
  std::size_t i = pos_ + 1;
  while (i < text_.size() && text_[i] != quote && text_[i] != '\n') i += text_[i] == '\\' && i + 1 < text_.size() && text_[i + 1] != '\n' ? 2 : 1;
  if (i >= text_.size() || text_[i] != quote)
    fail("syntax", t.pos, quote == '"' ? "unterminated string literal" : "unterminated character literal");
  pos_ = i + 1;
  t.kind = quote == '"' ? PK::String : PK::Char;
  t.text = text_.substr(start, pos_ - start);
}

// A preprocessing number: digits, letters, '.', and e+ e- p+ p- (so 0x1e+1 is one, as in C).
void Scanner::pp_number(PPToken& t) {
  const std::size_t b = pos_;
  ++pos_;
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && (peek(1) == '+' || peek(1) == '-')) pos_ += 2;
    else if (c == '\'' && ident_char(peek(1))) pos_ += 2;  // C++14's digit separator: 1'000'000
    else if (ident_char(c) || c == '.') ++pos_;
    else break;
  }
  t.kind = PK::Number;
  t.text = text_.substr(b, pos_ - b);
}

// ---- conversions ----

Number number_value(const PPToken& t, const std::string& file) {
  std::string s = t.text;
  std::erase(s, '\'');  // digit separators
  auto malformed = [&]() -> void { throw KernelError("syntax", file, t.pos, "malformed number '" + shown(s) + "'"); };
  Number n;
  const bool hex = s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  const bool bin = s.size() > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B');
  n.is_float = hex ? s.find_first_of(".pP") != std::string::npos : !bin && s.find_first_of(".eE") != std::string::npos;
  if (n.is_float) {
    errno = 0;
    char* end = nullptr;
    n.float_value = std::strtod(s.c_str(), &end);
    const std::size_t used = static_cast<std::size_t>(end - s.c_str());
    const std::string suffix = s.substr(used);
    if (used == 0 || !std::isfinite(n.float_value) || (!suffix.empty() && !ident_start(suffix[0]))) malformed();
    if (suffix == "f" || suffix == "F") n.f = true;
    else if (!suffix.empty() && suffix != "l" && suffix != "L")  // long double: read as double, as on the device
      throw KernelError("unsupported", file, t.pos, "literal suffix '" + shown(suffix) + "' on '" + shown(s.substr(0, used)) + "'");
    return n;
  }
  const int base = hex ? 16 : bin ? 2 : s.size() > 1 && s[0] == '0' ? 8 : 10;
  n.decimal = base == 10;
  std::size_t i = hex || bin ? 2 : 0;
  const std::size_t first = i;
  for (; i < s.size() && hex_digit(s[i]) >= 0 && !(base != 16 && !digit(s[i])); ++i) {
    const auto d = static_cast<std::uint64_t>(hex_digit(s[i]));
    if (d >= static_cast<std::uint64_t>(base)) malformed();  // 08, 0b2
    if (n.int_value > (UINT64_MAX - d) / static_cast<std::uint64_t>(base))
      throw KernelError("unsupported", file, t.pos, "integer literal '" + shown(s) + "' does not fit 64 bits");
    n.int_value = n.int_value * static_cast<std::uint64_t>(base) + d;
  }
  if (i == first) malformed();  // 0x alone
  const std::string_view suffix = std::string_view(s).substr(i);
  if (!valid_int_suffix(suffix)) {
    if (!ident_start(suffix[0])) malformed();
    throw KernelError("unsupported", file, t.pos, "literal suffix '" + shown(suffix) + "' on '" + shown(s.substr(0, i)) + "'");
  }
  n.u = suffix.find_first_of("uU") != std::string_view::npos;
  n.l = suffix.find_first_of("lL") != std::string_view::npos;
  return n;
}

std::int64_t char_value(const PPToken& t, const std::string& file) {
  const auto [prefix, body] = split_literal(t.text);
  const std::string chars = decode_escapes(body, !prefix.empty(), t, file);
  if (chars.empty()) throw KernelError("syntax", file, t.pos, "an empty character literal ''");
  if (!prefix.empty()) {
    const auto cp = one_code_point(chars);
    if (!cp) throw KernelError("unsupported", file, t.pos, "character literal " + shown(t.text) + " holds more than one character");
    return *cp;
  }
  if (chars.size() == 1) return static_cast<signed char>(chars[0]);  // char is signed, as on the GPU's host
  if (chars.size() > 4) throw KernelError("unsupported", file, t.pos, "character literal " + shown(t.text) + " is longer than an int");
  std::uint32_t v = 0;  // 'ab': a multi-character literal, as GCC and nvcc value it
  for (char c : chars) v = (v << 8) | static_cast<unsigned char>(c);
  return static_cast<std::int32_t>(v);
}

Token to_token(const PPToken& t, const std::string& file) {
  Token out;
  out.text = t.text;
  out.pos = t.pos;
  switch (t.kind) {
    case PK::Ident: out.kind = Tok::Ident; break;
    case PK::Punct: out.kind = Tok::Punct; break;
    case PK::String: {
      out.kind = Tok::String;
      const auto [prefix, body] = split_literal(t.text);
      out.string_value = decode_escapes(body, !prefix.empty(), t, file);
      break;
    }
    case PK::Char:
      out.kind = Tok::Int;
      out.int_value = static_cast<std::uint64_t>(char_value(t, file));
      break;
    case PK::Number: {
      const Number n = number_value(t, file);
      out.kind = n.is_float ? Tok::Float : Tok::Int;
      out.float_value = n.float_value;
      out.float_suffix = n.f;
      out.int_value = n.int_value;
      out.long_suffix = n.l;
      // As C types a literal: a hex or octal one that fits unsigned int but not int is unsigned, and
      // any beyond long's range (a decimal one there is an error in C, unsigned in GCC).
      out.unsigned_suffix = n.u || n.int_value > 0x7fffffffffffffffull ||
                            (!n.decimal && !n.l && n.int_value > 0x7fffffffull && n.int_value <= 0xffffffffull);
      break;
    }
    case PK::Other:
    case PK::Placemarker:
      throw KernelError("syntax", file, t.pos, "unexpected character '" + shown(t.text) + "'");
  }
  return out;
}

}  // namespace sv::cuda::pp
