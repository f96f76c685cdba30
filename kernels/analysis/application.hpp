// The applications of scan the slides list, as pure functions of a trace whose scan they use:
// stream compaction (keep the elements that pass a predicate; the exclusive sum of the predicate gives
// each kept element its output slot) and allocation (the exclusive sum of the requests gives each its
// offset: [8,6,7,5,3,0,9] -> [0,8,14,21,26,29,29]). The scan is a traced kernel run like any other;
// the scatter is derived here from the scan the trace recorded, so a wrong scan scatters wrongly.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/payload.hpp"
#include "trace/trace.hpp"

namespace sv {

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

// The four rows a student reads, from a trace with meta.application set.
struct ApplicationView {
  std::string kind;                      // "compact" or "allocate"
  std::vector<Payload> input;            // compact: the elements; allocate: the requests
  std::vector<std::int64_t> marks;       // compact: the predicate (0 or 1); allocate: the requests
  std::vector<std::int64_t> scan;        // the exclusive sum the trace's kernel produced (slots, offsets)
  std::int64_t total = 0;                // kept elements, or cells allocated (last scan + last mark)
  // The scattered output: for each output cell, the element that went there (-1: none). Compaction:
  // out[scan[i]] = input[i] where marks[i]; allocation: cells scan[i] .. scan[i] + marks[i] - 1 owned by i.
  std::vector<std::int64_t> owner;
  std::int64_t collisions = 0;           // cells claimed twice (a wrong scan)
  bool correct = true;                   // the scan matched the reference and nothing collided
};

// Throws std::invalid_argument when the trace has no application (or an inconsistent one).
ApplicationView application_view(const Trace& trace);

}  // namespace sv
