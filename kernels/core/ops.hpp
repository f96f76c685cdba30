// Scan operators: sum, product, min, max over int32/int64/float/double; the logical and/or (on truth
// values 0 and 1) and bitand/bitor/bitxor over int32/int64; and the symbolic interval.
//
// Each operator is a small functor with value_type, identity() and operator()(a, b) computing a ⊕ b
// (a is the earlier, lower-indexed operand). Integer sum and product wrap around (two's complement),
// which keeps them associative and free of undefined behaviour on overflow.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "core/hd.hpp"
#include "core/interval.hpp"

namespace sv {

// Appended in this order: a kind's number is its index in names and in the GUI's operator list.
enum class OpKind : std::uint8_t { Sum, Product, Min, Max, Interval, And, Or, BitAnd, BitOr, BitXor };
inline constexpr int kOpKindCount = 10;
enum class ValueType : std::uint8_t { I32, I64, F32, F64, Interval };

namespace detail {
template <class T>
SV_HD constexpr T wrap_add(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}
template <class T>
SV_HD constexpr T wrap_mul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}
template <class T>
SV_HD constexpr T lowest() {
  if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
  else return std::numeric_limits<T>::lowest();
}
template <class T>
SV_HD constexpr T highest() {
  if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::infinity();
  else return std::numeric_limits<T>::max();
}
}  // namespace detail

template <class T>
struct SumOp {
  using value_type = T;
  static constexpr OpKind kind = OpKind::Sum;
  SV_HD static constexpr T identity() { return T(0); }
  SV_HD constexpr T operator()(T a, T b) const { return detail::wrap_add(a, b); }
};

template <class T>
struct ProductOp {
  using value_type = T;
  static constexpr OpKind kind = OpKind::Product;
  SV_HD static constexpr T identity() { return T(1); }
  SV_HD constexpr T operator()(T a, T b) const { return detail::wrap_mul(a, b); }
};

template <class T>
struct MinOp {
  using value_type = T;
  static constexpr OpKind kind = OpKind::Min;
  SV_HD static constexpr T identity() { return detail::highest<T>(); }
  // NaN absorbs (a != a only for NaN), which keeps min associative with NaN inputs.
  SV_HD constexpr T operator()(T a, T b) const { return a != a ? a : b != b ? b : b < a ? b : a; }
};

template <class T>
struct MaxOp {
  using value_type = T;
  static constexpr OpKind kind = OpKind::Max;
  SV_HD static constexpr T identity() { return detail::lowest<T>(); }
  SV_HD constexpr T operator()(T a, T b) const { return a != a ? a : b != b ? b : a < b ? b : a; }
};

// Logical and/or on truth values (inputs 0 or 1, checked where inputs enter; results 0 or 1) and the
// bitwise and/or/xor: one functor over the kind, all on integers only.
template <class T, OpKind K>
struct IntegerOp {
  static_assert(std::is_integral_v<T>, "logical and bitwise operators take integers");
  using value_type = T;
  static constexpr OpKind kind = K;
  SV_HD static constexpr T identity() { return K == OpKind::And ? T(1) : K == OpKind::BitAnd ? T(~T(0)) : T(0); }
  SV_HD constexpr T operator()(T a, T b) const {
    if constexpr (K == OpKind::And) return a != 0 && b != 0 ? T(1) : T(0);
    else if constexpr (K == OpKind::Or) return a != 0 || b != 0 ? T(1) : T(0);
    else if constexpr (K == OpKind::BitAnd) return T(a & b);
    else if constexpr (K == OpKind::BitOr) return T(a | b);
    else return T(a ^ b);
  }
};
template <class T> using AndOp = IntegerOp<T, OpKind::And>;
template <class T> using OrOp = IntegerOp<T, OpKind::Or>;
template <class T> using BitAndOp = IntegerOp<T, OpKind::BitAnd>;
template <class T> using BitOrOp = IntegerOp<T, OpKind::BitOr>;
template <class T> using BitXorOp = IntegerOp<T, OpKind::BitXor>;

