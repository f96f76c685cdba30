// The values a kernel's threads compute with, and what the interpreter does to them without memory or
// the emulator: conversions, the arithmetic of C's operators and the faults C++ leaves undefined
// (interpreter_values.cpp). Not for use outside cuda_subset/.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "core/interval.hpp"
#include "cuda_subset/ast.hpp"
#include "trace/event.hpp"

namespace sv::cuda {

struct Value {
  std::int64_t i = 0;  // bool, int and unsigned values (normalized to their type); a pointer's offset
  double f = 0;        // float and double values
  Interval iv;         // floating values of a symbolic run (--op interval)
  Origin origin;       // where an element value came from (the dataflow arrows)
  std::int32_t buf = -1;  // a pointer's buffer
  std::uint32_t taint = 0;  // computed from a cell read before anything was written to it: that read's line
};

inline std::uint32_t taint_of(const Value& a, const Value& b) { return a.taint ? a.taint : b.taint; }

template <class T>
bool compare(BinOp op, T x, T y) {
  switch (op) {
    case BinOp::Lt: return x < y;
    case BinOp::Gt: return x > y;
    case BinOp::Le: return x <= y;
    case BinOp::Ge: return x >= y;
    case BinOp::Eq: return x == y;
    default: return x != y;
  }
}

inline std::int64_t wrap(Base b, std::int64_t v) { return wrap_integer(b, v); }

// Two's-complement arithmetic on 64 bits, without the signed overflow C++ leaves undefined.
inline std::int64_t add64(std::int64_t x, std::int64_t y) { return static_cast<std::int64_t>(static_cast<std::uint64_t>(x) + static_cast<std::uint64_t>(y)); }
inline std::int64_t sub64(std::int64_t x, std::int64_t y) { return static_cast<std::int64_t>(static_cast<std::uint64_t>(x) - static_cast<std::uint64_t>(y)); }
inline std::int64_t mul64(std::int64_t x, std::int64_t y) { return static_cast<std::int64_t>(static_cast<std::uint64_t>(x) * static_cast<std::uint64_t>(y)); }

// An integer's value as a double, read as its base says (an unsigned long long's bits as unsigned).
inline double as_double(Base b, std::int64_t v) { return b == Base::ULong ? static_cast<double>(static_cast<std::uint64_t>(v)) : static_cast<double>(v); }

// a ⊕ b of the symbolic run: the slides' operator, whichever side the kernel writes the lower range on.
struct EitherOrderInterval {
  using value_type = Interval;
  Interval operator()(const Interval& a, const Interval& b) const {
    if (a.is_range() && b.is_range() && static_cast<long long>(b.hi) + 1 == a.lo) return combine(b, a);
    return combine(a, b);
  }
};

// A fault of the values, said with the kernel's file and the thread that met it (EmulationError).
[[noreturn]] void throw_fault(const std::string& file, const char* kind, SrcPos at, const std::string& what);
struct Faulter {
  const std::string& file;
  std::int32_t thread = 0;
  [[noreturn]] void operator()(const char* kind, SrcPos at, const std::string& what) const { throw_fault(file, kind, at, what); }
};

// `v` of type `from` as type `to` (C's conversions; a symbolic side: only 0 becomes an interval, the
// identity). Faults where a floating value does not fit the integer type.
Value convert_value(const Value& v, Type from, Type to, bool symbolic_from, bool symbolic_to, SrcPos at, const Faulter& fault);

// a op b of base t, numbers only (comparisons, floating and integer arithmetic), into `r` (its origin
// kept). `data`: an operand was computed from the data, whose sums wrap instead of overflowing.
Value numeric_binary(Value r, BinOp op, Base t, const Value& a, const Value& b, Base result_base, bool data, SrcPos at, const Faulter& fault);

// __popc, __ffs (the first set bit from 1, 0 for none), __clz and __brev of `v` as an unsigned 32-bit
// value, or 64-bit when `wide`; the result as the interpreter holds an integer of its type.
std::int64_t bit_intrinsic(BitsKind kind, bool wide, std::int64_t v);

// A signed int or long long whose + - * leaves its range is undefined behaviour in C++ and CUDA (an
// optimizer may assume it never happens: nvcc turns `for (int s = 1; s > 0; s *= 2)` into a loop
// that runs on). The scan's own values wrap instead, as the reference's do on full-range inputs;
// so only values not computed from the data (indices, strides, counters) are checked.
void check_signed_overflow(BinOp op, Base t, std::int64_t x, std::int64_t y, SrcPos at, const Faulter& fault);

}  // namespace sv::cuda
