// The predicate parser and the checks of allocation's requests (application_input.hpp).
#include "core/application_input.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "core/values.hpp"

namespace sv {

double application_number(ValueType type, const Payload& v) {
  switch (type) {
    case ValueType::I32: return v.as<std::int32_t>();
    case ValueType::I64: return static_cast<double>(v.as<std::int64_t>());
    case ValueType::F32: return v.as<float>();
    case ValueType::F64: return v.as<double>();
    case ValueType::Interval: break;
  }
  throw std::invalid_argument("compaction and allocation take numbers, not intervals");
}

namespace {

Payload of_count(ValueType type, std::int64_t c) {
  return type == ValueType::I64 ? Payload::of(c) : Payload::of(static_cast<std::int32_t>(c));
}

}  // namespace

// ---- the predicate ----

// Recursive descent over: expr := conj ('||' conj)*; conj := unary ('&&' unary)*;
// unary := '!' unary | '(' expr ')' | 'x' ['%' number] relation number.
class PredicateParser {
 public:
  PredicateParser(Predicate& p, std::string_view s) : p_(p), s_(s) {}

  void parse() {
    p_.root_ = expr();
    skip();
    if (i_ < s_.size()) fail("&&, || or the end");
  }

 private:
  [[noreturn]] void fail(const std::string& expected) const {
    const std::string found = i_ < s_.size() ? "'" + std::string(1, s_[i_]) + "'" : "the end";
    throw std::invalid_argument("predicate '" + std::string(s_) + "': expected " + expected + " at column " +
                                std::to_string(i_ + 1) + ", found " + found + " (e.g. x > 0, x % 2 == 0)");
  }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool take(std::string_view tok) {
    skip();
    if (s_.substr(i_, tok.size()) != tok) return false;
    i_ += tok.size();
    return true;
  }
  int add(Predicate::Node n) {
    p_.nodes_.push_back(std::move(n));
    return static_cast<int>(p_.nodes_.size()) - 1;
  }
  int add(Predicate::Node::Kind kind, int a, int b = -1) {
    Predicate::Node n;
    n.kind = kind;
    n.a = a;
    n.b = b;
    return add(std::move(n));
  }
  int expr() {
    int a = conj();
    while (take("||")) a = add(Predicate::Node::Or, a, conj());
    return a;
  }
  int conj() {
    int a = unary();
    while (take("&&")) a = add(Predicate::Node::And, a, unary());
    return a;
  }
  int unary() {
    skip();
    if (s_.substr(i_, 1) == "!" && s_.substr(i_, 2) != "!=") {
      ++i_;
      return add(Predicate::Node::Not, unary());
    }
    if (take("(")) {
      const int e = expr();
      if (!take(")")) fail("')'");
      return e;
    }
    Predicate::Node n;
    if (!take("x")) fail("x, ! or (");
    if (take("%")) {
      n.modulus = number();
      if (n.modulus == 0 || n.modulus != std::floor(n.modulus)) fail("before it a whole modulus other than 0");
    }
    for (std::string_view r : {"<=", ">=", "==", "!=", "<", ">"})
      if (take(r)) {
        n.relation = std::string(r);
        break;
      }
    if (n.relation.empty()) fail("a comparison (<, <=, >, >=, ==, !=)");
    n.constant = number();
    return add(n);
  }
  double number() {
    skip();
    const std::string rest(s_.substr(i_));
    char* end = nullptr;
    const double v = std::strtod(rest.c_str(), &end);
    if (end == rest.c_str() || !std::isfinite(v) || std::isalpha(static_cast<unsigned char>(rest[0]))) fail("a number");
    i_ += static_cast<std::size_t>(end - rest.c_str());
    return v;
  }

  Predicate& p_;
  std::string_view s_;
  std::size_t i_ = 0;
};

Predicate Predicate::parse(std::string_view text) {
  Predicate p;
  p.text_ = std::string(text);
  PredicateParser(p, text).parse();
  return p;
}

bool Predicate::eval(int node, double x) const {
  const Node& n = nodes_[node];
  switch (n.kind) {
    case Node::And: return eval(n.a, x) && eval(n.b, x);
    case Node::Or: return eval(n.a, x) || eval(n.b, x);
    case Node::Not: return !eval(n.a, x);
    case Node::Compare: break;
  }
  const double l = n.modulus != 0 ? std::fmod(x, n.modulus) : x;  // C's %: the sign of x
  const double r = n.constant;
  if (n.relation == "<") return l < r;
  if (n.relation == "<=") return l <= r;
  if (n.relation == ">") return l > r;
  if (n.relation == ">=") return l >= r;
  if (n.relation == "==") return l == r;
  return l != r;
}

bool Predicate::operator()(double x) const { return eval(root_, x); }

// ---- the scan's inputs ----

std::vector<Payload> compaction_flags(const Predicate& predicate, ValueType type, const std::vector<Payload>& values) {
  std::vector<Payload> out;
  out.reserve(values.size());
  for (const Payload& v : values) out.push_back(of_count(type, predicate(application_number(type, v)) ? 1 : 0));
  return out;
}

void check_requests(ValueType type, const std::vector<Payload>& requests) {
  std::int64_t total = 0;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const double r = application_number(type, requests[i]);
    if (r < 0)
      throw std::invalid_argument("request " + format_value(type, requests[i]) + " at position " + std::to_string(i) +
                                  " is negative");
    total += static_cast<std::int64_t>(r);
    if (total > kMaxAllocatedCells)
      throw std::invalid_argument("the requests add up to more than " + std::to_string(kMaxAllocatedCells) +
                                  " cells, more than the allocation view draws");
  }
}

}  // namespace sv