struct IntervalOp {
  using value_type = Interval;
  static constexpr OpKind kind = OpKind::Interval;
  SV_HD static constexpr Interval identity() { return Interval::identity(); }
  SV_HD constexpr Interval operator()(const Interval& a, const Interval& b) const { return combine(a, b); }
};

template <class T>
constexpr ValueType value_type_of() {
  if constexpr (std::is_same_v<T, std::int32_t>) return ValueType::I32;
  else if constexpr (std::is_same_v<T, std::int64_t>) return ValueType::I64;
  else if constexpr (std::is_same_v<T, float>) return ValueType::F32;
  else if constexpr (std::is_same_v<T, double>) return ValueType::F64;
  else {
    static_assert(std::is_same_v<T, Interval>, "unsupported scan value type");
    return ValueType::Interval;
  }
}

// Calls f(T{}) with the C++ type of `type` (value_type_of's inverse).
template <class F>
constexpr void visit_value_type(ValueType type, F&& f) {
  switch (type) {
    case ValueType::I32: f(std::int32_t{}); return;
    case ValueType::I64: f(std::int64_t{}); return;
    case ValueType::F32: f(float{}); return;
    case ValueType::F64: f(double{}); return;
    case ValueType::Interval: f(Interval{}); return;
  }
}

namespace detail {
struct SumTag { template <class T> using op = SumOp<T>; };
struct ProductTag { template <class T> using op = ProductOp<T>; };
struct MinTag { template <class T> using op = MinOp<T>; };
struct MaxTag { template <class T> using op = MaxOp<T>; };
template <OpKind K>
struct IntegerTag { template <class T> using op = IntegerOp<T, K>; };
}  // namespace detail

// The one dispatch from (kind, type) to an operator type: every executor instantiates its kernels here.
// Calls f(Op{}) for the operator named by (kind, type); returns false when the pair is not valid
// (interval goes only with the interval type, and the interval type only with the interval op; the
// logical and bitwise operators only with int32 and int64).
template <class F>
bool visit_op(OpKind kind, ValueType type, F&& f) {
  auto with_integer_type = [&](auto op_template_tag) -> bool {
    using Tag = decltype(op_template_tag);
    switch (type) {
      case ValueType::I32: f(typename Tag::template op<std::int32_t>{}); return true;
      case ValueType::I64: f(typename Tag::template op<std::int64_t>{}); return true;
      case ValueType::F32:
      case ValueType::F64:
      case ValueType::Interval: return false;
    }
    return false;
  };
  auto with_type = [&](auto op_template_tag) -> bool {
    using Tag = decltype(op_template_tag);
    switch (type) {
      case ValueType::I32: f(typename Tag::template op<std::int32_t>{}); return true;
      case ValueType::I64: f(typename Tag::template op<std::int64_t>{}); return true;
      case ValueType::F32: f(typename Tag::template op<float>{}); return true;
      case ValueType::F64: f(typename Tag::template op<double>{}); return true;
      case ValueType::Interval: return false;
    }
    return false;
  };
  switch (kind) {
    case OpKind::Sum: return with_type(detail::SumTag{});
    case OpKind::Product: return with_type(detail::ProductTag{});
    case OpKind::Min: return with_type(detail::MinTag{});
    case OpKind::Max: return with_type(detail::MaxTag{});
    case OpKind::Interval:
      if (type != ValueType::Interval) return false;
      f(IntervalOp{});
      return true;
    case OpKind::And: return with_integer_type(detail::IntegerTag<OpKind::And>{});
    case OpKind::Or: return with_integer_type(detail::IntegerTag<OpKind::Or>{});
    case OpKind::BitAnd: return with_integer_type(detail::IntegerTag<OpKind::BitAnd>{});
    case OpKind::BitOr: return with_integer_type(detail::IntegerTag<OpKind::BitOr>{});
    case OpKind::BitXor: return with_integer_type(detail::IntegerTag<OpKind::BitXor>{});
  }
  return false;
}

}  // namespace sv
