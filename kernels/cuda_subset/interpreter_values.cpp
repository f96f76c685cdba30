// The values' conversions and arithmetic (cuda_subset/interpreter_values.hpp).
#include "cuda_subset/interpreter_values.hpp"

#include <bit>
#include <climits>
#include <cmath>

#include "emulator/block_emulator.hpp"

namespace sv::cuda {

void throw_fault(const std::string& file, const char* kind, SrcPos at, const std::string& what) {
  throw EmulationError(file + ":" + std::to_string(at.line) + ":" + std::to_string(at.col) + ": error: " + what, kind, at.line, at.col);
}

Value convert_value(const Value& v, Type from, Type to, bool symbolic_from, bool symbolic_to, SrcPos at, const Faulter& fault) {
  if (from == to || to.pointer) return v;
  Value r;
  r.origin = v.origin;
  if (symbolic_to) {
    if (symbolic_from) {
      r.iv = v.iv;
      return r;
    }
    const double num = is_floating(from.base) ? v.f : as_double(from.base, v.i);
    if (num != 0)
      fault("runtime", at, "the number " + std::to_string(num) + " cannot be a symbolic value (--op interval): only 0, the identity, can");
    r.iv = Interval::identity();
    r.origin = Origin::none();
    return r;
  }
  if (symbolic_from) {
    if (to.base == Base::Bool) fault("runtime", at, "testing a symbolic value (--op interval) as a condition");
    fault("runtime", at, "converting a symbolic value (--op interval) to " + type_name(to));
  }
  if (is_floating(to.base)) {
    const double num = is_floating(from.base) ? v.f : as_double(from.base, v.i);
    r.f = to.base == Base::Float ? static_cast<double>(static_cast<float>(num)) : num;
    return r;
  }
  if (is_floating(from.base)) {
    if (to.base == Base::Bool) {
      r.i = v.f != 0;
      return r;
    }
    const double limit = is_wide(to.base) ? 9223372036854775808.0 : 4294967296.0;
    if (!(std::abs(v.f) < limit))
      fault("runtime", at, "the value " + std::to_string(v.f) + " does not fit " + type_name(to));
    r.i = wrap(to.base, static_cast<std::int64_t>(v.f));
    return r;
  }
  r.i = wrap(to.base, v.i);
  return r;
}

Value numeric_binary(Value r, BinOp op, Base t, const Value& a, const Value& b, Base result_base, bool data, SrcPos at, const Faulter& fault) {
  if (op >= BinOp::Lt) {
    if (result_base == Base::Void) r.i = compare(op, std::pair(a.buf, a.i), std::pair(b.buf, b.i));  // two pointers
    else if (is_floating(t)) r.i = compare(op, a.f, b.f);
    else if (t == Base::ULong) r.i = compare(op, static_cast<std::uint64_t>(a.i), static_cast<std::uint64_t>(b.i));
    else r.i = compare(op, a.i, b.i);
    return r;
  }
  if (is_floating(t)) {
    const double x = a.f, y = b.f;
    double z = 0;
    switch (op) {
      case BinOp::Add: z = t == Base::Float ? static_cast<float>(x) + static_cast<float>(y) : x + y; break;
      case BinOp::Sub: z = t == Base::Float ? static_cast<float>(x) - static_cast<float>(y) : x - y; break;
      case BinOp::Mul: z = t == Base::Float ? static_cast<float>(x) * static_cast<float>(y) : x * y; break;
      case BinOp::Div: z = t == Base::Float ? static_cast<float>(x) / static_cast<float>(y) : x / y; break;
      default: fault("runtime", at, "integer operator on floating values");
    }
    r.f = z;
    return r;  // with the origin set above
  }
  const std::int64_t x = a.i, y = b.i;
  if (!data && (op == BinOp::Add || op == BinOp::Sub || op == BinOp::Mul)) check_signed_overflow(op, t, x, y, at, fault);
  switch (op) {
    case BinOp::Add: r.i = wrap(t, add64(x, y)); return r;
    case BinOp::Sub: r.i = wrap(t, sub64(x, y)); return r;
    case BinOp::Mul: r.i = wrap(t, mul64(x, y)); return r;
    case BinOp::Div:
    case BinOp::Mod:
      if (y == 0) fault("runtime", at, std::string(op == BinOp::Div ? "division" : "remainder") + " by zero in thread " + std::to_string(fault.thread));
      if (t == Base::ULong) {
        const auto ux = static_cast<std::uint64_t>(x), uy = static_cast<std::uint64_t>(y);
        r.i = static_cast<std::int64_t>(op == BinOp::Div ? ux / uy : ux % uy);
      } else if (y == -1) {
        r.i = wrap(t, op == BinOp::Div ? sub64(0, x) : 0);  // INT64_MIN / -1 wraps (C++ leaves it undefined)
      } else {
        r.i = wrap(t, op == BinOp::Div ? x / y : x % y);
      }
      return r;
    case BinOp::Shl:
    case BinOp::Shr: {
      const std::int64_t bits = is_wide(t) ? 64 : 32;
      if (y < 0 || y >= bits)
        fault("runtime", at, "shift by " + std::to_string(y) + " (outside 0.." + std::to_string(bits - 1) + ", undefined in C++) in thread " + std::to_string(fault.thread));
      if (op == BinOp::Shl) r.i = wrap(t, static_cast<std::int64_t>(static_cast<std::uint64_t>(x) << y));
      else if (t == Base::ULong) r.i = static_cast<std::int64_t>(static_cast<std::uint64_t>(x) >> y);
      else r.i = wrap(t, x >> y);
      return r;
    }
    case BinOp::BitAnd: r.i = wrap(t, x & y); return r;
    case BinOp::BitOr: r.i = wrap(t, x | y); return r;
    case BinOp::BitXor: r.i = wrap(t, x ^ y); return r;
    default: break;
  }
  return r;
}

void check_signed_overflow(BinOp op, Base t, std::int64_t x, std::int64_t y, SrcPos at, const Faulter& fault) {
  if (t != Base::Int && t != Base::Long) return;
  long long r = 0;
  bool over = false;
  if (op == BinOp::Add) over = __builtin_add_overflow(x, y, &r);
  else if (op == BinOp::Sub) over = __builtin_sub_overflow(x, y, &r);
  else over = __builtin_mul_overflow(x, y, &r);
  if (t == Base::Int) over = over || r < INT32_MIN || r > INT32_MAX;
  if (!over) return;
  static constexpr const char* sign[] = {"", "+", "-", "*"};
  fault("runtime", at, "signed overflow: " + std::to_string(x) + " " + sign[static_cast<int>(op)] + " " + std::to_string(y) + " does not fit " +
                              type_name(Type{t, false}) + " (undefined behaviour in C++ and CUDA) in thread " + std::to_string(fault.thread));
}

std::int64_t bit_intrinsic(BitsKind kind, bool wide, std::int64_t v) {
  const std::uint64_t x = wide ? static_cast<std::uint64_t>(v) : static_cast<std::uint32_t>(v);
  const int width = wide ? 64 : 32;
  switch (kind) {
    case BitsKind::Popc: return std::popcount(x);
    case BitsKind::Ffs: return x ? std::countr_zero(x) + 1 : 0;
    case BitsKind::Clz: return std::countl_zero(x) - (64 - width);
    case BitsKind::Brev: break;
  }
  std::uint64_t r = 0;
  for (int b = 0; b < width; ++b) r |= ((x >> b) & 1u) << (width - 1 - b);
  return wrap_integer(wide ? Base::ULong : Base::UInt, static_cast<std::int64_t>(r));
}

}  // namespace sv::cuda
