// Host-side handling of type-erased values: names, text form, comparison, the sequential reference
// scan that every test uses, and seeded random inputs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ops.hpp"
#include "core/payload.hpp"

namespace sv {

std::string_view op_name(OpKind op);
std::string_view type_name(ValueType type);
std::optional<OpKind> parse_op_name(std::string_view s);
std::optional<ValueType> parse_type_name(std::string_view s);
// "sum, product, ..., bitor or bitxor": every operator name, for messages.
std::string op_names_text();
// and, or: scans of truth values (inputs 0 or 1).
bool is_logical_op(OpKind op);
// The value type an operator uses when none is given: interval for the interval operator, else int32.
ValueType default_type_for(OpKind op);
// Throws std::invalid_argument naming the problem when the operator does not go with the type.
void check_op_type(OpKind op, ValueType type);
// Throws std::invalid_argument naming the first value the operator does not take: and/or take 0 or 1.
void check_op_values(OpKind op, ValueType type, const std::vector<Payload>& values);

// The text of a value as the slides write it: 7, -2.5, inf, x3, x0..x3, ID, and for an invalid
// interval the two ranges it combined: !x1..x4,x3..x6.
std::string format_value(ValueType type, const Payload& v);
// Parses what format_value writes. Returns nullopt on anything else (no exception).
std::optional<Payload> parse_value(ValueType type, std::string_view text);

// "3, 6, 7" or "x0,x1": comma-separated values, blanks around each ignored. Throws
// std::invalid_argument naming the bad item ("'x' is not a int32 value", "empty value at position 2").
std::vector<Payload> parse_value_list(std::string_view text, ValueType type);

Payload identity_of(OpKind op, ValueType type);
Payload apply_op(OpKind op, ValueType type, const Payload& a, const Payload& b);

// Equality of scan results: exact for integers and intervals; for floating point a tolerance that
// absorbs the reassociation a parallel scan does, 4·eps·(n_terms + 1)·max(1, |expected|, scale)
// (same infinities, NaN equals NaN). A sum's scale should be the sum of |x| over its terms: a
// reassociated sum with cancellation can differ from the sequential one by that much.
bool values_match(ValueType type, const Payload& expected, const Payload& actual, std::size_t n_terms,
                  double scale = 0);

// The indices where `output` differs from the reference scan of `input` (with the tolerance above).
// `flags` (empty: one segment) are the segment heads of a segmented scan.
std::vector<std::int64_t> mismatches(OpKind op, ValueType type, const std::vector<Payload>& input, bool exclusive,
                                     const std::vector<Payload>& reference, const std::vector<Payload>& output,
                                     const std::vector<std::uint8_t>& flags = {});

// The one sequential reference scan: y[i] = x0 ⊕ ... ⊕ xi (inclusive) or x0 ⊕ ... ⊕ x(i-1). With
// segment flags (same length as the input; empty: one segment) the scan restarts at every element
// whose flag is set: y[i] = xh ⊕ ... ⊕ xi, h the last head at or before i (exclusive: the identity at
// a head, else xh ⊕ ... ⊕ x(i-1)).
std::vector<Payload> reference_scan(OpKind op, ValueType type, const std::vector<Payload>& input, bool exclusive,
                                    const std::vector<std::uint8_t>& flags = {});

// Seeded random input suited to the operator: small integers for sums (exact in floating point too),
// factors near one for products, wide values for min and max, x0..x(n-1) for intervals, truth values
// mostly the identity for and/or, random bits for bitand/bitor/bitxor.
std::vector<Payload> random_input(OpKind op, ValueType type, std::size_t n, std::uint64_t seed);

// The slides' example input 3 6 7 4 8 2 1 9 (PMPP ch. 11), repeated to length n; x0..x(n-1) for intervals;
// for and/or whether each is odd, 1 0 1 0 0 0 1 1.
std::vector<Payload> slides_input(OpKind op, ValueType type, std::size_t n);

}  // namespace sv
