// Reading and evaluating a launch (launch.hpp). The text is untrusted (a command line, a link): it is
// bounded in length and nesting, and an error quotes at most a short piece of it.
#include "run/launch.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <map>

namespace sv {

namespace {

constexpr std::size_t kMaxLaunchText = 4096;
constexpr int kMaxNesting = 64;

std::string quote(std::string_view s) {
  constexpr std::size_t kMax = 60;
  return "'" + std::string(s.substr(0, kMax)) + (s.size() > kMax ? "...'" : "'");
}

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `text` split at the commas outside parentheses and brackets (and angle brackets: template arguments).
std::vector<std::string> split_top(std::string_view text, bool angles = false) {
  std::vector<std::string> parts;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '(' || c == '[' || (angles && c == '<')) ++depth;
    else if (c == ')' || c == ']' || (angles && c == '>')) --depth;
    else if (c == ',' && depth == 0) {
      parts.push_back(trim(text.substr(start, i - start)));
      start = i + 1;
    }
  }
  parts.push_back(trim(text.substr(start)));
  return parts;
}

// The evaluator of launch expressions: recursive descent over the characters.
class Eval {
 public:
  Eval(std::string_view text, std::int64_t n) : s_(text), n_(n) {}

  std::int64_t run() {
    const std::int64_t v = conditional();
    space();
    if (p_ != s_.size()) fail("unexpected " + quote(s_.substr(p_)));
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw LaunchError("launch expression " + quote(s_) + ": " + what); }

  void space() {
    while (p_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[p_]))) ++p_;
  }
  bool accept(std::string_view op) {
    space();
    if (s_.substr(p_, op.size()) != op) return false;
    // `<` is not the start of `<<` or `<=`, and so on.
    const char after = p_ + op.size() < s_.size() ? s_[p_ + op.size()] : '\0';
    if ((op == "<" || op == ">") && (after == op[0] || after == '=')) return false;
    if ((op == "&" || op == "|") && after == op[0]) return false;
    if ((op == "!" || op == "=") && after == '=') return false;
    p_ += op.size();
    return true;
  }
  void expect(std::string_view op) {
    if (!accept(op)) fail("expected '" + std::string(op) + "'");
  }

  struct Nest {
    explicit Nest(Eval& e) : e_(e) {
      if (++e_.depth_ > kMaxNesting) e_.fail("nested too deeply");
    }
    ~Nest() { --e_.depth_; }
    Eval& e_;
  };

  void check(bool overflow) const {
    if (overflow) fail("a value outside 64 bits");
  }

  std::int64_t conditional() {
    Nest nest(*this);
    const std::int64_t c = binary(0);
    if (!accept("?")) return c;
    const std::int64_t a = conditional();
    expect(":");
    const std::int64_t b = conditional();
    return c ? a : b;
  }

  std::int64_t apply(const std::string& op, std::int64_t a, std::int64_t b) const {
    std::int64_t r = 0;
    if (op == "+" || op == "-" || op == "*") {
      check(op == "+" ? __builtin_add_overflow(a, b, &r) : op == "-" ? __builtin_sub_overflow(a, b, &r) : __builtin_mul_overflow(a, b, &r));
      return r;
    }
    if (op == "/" || op == "%") {
      if (b == 0) fail("division by zero");
      if (a == INT64_MIN && b == -1) fail("a value outside 64 bits");
      return op == "/" ? a / b : a % b;
    }
    if (op == "<<" || op == ">>") {
      if (b < 0 || b > 62) fail("a shift by " + std::to_string(b));
      if (op == ">>") return a >> b;
      if (a < 0 || a > (INT64_MAX >> b)) fail("a value outside 64 bits");
      return a << b;
    }
    if (op == "<") return a < b;
    if (op == ">") return a > b;
    if (op == "<=") return a <= b;
    if (op == ">=") return a >= b;
    if (op == "==") return a == b;
    if (op == "!=") return a != b;
    if (op == "&") return a & b;
    if (op == "|") return a | b;
    if (op == "^") return a ^ b;
    if (op == "&&") return a && b;
    return a || b;
  }

  std::int64_t binary(int level) {
    static const std::vector<std::vector<std::string>> levels = {
        {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
    if (level == static_cast<int>(levels.size())) return unary();
    Nest nest(*this);
    std::int64_t v = binary(level + 1);
    for (bool more = true; more;) {
      more = false;
      for (const std::string& op : levels[static_cast<std::size_t>(level)])
        if (accept(op)) {
          v = apply(op, v, binary(level + 1));
          more = true;
          break;
        }
    }
    return v;
  }

  std::int64_t unary() {
    Nest nest(*this);
    if (accept("-")) {
      const std::int64_t v = unary();
      if (v == INT64_MIN) fail("a value outside 64 bits");
      return -v;
    }
    if (accept("+")) return unary();
    if (accept("!")) return !unary();
    if (accept("~")) return ~unary();
    return primary();
  }

  std::string word() {
    space();
    const std::size_t b = p_;
    while (p_ < s_.size() && ident_char(s_[p_])) ++p_;
    return std::string(s_.substr(b, p_ - b));
  }

  std::int64_t primary() {
    space();
    if (p_ >= s_.size()) fail("an expression ends too soon");
    if (accept("(")) {
      const std::int64_t v = conditional();
      expect(")");
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(s_[p_]))) return number();
    const std::string w = word();
    if (w.empty()) fail("unexpected " + quote(s_.substr(p_)));
    if (w == "n") return n_;
    if (w == "true" || w == "false") return w == "true";
    if (w == "sizeof") return size_of();
    if (w == "min" || w == "max") {
      expect("(");
      const std::int64_t a = conditional();
      expect(",");
      const std::int64_t b = conditional();
      expect(")");
      return w == "min" ? std::min(a, b) : std::max(a, b);
    }
    fail("unknown name '" + w.substr(0, 40) + "' (an expression in n)");
  }

  std::int64_t number() {
    std::size_t e = p_;
    while (e < s_.size() && ident_char(s_[e])) ++e;
    std::string literal(s_.substr(p_, e - p_));
    p_ = e;
    while (!literal.empty() && std::string_view("uUlL").find(literal.back()) != std::string_view::npos) literal.pop_back();
    if (literal.empty() || literal.size() > 20) fail("a malformed number");
    errno = 0;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(literal.c_str(), &end, 0);
    if (end != literal.c_str() + literal.size()) fail("a malformed number " + quote(literal));
    if (errno != 0 || v > static_cast<unsigned long long>(INT64_MAX)) fail("a number outside 64 bits");
    return static_cast<std::int64_t>(v);
  }

  std::int64_t size_of() {
    expect("(");
    std::string type;
    for (std::string w = word(); !w.empty(); w = word()) type += (type.empty() ? "" : " ") + w;
    const bool pointer = accept("*");
    expect(")");
    static const std::map<std::string, std::int64_t> sizes = {
        {"char", 1}, {"bool", 1}, {"short", 2}, {"int", 4}, {"unsigned", 4}, {"unsigned int", 4}, {"float", 4},
        {"double", 8}, {"long", 8}, {"long long", 8}, {"unsigned long long", 8}, {"size_t", 8}, {"int32_t", 4},
        {"uint32_t", 4}, {"int64_t", 8}, {"uint64_t", 8}, {"int8_t", 1}, {"uint8_t", 1}, {"int16_t", 2}, {"uint16_t", 2}};
    if (pointer) return 8;
    const auto it = sizes.find(type);
    if (it == sizes.end()) fail("sizeof(" + type.substr(0, 40) + "): a type scanviz does not know");
    return it->second;
  }

  std::string_view s_;
  std::int64_t n_;
  std::size_t p_ = 0;
  int depth_ = 0;
};

