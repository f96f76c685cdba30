// The #if expression of the preprocessor (preprocessor.hpp): C's integer arithmetic over intmax_t and
// uintmax_t, `defined`, `__has_include`, and a name left after expansion as 0.
#include <cstdint>
#include <string>
#include <vector>

#include "cuda_subset/preprocessor.hpp"

namespace sv::cuda::pp {

namespace {

// C's integers in an #if: intmax_t or uintmax_t, the usual conversions between them.
struct Value {
  std::uint64_t v = 0;
  bool is_unsigned = false;
  std::int64_t s() const { return static_cast<std::int64_t>(v); }
};

class Evaluator {
 public:
  Evaluator(const ConditionHost& pp, const std::vector<PPToken>& t) : pp_(pp), t_(t) {}

  Value expression() {
    Value v = conditional(true, 0);
    while (at(",")) {  // the comma operator
      ++p_;
      v = conditional(true, 0);
    }
    if (p_ < t_.size()) pp_.fail("syntax", t_[p_].pos, "unexpected '" + shown(t_[p_].text) + "' in #if (an operator missing?)");
    return v;
  }

 private:
  bool at(std::string_view s) const { return p_ < t_.size() && is_punct(t_[p_], s); }
  SrcPos pos() const { return p_ < t_.size() ? t_[p_].pos : t_.back().pos; }

  void deeper(int depth) const {
    if (depth > kMaxExpansionDepth) pp_.fail("limit", pos(), "an #if expression nested more than " + std::to_string(kMaxExpansionDepth) + " deep");
  }

  // `live`: evaluated; an operand && or || or ?: skips is parsed, its division by zero no error.
  Value conditional(bool live, int depth) {
    deeper(depth);
    const Value c = binary(0, live, depth);
    if (!at("?")) return c;
    ++p_;
    const Value a = conditional(live && c.v != 0, depth + 1);
    if (!at(":")) pp_.fail("syntax", pos(), "expected ':' in #if");
    ++p_;
    const Value b = conditional(live && c.v == 0, depth + 1);
    const bool u = a.is_unsigned || b.is_unsigned;
    return {c.v != 0 ? a.v : b.v, u};
  }

