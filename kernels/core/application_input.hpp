// The input side of scan's applications: the predicate of stream compaction and the requests of
// allocation, which make a run's input (run/request.hpp) before any trace exists.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/ops.hpp"
#include "core/payload.hpp"

namespace sv {

// The most cells an allocation's requests may add up to (its view draws every cell).
inline constexpr std::int64_t kMaxAllocatedCells = std::int64_t{1} << 24;

// A value of a numeric type as a double; throws std::invalid_argument for an interval.
double application_number(ValueType type, const Payload& v);

// A predicate over one element x: comparisons of x or x % K with a number (< <= > >= == !=), joined
// by && and ||, negated by !, grouped with parentheses: "x > 0", "x % 2 == 0", "x >= -3 && x < 5".
class Predicate {
 public:
  // Throws std::invalid_argument with one line naming the column and what was expected.
  static Predicate parse(std::string_view text);
  bool operator()(double x) const;
  const std::string& text() const { return text_; }

 private:
  struct Node {
    enum Kind : std::uint8_t { Compare, And, Or, Not } kind = Compare;
    int a = -1, b = -1;      // operands (node indices)
    double modulus = 0;      // Compare: x % modulus when nonzero
    std::string relation;    // Compare: < <= > >= == !=
    double constant = 0;     // Compare: the right-hand side
  };
  bool eval(int node, double x) const;
  std::string text_;
  std::vector<Node> nodes_;
  int root_ = -1;
  friend class PredicateParser;
};

// The scan's input for an application: the predicate of each value (0 or 1) for compaction; the
// requests themselves for allocation (each must be at least 0). Throws std::invalid_argument.
std::vector<Payload> compaction_flags(const Predicate& predicate, ValueType type, const std::vector<Payload>& values);
void check_requests(ValueType type, const std::vector<Payload>& requests);

}  // namespace sv