LaunchArg argument(const std::string& a) {
  LaunchArg arg;
  static const std::map<std::string, LaunchArg::Kind> words = {
      {"in", LaunchArg::In}, {"out", LaunchArg::Out}, {"io", LaunchArg::Io}, {"sums", LaunchArg::Sums}};
  if (const auto it = words.find(a); it != words.end()) {
    arg.kind = it->second;
    return arg;
  }
  for (const auto& [name, kind] : {std::pair{"zeros", LaunchArg::Zeros}, std::pair{"buf", LaunchArg::Buf}}) {
    const std::string open = std::string(name) + "(";
    if (a.rfind(open, 0) == 0 && a.back() == ')') {
      arg.kind = kind;
      arg.cells = trim(std::string_view(a).substr(open.size(), a.size() - open.size() - 1));
      (void)eval_launch_expr(arg.cells, 1);
      return arg;
    }
  }
  if (a == "true" || a == "false") {
    arg.number = a == "true";
    return arg;
  }
  char* end = nullptr;
  const double v = std::strtod(a.c_str(), &end);
  if (!a.empty() && end == a.c_str() + a.size() && (a.find('.') != std::string::npos || a.find('e') != std::string::npos)) {
    arg.number = v;
    return arg;
  }
  if (a.empty()) throw LaunchError("an empty argument in the launch");
  arg.expr = a;
  try {
    (void)eval_launch_expr(a, 1);
  } catch (const LaunchError&) {
    throw LaunchError("launch argument " + quote(a) + ": not one of in, out, io, sums, zeros(K), buf(K), n, a number, true or false");
  }
  return arg;
}

}  // namespace

std::int64_t eval_launch_expr(const std::string& expr, std::int64_t n) {
  if (expr.size() > kMaxLaunchText) throw LaunchError("a launch expression of more than " + std::to_string(kMaxLaunchText) + " characters");
  return Eval(expr, n).run();
}