  // How tightly a binary operator binds (C's precedence, || loosest), or -1 for no such operator.
  static int precedence(const PPToken& t) {
    static const std::vector<std::vector<std::string_view>> levels = {
        {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
    if (t.kind != PK::Punct) return -1;
    for (std::size_t level = 0; level < levels.size(); ++level)
      for (std::string_view o : levels[level])
        if (t.text == o) return static_cast<int>(level);
    return -1;
  }

  // Operators binding at least as tightly as `min`, left to right (precedence climbing: a long
  // chain of them is a loop, not a recursion).
  Value binary(int min, bool live, int depth) {
    Value v = unary(live, depth);
    while (p_ < t_.size()) {
      const int prec = precedence(t_[p_]);
      if (prec < min) return v;
      const std::string_view op = t_[p_].text;
      const SrcPos where = t_[p_].pos;
      ++p_;
      const bool right_live = live && !(op == "||" && v.v != 0) && !(op == "&&" && v.v == 0);
      const Value r = binary(prec + 1, right_live, depth + 1);
      v = apply(op, v, r, live, where);
    }
    return v;
  }

  Value apply(std::string_view op, Value a, Value b, bool live, SrcPos where) const {
    const bool u = a.is_unsigned || b.is_unsigned;
    if (op == "||") return {a.v != 0 || b.v != 0, false};
    if (op == "&&") return {a.v != 0 && b.v != 0, false};
    if (op == "|") return {a.v | b.v, u};
    if (op == "^") return {a.v ^ b.v, u};
    if (op == "&") return {a.v & b.v, u};
    if (op == "==") return {a.v == b.v, false};
    if (op == "!=") return {a.v != b.v, false};
    if (op == "<") return {u ? a.v < b.v : a.s() < b.s(), false};
    if (op == ">") return {u ? a.v > b.v : a.s() > b.s(), false};
    if (op == "<=") return {u ? a.v <= b.v : a.s() <= b.s(), false};
    if (op == ">=") return {u ? a.v >= b.v : a.s() >= b.s(), false};
    if (op == "<<" || op == ">>") return shift(op == "<<", a, b);
    if (op == "+") return {a.v + b.v, u};
    if (op == "-") return {a.v - b.v, u};
    if (op == "*") return {a.v * b.v, u};
    if (b.v == 0) {
      if (live) pp_.fail("syntax", where, "division by zero in #if");
      return {0, u};
    }
    if (u) return {op == "/" ? a.v / b.v : a.v % b.v, true};
    if (a.s() == INT64_MIN && b.s() == -1) return {op == "/" ? a.v : 0, false};  // wraps, as GCC's does
    return {static_cast<std::uint64_t>(op == "/" ? a.s() / b.s() : a.s() % b.s()), false};
  }

  // A shift by a negative count shifts the other way; by 64 or more, everything is shifted out.
  static Value shift(bool left, Value a, Value b) {
    std::uint64_t n = b.v;
    if (!b.is_unsigned && b.s() < 0) {
      left = !left;
      n = b.s() == INT64_MIN ? 64 : static_cast<std::uint64_t>(-b.s());
    }
    const bool negative = !a.is_unsigned && a.s() < 0;
    if (n >= 64) return {left || !negative ? 0 : ~0ull, a.is_unsigned};
    if (left) return {a.v << n, a.is_unsigned};
    return {a.is_unsigned ? a.v >> n : static_cast<std::uint64_t>(a.s() >> n), a.is_unsigned};
  }

  Value unary(bool live, int depth) {
    deeper(depth);
    if (p_ >= t_.size()) pp_.fail("syntax", pos(), "the #if expression ends too soon");
    const PPToken& k = t_[p_];
    if (k.kind == PK::Punct && (k.text == "-" || k.text == "+" || k.text == "!" || k.text == "~")) {
      ++p_;
      const Value v = unary(live, depth + 1);
      if (k.text == "-") return {0 - v.v, v.is_unsigned};
      if (k.text == "~") return {~v.v, v.is_unsigned};
      if (k.text == "!") return {v.v == 0, false};
      return v;
    }
    if (is_punct(k, "(")) {
      ++p_;
      Value v = conditional(live, depth + 1);
      while (at(",")) {
        ++p_;
        v = conditional(live, depth + 1);
      }
      if (!at(")")) pp_.fail("syntax", pos(), "expected ')' in #if");
      ++p_;
      return v;
    }
    ++p_;
    const std::string& file = pp_.file_name(k.pos);
    if (k.kind == PK::Number) {
      const pp::Number n = pp::number_value(k, file);
      if (n.is_float) pp_.fail("syntax", k.pos, "a floating-point number in #if");
      return {n.int_value, n.u || n.int_value > 0x7fffffffffffffffull};
    }
    if (k.kind == PK::Char) return {static_cast<std::uint64_t>(pp::char_value(k, file)), false};
    if (k.kind == PK::Ident) return identifier(k);
    pp_.fail("syntax", k.pos, "'" + shown(k.text) + "' in an #if expression");
  }

  // A name left after expansion: 0, as C says, but for true, false, defined and __has_include.
  Value identifier(const PPToken& k) {
    if (k.text == "true") return {1, false};
    if (k.text == "defined") {  // one a macro's expansion made
      --p_;
      const std::size_t end = pp_.defined_operand(t_, p_);
      const PPToken& name = t_[end - (is_punct(t_[end], ")") ? 1 : 0)];
      p_ = end + 1;
      return {pp_.is_defined(name.text), false};
    }
    if (k.text == "__has_include") return {has_include(k), false};
    return {0, false};
  }

  bool has_include(const PPToken& k) {
    if (!at("(")) pp_.fail("syntax", k.pos, "__has_include needs (\"file\") or (<file>)");
    ++p_;
    if (p_ < t_.size() && t_[p_].kind == PK::String && t_[p_].text.front() == '"') {
      const std::string name = t_[p_].text.substr(1, t_[p_].text.size() - 2);
      ++p_;
      if (!at(")")) pp_.fail("syntax", pos(), "expected ')' after __has_include's file");
      ++p_;
      return pp_.has_include(name, k.pos);
    }
    while (p_ < t_.size() && !at(")")) ++p_;  // <file>: system headers count as there
    if (!at(")")) pp_.fail("syntax", k.pos, "__has_include's '(' is never closed");
    ++p_;
    return true;
  }

  const ConditionHost& pp_;
  const std::vector<PPToken>& t_;
  std::size_t p_ = 0;
};

}  // namespace

bool evaluate_condition(const ConditionHost& host, const std::vector<PPToken>& expr) { return Evaluator(host, expr).expression().v != 0; }

}  // namespace sv::cuda::pp
