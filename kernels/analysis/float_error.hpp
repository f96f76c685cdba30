// The float lesson: a float sum's outputs against their exact sums, in units in the last place, and
// the order each output's inputs were added in (its addition tree, recovered from the trace's
// origins). The same input, added in another order, gives other bits: the sequential loop's error is
// beside each output for comparison.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace.hpp"

namespace sv {

// A float or double payload as a double (exact).
double float_value(ValueType type, const Payload& p);

// A block-level sum of floats or doubles recorded (any block algorithm, a kernel of your own).
bool float_errors_apply(const Trace& trace);

// One output cell. Exact sums are Shewchuk expansions (core/exact_sum.hpp): no rounding until the
// difference is taken, so `error` is the exact error rounded once to a double.
struct FloatOutput {
  std::int64_t cell = 0;
  std::int64_t first = 0, count = 0;  // the inputs it covers: first .. first + count - 1
  double value = 0;                   // the kernel's output
  double exact = 0;                   // the exact sum of those inputs, rounded to a double
  double error = 0;                   // value - exact
  double ulps = 0;                    // |error| in units in the last place of the type at `exact`
  double sequential = 0;              // the left-to-right loop's sum, in the trace's type
  double sequential_ulps = 0;
};

struct FloatErrors {
  ValueType type = ValueType::F32;
  std::vector<FloatOutput> outputs;
  double max_ulps = 0, mean_ulps = 0;                        // the kernel's
  double sequential_max_ulps = 0, sequential_mean_ulps = 0;  // the loop's on the same outputs
};

// Throws std::invalid_argument where float_errors_apply is false.
FloatErrors float_errors(const Trace& trace);

// The sequential loop's inclusive sums of `input` alone (outputs = the loop's sums; the chart's loop
// at sizes no block holds).
FloatErrors sequential_float_errors(ValueType type, const std::vector<Payload>& input);

// One node of an output's addition tree: a leaf is an input; an inner node one operator application
// of the trace (an Op event), its operands in the order the trace records them (a, b). Additions of
// the identity (an exclusive scan's, a padded cell's) are exact and left out.
struct AdditionNode {
  int left = -1, right = -1;  // inner: the operands' nodes
  std::int64_t input = -1;    // leaf: the input's index
  double value = 0;           // the input, or the sum after rounding
  double rounding = 0;        // inner: the exact sum of its operands minus value (0: exact)
  std::uint64_t seq = 0;      // inner: the Op event
  int depth = 0;              // additions on the longest way down to a leaf (0 for a leaf)
  std::int64_t lowest = 0, highest = 0;  // the inputs under it
  bool leaf() const { return left < 0; }
};

struct AdditionTree {
  std::vector<AdditionNode> nodes;
  int root = -1;  // -1: the output is the identity (no input)
  int additions() const;
  int inexact() const;  // additions whose rounding changed the sum
};

// The tree of output `cell`: its value's origins followed back through operator results, cells read
// (to the write the read saw) and copies, to the input cells. Throws std::invalid_argument for a
// cell out of range or a trace float_errors_apply refuses.
AdditionTree addition_tree(const Trace& trace, std::int64_t cell);

// The order as text: "x0+x1 then +x2 then +x3" for a left-to-right chain, else the operands in
// brackets ("(x0+x1)+(x2+x3)"), subtrees past `leaves` inputs written as their ranges ("(x0..x7)").
std::string addition_order_text(const AdditionTree& tree, int leaves = 8);

// What the float lesson says of one output: its order, how often it rounded, its error, and the
// sequential loop's: "y3 = (x0+x1)+(x2+x3): rounded 3 times (2 changed the sum), 2 additions deep;
// error 0.25 ULP. The sequential loop rounds 3 times before output 3, 3 deep: error 0.5 ULP."
std::string float_narration(const FloatOutput& out, const AdditionTree& tree);

// "x3" (an input), "y3" (an output).
std::string indexed_name(char prefix, std::int64_t i);

// "0.25", "3", "1.2e+06": an error in ULPs, short.
std::string ulps_text(double ulps);

// The chart's data: one trace's largest and mean ULP error (or the sequential loop's on its input).
struct FloatErrorPoint {
  std::string algorithm;  // "sequential": the loop
  std::int64_t n = 0;
  double max_ulps = 0, mean_ulps = 0;
};
FloatErrorPoint float_error_point(const FloatErrors& e, const std::string& algorithm, bool sequential);

// algorithm,n,max_ulps,mean_ulps
std::string float_error_csv(const std::vector<FloatErrorPoint>& points);

}  // namespace sv