namespace {

// The <<<GRID, BLOCK[, SHARED]>>> of a kernel's launch, and the template arguments before it, into
// `l`; returns where the arguments start.
std::size_t config_of(LaunchSpec& l, const std::string& s, std::size_t p, std::size_t chevrons) {
  const std::string between = trim(std::string_view(s).substr(p, chevrons - p));
  if (!between.empty()) {
    if (between.front() != '<' || between.back() != '>') throw LaunchError("launch " + quote(s) + ": unexpected " + quote(between) + " after the kernel's name");
    l.template_args = split_top(std::string_view(between).substr(1, between.size() - 2), true);
  }
  const std::size_t close = s.find(">>>", chevrons + 3);
  if (close == std::string::npos) throw LaunchError("launch " + quote(s) + ": <<< is never closed by >>>");
  const std::vector<std::string> config = split_top(std::string_view(s).substr(chevrons + 3, close - chevrons - 3));
  if (config.size() < 2 || config.size() > 4)
    throw LaunchError("launch " + quote(s) + ": <<<GRID, BLOCK>>> or <<<GRID, BLOCK, SHARED_BYTES>>> (" + std::to_string(config.size()) + " given)");
  l.grid = config[0];
  l.block = config[1];
  if (config.size() >= 3) l.shared = config[2];
  for (const std::string& e : {l.grid, l.block, l.shared})
    if (!e.empty()) (void)eval_launch_expr(e, 1);
  return close + 3;
}

}  // namespace

LaunchSpec parse_launch(const std::string& text) {
  if (text.size() > kMaxLaunchText) throw LaunchError("a launch of more than " + std::to_string(kMaxLaunchText) + " characters");
  LaunchSpec l;
  l.text = trim(text);
  const std::string& s = l.text;
  std::size_t p = 0;
  while (p < s.size() && ident_char(s[p])) ++p;
  l.kernel = s.substr(0, p);
  if (l.kernel.empty() || std::isdigit(static_cast<unsigned char>(l.kernel[0])))
    throw LaunchError("launch " + quote(s) + ": it starts with the kernel's name, as in scan<<<(n + 255) / 256, 256>>>(in, out, n)");
  const std::size_t chevrons = s.find("<<<", p);
  std::size_t args_at = p;
  if (chevrons != std::string::npos) {
    args_at = config_of(l, s, p, chevrons);
  } else if (const std::string after = trim(std::string_view(s).substr(p)); after.empty() || after.front() != '(') {
    throw LaunchError("launch " + quote(s) + ": no <<<GRID, BLOCK>>> (as in " + l.kernel + "<<<1, 256>>>(in, out, n)), nor a host function's (ARGS)");
  } else {
    l.host = true;  // a host function of the file, which launches the kernels itself
  }
  const std::string rest = trim(std::string_view(s).substr(args_at));
  if (rest.size() < 2 || rest.front() != '(' || rest.back() != ')')
    throw LaunchError("launch " + quote(s) + ": the arguments follow " + (l.host ? "the function's name" : ">>>") + " in parentheses, as in (in, out, n)");
  const std::string inside = trim(std::string_view(rest).substr(1, rest.size() - 2));
  if (!inside.empty())
    for (const std::string& a : split_top(inside)) l.args.push_back(argument(a));
  int outputs = 0, inputs = 0;
  for (const LaunchArg& a : l.args) {
    outputs += a.kind == LaunchArg::Out || a.kind == LaunchArg::Io;
    inputs += a.kind == LaunchArg::In || a.kind == LaunchArg::Io;
  }
  if (outputs != 1) throw LaunchError("launch " + quote(s) + ": name the scan's output once, as out (or io for an in-place scan)");
  if (inputs != 1) throw LaunchError("launch " + quote(s) + ": name the scan's input once, as in (or io for an in-place scan)");
  return l;
}

std::string launch_entry(const LaunchSpec& l) {
  std::string entry = l.kernel;
  if (l.template_args.empty()) return entry;
  entry += "<";
  for (std::size_t i = 0; i < l.template_args.size(); ++i) entry += (i ? ", " : "") + l.template_args[i];
  return entry + ">";
}

std::string launch_text(const LaunchSpec& l) {
  std::string t = launch_entry(l);
  if (!l.host) t += "<<<" + l.grid + ", " + l.block + (l.shared.empty() ? "" : ", " + l.shared) + ">>>";
  t += "(";
  for (std::size_t i = 0; i < l.args.size(); ++i) {
    const LaunchArg& a = l.args[i];
    static const char* names[] = {"in", "out", "io", "sums", "zeros", "buf"};
    if (i) t += ", ";
    if (a.kind == LaunchArg::Zeros || a.kind == LaunchArg::Buf) t += std::string(names[a.kind]) + "(" + a.cells + ")";
    else if (a.kind != LaunchArg::Number) t += names[a.kind];
    else if (!a.expr.empty()) t += a.expr;
    else {
      std::string num = std::to_string(a.number);
      if (a.number == static_cast<double>(static_cast<std::int64_t>(a.number))) num = std::to_string(static_cast<std::int64_t>(a.number));
      t += num;
    }
  }
  return t + ")";
}

}  // namespace sv
