// Expressions: C's operators, conversions and casts, pointers, calls of the file's functions and of the
// CUDA functions scanviz knows (parser_impl.hpp).
#include <algorithm>
#include <functional>
#include <optional>
#include <set>

#include "cuda_subset/parser_impl.hpp"

namespace sv::cuda::parse {

ExprP Parser::node(EK kind, SrcPos at, Type type) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->pos = at;
  e->type = type;
  return e;
}

ExprP Parser::expression() {
  ExprP e = assignment();
  while (at_is(",")) {
    const SrcPos at = cur().pos;
    ++i_;
    Depth depth(*this, at);
    ExprP rhs = assignment();
    auto c = node(EK::Comma, at, rhs->type);
    c->a = std::move(e);
    c->b = std::move(rhs);
    e = seal(std::move(c));
  }
  return e;
}

Param* Parser::param_behind(const Expr& e) const {
  const Expr* root = &e;
  while (root->kind == EK::PtrAdd || root->kind == EK::Cast) root = root->a.get();
  if (root->kind != EK::Local || !params_) return nullptr;
  for (Param& p : *params_)
    if (p.slot == root->ival) return &p;
  return nullptr;
}

void Parser::mark_access(const Expr& target, bool write) {
  if (target.kind != EK::Index) return;
  if (Param* p = param_behind(*target.a)) (write ? p->written : p->read) = true;
}

ExprP Parser::pointer_add(ExprP p, ExprP offset, bool subtract, SrcPos at) {
  if (!is_integer(offset->type.base) || offset->type.pointer) fail("syntax", offset->pos, "a pointer moves by an integer, not " + type_name(offset->type));
  if (p->type.base == Base::Void) fail("unsupported", at, "arithmetic on a void pointer: cast it to the element's type first");
  auto e = node(EK::PtrAdd, at, p->type);
  e->op = subtract ? 1 : 0;
  e->a = std::move(p);
  e->b = convert(std::move(offset), {Base::Long, false}, "move by");
  return seal(std::move(e));
}

ExprP Parser::pointer_to(ExprP e, Type to, const char* verb) {
  if (e->type == to) return e;
  if (e->type.pointer && e->type.base == Base::Void && e->kind == EK::IntLit) {  // nullptr
    e->type = to;
    return e;
  }
  fail("syntax", e->pos, std::string("cannot ") + verb + " " + type_name(to) + " with " + type_name(e->type) +
                             (e->type.pointer ? " (cast it: (" + type_name(to) + ")p)" : ""));
}

ExprP Parser::assignment() {
  ExprP lhs = conditional();
  static constexpr std::pair<std::string_view, BinOp> ops[] = {
      {"=", BinOp::None}, {"+=", BinOp::Add}, {"-=", BinOp::Sub}, {"*=", BinOp::Mul}, {"/=", BinOp::Div},
      {"%=", BinOp::Mod}, {"<<=", BinOp::Shl}, {">>=", BinOp::Shr}, {"&=", BinOp::BitAnd}, {"|=", BinOp::BitOr},
      {"^=", BinOp::BitXor}};
  for (const auto& [text, op] : ops) {
    if (!at_is(text)) continue;
    const SrcPos at = cur().pos;
    ++i_;
    Depth depth(*this, at);
    if (!lvalue(*lhs)) fail("syntax", at, "the left of '" + std::string(text) + "' is not assignable");
    ExprP rhs = assignment();
    BinOp stored = op;
    if (lhs->type.pointer) {
      if (lhs->kind != EK::Local) fail("unsupported", at, "storing a pointer in memory is not read");
      if (op == BinOp::Add || op == BinOp::Sub) {  // p += i: p = p + i
        auto same = node(EK::Local, lhs->pos, lhs->type);
        same->ival = lhs->ival;
        rhs = pointer_add(std::move(same), std::move(rhs), op == BinOp::Sub, at);
        stored = BinOp::None;
      } else if (op != BinOp::None) {
        fail("syntax", at, "operator '" + std::string(text) + "' on a pointer");
      } else {
        rhs = pointer_to(std::move(rhs), lhs->type, "assign");
      }
    } else if (op != BinOp::None) {
      check_binary(op, *lhs, *rhs, at);
      const Type result = arithmetic_result(lhs->type, rhs->type);  // before rhs is moved: arguments have no order
      rhs = convert(std::move(rhs), result, "combine");
    } else {
      rhs = convert(std::move(rhs), lhs->type, "assign");
    }
    mark_access(*lhs, true);
    if (stored != BinOp::None) mark_access(*lhs, false);
    auto e = node(EK::Assign, at, lhs->type);
    e->op = static_cast<std::uint8_t>(stored);
    e->a = std::move(lhs);
    e->b = std::move(rhs);
    return seal(std::move(e));
  }
  return lhs;
}

ExprP Parser::conditional() {
  ExprP c = binary(0);
  if (!at_is("?")) return c;
  const SrcPos at = cur().pos;
  ++i_;
  Depth depth(*this, at);
  ExprP a = expression();
  expect(":");
  ExprP b = conditional();
  Type t;
  if (a->type.pointer || b->type.pointer) {
    t = a->type.base == Base::Void ? b->type : a->type;
    a = pointer_to(std::move(a), t, "choose");
    b = pointer_to(std::move(b), t, "choose");
  } else {
    t = arithmetic_result(a->type, b->type);
    if (a->type.base == Base::Bool && b->type.base == Base::Bool) t = a->type;
  }
  auto e = node(EK::Cond, at, t);
  e->a = to_bool(std::move(c));
  e->b = convert(std::move(a), t, "choose");
  e->c = convert(std::move(b), t, "choose");
  return seal(std::move(e));
}

const Parser::BinInfo* Parser::binary_at(const Token& t) {
  static constexpr BinInfo infos[] = {
      {"||", 1, BinOp::None, false, true}, {"&&", 2, BinOp::None, true, false}, {"|", 3, BinOp::BitOr},
      {"^", 4, BinOp::BitXor}, {"&", 5, BinOp::BitAnd}, {"==", 6, BinOp::Eq}, {"!=", 6, BinOp::Ne},
      {"<", 7, BinOp::Lt}, {">", 7, BinOp::Gt}, {"<=", 7, BinOp::Le}, {">=", 7, BinOp::Ge},
      {"<<", 8, BinOp::Shl}, {">>", 8, BinOp::Shr}, {"+", 9, BinOp::Add}, {"-", 9, BinOp::Sub},
      {"*", 10, BinOp::Mul}, {"/", 10, BinOp::Div}, {"%", 10, BinOp::Mod}};
  if (t.kind != Tok::Punct) return nullptr;
  for (const BinInfo& b : infos)
    if (b.text == t.text) return &b;
  return nullptr;
}

Type Parser::arithmetic_result(Type a, Type b) {
  if (a.base == Base::Double || b.base == Base::Double) return {Base::Double, false};
  if (a.base == Base::Float || b.base == Base::Float) return {Base::Float, false};
  if (a.base == Base::ULong || b.base == Base::ULong) return {Base::ULong, false};
  if (a.base == Base::Long || b.base == Base::Long) return {Base::Long, false};
  if (a.base == Base::UInt || b.base == Base::UInt) return {Base::UInt, false};
  return {Base::Int, false};
}

void Parser::check_binary(BinOp op, const Expr& a, const Expr& b, SrcPos at) const {
  if (a.type.pointer || b.type.pointer) {
    if (op >= BinOp::Lt) {
      if (!a.type.pointer || !b.type.pointer || (a.type != b.type && a.type.base != Base::Void && b.type.base != Base::Void))
        fail("syntax", at, "comparing " + type_name(a.type) + " with " + type_name(b.type));
      return;
    }
    fail("unsupported", at, "this pointer arithmetic is not read (p + i, p - i, &a[i] and *p are)");
  }
  const bool ints = op == BinOp::Mod || op == BinOp::Shl || op == BinOp::Shr || op == BinOp::BitAnd ||
                    op == BinOp::BitOr || op == BinOp::BitXor;
  if (ints && (!is_integer(a.type.base) || !is_integer(b.type.base)))
    fail("syntax", at, "operator needs integer operands, not " + type_name(a.type) + " and " + type_name(b.type));
  if (a.type.base == Base::Void || b.type.base == Base::Void) fail("syntax", at, "a void value in an expression");
}

ExprP Parser::binary(int min_prec) {
  ExprP lhs = unary();
  while (const BinInfo* info = binary_at(cur())) {
    if (info->prec <= min_prec) break;
    if (launch_config_ && (at_is(">>") || at_is(">"))) break;  // <<<GRID, BLOCK>>>: the launch's end
    const SrcPos at = cur().pos;
    ++i_;
    Depth depth(*this, at);
    ExprP rhs = binary(info->prec);
    if (info->logical_and || info->logical_or) {
      auto e = node(info->logical_and ? EK::And : EK::Or, at, {Base::Bool, false});
      e->a = to_bool(std::move(lhs));
      e->b = to_bool(std::move(rhs));
      lhs = seal(std::move(e));
      continue;
    }
    if ((info->op == BinOp::Add || info->op == BinOp::Sub) && lhs->type.pointer && !rhs->type.pointer) {
      lhs = pointer_add(std::move(lhs), std::move(rhs), info->op == BinOp::Sub, at);
      continue;
    }
    if (info->op == BinOp::Add && rhs->type.pointer && !lhs->type.pointer) {
      lhs = pointer_add(std::move(rhs), std::move(lhs), false, at);
      continue;
    }
    check_binary(info->op, *lhs, *rhs, at);
    const bool compare = info->op >= BinOp::Lt;
    if (lhs->type.pointer) {  // two pointers compared
      auto e = node(EK::Binary, at, Type{Base::Bool, false});
      e->op = static_cast<std::uint8_t>(info->op);
      e->a = std::move(lhs);
      e->b = std::move(rhs);
      lhs = seal(std::move(e));
      continue;
    }
    const Type common = arithmetic_result(lhs->type, rhs->type);
    Type operand = common;
    const bool shift = info->op == BinOp::Shl || info->op == BinOp::Shr;
    if (shift) operand = arithmetic_result(lhs->type, {Base::Int, false});  // the left operand's promoted type
    auto e = node(EK::Binary, at, compare ? Type{Base::Bool, false} : operand);
    e->op = static_cast<std::uint8_t>(info->op);
    e->a = convert(std::move(lhs), operand, "compute");
    e->b = shift ? convert(std::move(rhs), {Base::Int, false}, "shift") : convert(std::move(rhs), common, "compute");
    lhs = seal(std::move(e));
  }
  return lhs;
}

ExprP Parser::to_bool(ExprP e) {
  if (e->type.base == Base::Void && !e->type.pointer) fail("syntax", e->pos, "a void value used as a condition");
  if (e->type.pointer) {  // if (p): p != nullptr
    auto null = node(EK::IntLit, e->pos, e->type);
    auto c = node(EK::Binary, e->pos, {Base::Bool, false});
    c->op = static_cast<std::uint8_t>(BinOp::Ne);
    c->a = std::move(e);
    c->b = std::move(null);
    return seal(std::move(c));
  }
  if (e->type.base == Base::Bool) return e;
  return convert(std::move(e), {Base::Bool, false}, "test");
}

ExprP Parser::convert(ExprP e, Type to, const char* verb) {
  if (e->type == to) return e;
  if (e->type.pointer || to.pointer) {
    if (e->type.pointer && to.pointer) return pointer_to(std::move(e), to, verb);
    fail("syntax", e->pos, std::string("cannot ") + verb + " " + type_name(to) + " with " + type_name(e->type));
  }
  if (e->type.base == Base::Void) fail("syntax", e->pos, "a void value in an expression");
  if (to.base == Base::Void) return e;  // (void)x: evaluated, its value unused
  auto c = node(EK::Cast, e->pos, to);
  c->a = std::move(e);
  return seal(std::move(c));
}

ExprP Parser::cast_to(Type t, ExprP a, SrcPos at) {
  if (t.pointer || a->type.pointer) {
    if (!t.pointer || !a->type.pointer) fail("unsupported", at, "casting " + type_name(a->type) + " to " + type_name(t));
    if (a->kind == EK::IntLit) {  // a null pointer
      a->type = t;
      return a;
    }
    if (a->kind == EK::Api && a->op == static_cast<std::uint8_t>(ApiKind::Alloc) && a->type.base == Base::Void) {
      a->type = t;  // (float*)malloc(bytes): the cells are bytes / sizeof(float)
      return a;
    }
    auto e = node(EK::Cast, at, t);
    e->a = std::move(a);
    return seal(std::move(e));
  }
  if (t.base == Base::Void) return a;
  auto e = node(EK::Cast, at, t);
  e->a = std::move(a);
  return seal(std::move(e));
}

Type Parser::cast_type() {
  Type t = base_type();
  if (accept("*")) t.pointer = true;
  while (at_ident("const")) ++i_;
  if (at("*")) fail("unsupported", cur().pos, "pointers to pointers are not read");
  return t;
}

ExprP Parser::unary() {
  const SrcPos at = cur().pos;
  Depth depth(*this, at);
  static constexpr std::pair<std::string_view, UnOp> ops[] = {{"-", UnOp::Neg}, {"+", UnOp::Plus}, {"!", UnOp::Not}, {"~", UnOp::BitNot}};
  for (const auto& [text, op] : ops)
    if (at_is(text)) {
      ++i_;
      ExprP a = unary();
      if (op == UnOp::Not) a = to_bool(std::move(a));
      if (a->type.pointer) fail("unsupported", at, "operator '" + std::string(text) + "' on a pointer");
      if (op == UnOp::BitNot && !is_integer(a->type.base)) fail("syntax", at, "'~' needs an integer");
      Type t = op == UnOp::Not ? Type{Base::Bool, false} : a->type.base == Base::Bool ? Type{Base::Int, false} : a->type;
      auto e = node(EK::Unary, at, t);
      e->op = static_cast<std::uint8_t>(op);
      e->a = convert(std::move(a), t.base == Base::Bool ? Type{Base::Bool, false} : t, "negate");
      return seal(std::move(e));
    }
  if (at_is("++") || at_is("--")) {
    const bool dec = at_is("--");
    ++i_;
    ExprP a = unary();
    return incdec(std::move(a), dec, true, at);
  }
  if (accept("&")) {
    ExprP a = unary();
    if (a->kind == EK::Index) {  // &a[i]: a + i
      ExprP base = std::move(a->a), index = std::move(a->b);
      return pointer_add(std::move(base), std::move(index), false, at);
    }
    if (a->kind == EK::SharedScalar) {  // the scalar's one cell
      a->kind = EK::Shared;
      a->type.pointer = true;
      return a;
    }
    fail("unsupported", at, "the address of a local variable is not read (a local lives in the thread's registers): use a __shared__ array");
  }
  if (accept("*")) {  // *p: p[0]
    ExprP p = unary();
    if (!p->type.pointer) fail("syntax", at, "dereferencing " + type_name(p->type) + ", which is not a pointer");
    if (p->type.base == Base::Void) fail("syntax", at, "dereferencing a void pointer");
    auto ix = node(EK::Index, at, Type{p->type.base, false});
    ix->a = std::move(p);
    ix->b = literal_int(0, at);
    mark_access(*ix, false);
    return seal(std::move(ix));
  }
  if (at_ident("sizeof")) {
    ++i_;
    std::int64_t size = 0;
    if (at_is("(") && t_[i_ + 1].kind == Tok::Ident && (is_type_word(t_[i_ + 1].text) || alias_of(t_[i_ + 1].text))) {
      ++i_;
      size = size_of(cast_type());
      expect(")");
    } else {
      ExprP a = unary();
      size = size_of(a->type);
      if (a->kind == EK::Shared) {  // an array: all its cells
        const SharedVar& v = (shared_ ? *shared_ : file_shared_)[static_cast<std::size_t>(a->ival)];
        size = size_of(v.elem) * v.length;
      }
    }
    return literal_int(size, at, Base::ULong);
  }
  if (at_is("(") && t_[i_ + 1].kind == Tok::Ident && (is_type_word(t_[i_ + 1].text) || alias_of(t_[i_ + 1].text))) {
    ++i_;
    const Type t = cast_type();
    expect(")");
    return cast_to(t, unary(), at);
  }
  return postfix();
}

ExprP Parser::incdec(ExprP a, bool dec, bool prefix, SrcPos at) {
  if (!lvalue(*a)) fail("syntax", at, std::string("the operand of '") + (dec ? "--" : "++") + "' is not assignable");
  if (a->type.pointer) fail("unsupported", at, "++ and -- on a pointer are not read: write p += 1");
  mark_access(*a, true);
  mark_access(*a, false);
  auto e = node(EK::IncDec, at, a->type);
  e->op = dec ? 1 : 0;
  e->prefix = prefix;
  e->a = std::move(a);
  return seal(std::move(e));
}

ExprP Parser::postfix() {
  ExprP e = primary();
  while (true) {
    const SrcPos at = cur().pos;
    if (accept("[")) {
      Depth depth(*this, at);
      if (!e->type.pointer) fail("syntax", at, "indexing something that is not an array or a pointer");
      if (e->type.base == Base::Void) fail("syntax", at, "indexing a void pointer: cast it to the element's type first");
      ExprP index = expression();
      expect("]");
      if (index->type.pointer || !is_integer(index->type.base)) fail("syntax", index->pos, "an array index must be an integer, not " + type_name(index->type));
      auto ix = node(EK::Index, at, Type{e->type.base, false});
      ix->a = std::move(e);
      ix->b = std::move(index);
      mark_access(*ix, false);
      e = seal(std::move(ix));
      if (at_is("[")) fail("unsupported", cur().pos, "multi-dimensional arrays are not read: index one array (a[row * WIDTH + col])");
    } else if (at_is("++") || at_is("--")) {
      const bool dec = at_is("--");
      ++i_;
      e = incdec(std::move(e), dec, false, at);
    } else if (at_is(".") || at_is("->")) {
      fail("unsupported", at, "member access is not read (structs are not)");
    } else if (at_is("(")) {
      fail("unsupported", at, "calling this is not read");
    } else {
      return e;
    }
  }
}

ExprP Parser::literal_int(std::int64_t v, SrcPos at, Base b) {
  auto e = node(EK::IntLit, at, {b, false});
  e->ival = v;
  return e;
}

ExprP Parser::builtin(const std::string& name, SrcPos at) {
  expect(".");
  const SrcPos mat = cur().pos;
  const std::string m = ident("x, y or z");
  if (m != "x" && m != "y" && m != "z") fail("syntax", mat, "'" + name + "' has members x, y and z, not '" + m + "'");
  if (m != "x") return literal_int(name == "blockDim" || name == "gridDim" ? 1 : 0, at, Base::UInt);  // one-dimensional launches
  auto e = node(EK::Builtin, at, {Base::UInt, false});
  e->ival = static_cast<int>(name == "threadIdx" ? Builtin::ThreadIdx : name == "blockIdx" ? Builtin::BlockIdx
                             : name == "blockDim" ? Builtin::BlockDim : Builtin::GridDim);
  return e;
}

std::vector<ExprP> Parser::arguments(const std::string& name, std::size_t min, std::size_t max) {
  std::vector<ExprP> args;
  const SrcPos at = cur().pos;
  expect("(");
  if (!at_is(")"))
    do args.push_back(assignment()); while (accept(","));
  expect(")");
  if (args.size() < min || args.size() > max)
    fail("syntax", at, name + " takes " + std::to_string(min) + (min == max ? "" : " to " + std::to_string(max)) + " arguments, not " + std::to_string(args.size()));
  return args;
}

ExprP Parser::atomic_target(const std::string& name) {
  const SrcPos at = cur().pos;
  ExprP target;
  if (accept("&")) {
    target = unary();
    if (!lvalue(*target) || target->kind == EK::Local) fail("syntax", target->pos, name + " needs a shared or global cell");
  } else {
    ExprP p = assignment();
    if (!p->type.pointer) fail("syntax", at, name + "'s first argument is a pointer to the cell: &a[i]");
    auto ix = node(EK::Index, at, Type{p->type.base, false});
    ix->a = std::move(p);
    ix->b = literal_int(0, at);
    target = seal(std::move(ix));
  }
  if (target->type.base == Base::Bool) fail("unsupported", target->pos, name + " on a bool: CUDA's atomics take int, unsigned int, float or double");
  return target;
}

// __ballot_sync(mask, p), __any_sync, __all_sync and __activemask(): null for another name.
ExprP Parser::warp_vote(const std::string& name, SrcPos at) {
  static constexpr std::pair<std::string_view, VoteKind> kVotes[] = {
      {"__ballot_sync", VoteKind::Ballot}, {"__any_sync", VoteKind::Any}, {"__all_sync", VoteKind::All}, {"__activemask", VoteKind::Active}};
  for (const auto& [vote, kind] : kVotes) {
    if (name != vote) continue;
    const bool active = kind == VoteKind::Active;
    auto args = arguments(name, active ? 0 : 2, active ? 0 : 2);
    const bool mask = kind == VoteKind::Ballot || active;
    auto e = node(EK::Vote, at, {mask ? Base::UInt : Base::Int, false});
    e->op = static_cast<std::uint8_t>(kind);
    if (!active) {
      if (args[1]->type.pointer) fail("syntax", args[1]->pos, name + "'s predicate is a pointer");
      e->a = convert(std::move(args[0]), {Base::UInt, false}, "mask");
      e->b = convert(std::move(args[1]), {Base::Int, false}, "vote");
    }
    if (warp_) *warp_ = true;
    return seal(std::move(e));
  }
  return nullptr;
}

// __popc, __ffs, __clz and __brev, with their 64-bit forms (__popcll, ...): null for another name.
ExprP Parser::bit_intrinsic(const std::string& name, SrcPos at) {
  static constexpr std::pair<std::string_view, BitsKind> kBits[] = {
      {"__popc", BitsKind::Popc}, {"__ffs", BitsKind::Ffs}, {"__clz", BitsKind::Clz}, {"__brev", BitsKind::Brev}};
  for (const auto& [bits, kind] : kBits) {
    const bool wide = name.size() == bits.size() + 2 && name.compare(bits.size(), 2, "ll") == 0;
    if (name.compare(0, bits.size(), bits) != 0 || (name.size() != bits.size() && !wide)) continue;
    auto args = arguments(name, 1, 1);
    if (args[0]->type.pointer) fail("syntax", args[0]->pos, name + " of a pointer");
    const Type operand{wide ? Base::ULong : Base::UInt, false};
    const Type result = kind == BitsKind::Brev ? operand : Type{Base::Int, false};
    auto e = node(EK::Bits, at, result);
    e->op = static_cast<std::uint8_t>(kind);
    e->a = convert(std::move(args[0]), operand, "take the bits of");
    return seal(std::move(e));
  }
  return nullptr;
}

ExprP Parser::call(const std::string& name, SrcPos at) {
  if (name.rfind("__shfl_", 0) == 0) {
    ShflKind kind;
    if (name == "__shfl_up_sync") kind = ShflKind::Up;
    else if (name == "__shfl_down_sync") kind = ShflKind::Down;
    else if (name == "__shfl_sync") kind = ShflKind::Idx;
    else if (name == "__shfl_xor_sync") kind = ShflKind::Xor;
    else fail("unsupported", at, "'" + name + "' is not read (__shfl_sync, __shfl_up_sync, __shfl_down_sync, __shfl_xor_sync are)");
    auto args = arguments(name, 3, 4);
    if (args[1]->type.pointer) fail("unsupported", args[1]->pos, "shuffling a pointer");
    auto e = node(EK::Shfl, at, args[1]->type);
    e->op = static_cast<std::uint8_t>(kind);
    e->a = convert(std::move(args[0]), {Base::UInt, false}, "mask");
    e->b = std::move(args[1]);
    e->c = convert(std::move(args[2]), {Base::Int, false}, "shuffle by");
    if (args.size() == 4) e->d = convert(std::move(args[3]), {Base::Int, false}, "shuffle within");
    if (warp_) *warp_ = true;
    return seal(std::move(e));
  }
  if (ExprP e = warp_vote(name, at)) return e;
  if (ExprP e = bit_intrinsic(name, at)) return e;
  static constexpr std::pair<std::string_view, AtomicKind> kAtomics[] = {
      {"atomicAdd", AtomicKind::Add}, {"atomicSub", AtomicKind::Sub}, {"atomicExch", AtomicKind::Exch}, {"atomicMax", AtomicKind::Max},
      {"atomicMin", AtomicKind::Min}, {"atomicAnd", AtomicKind::And}, {"atomicOr", AtomicKind::Or},     {"atomicXor", AtomicKind::Xor},
      {"atomicCAS", AtomicKind::CAS}};
  for (const auto& [atomic, kind] : kAtomics) {
    if (name != atomic) continue;
    expect("(");
    ExprP target = atomic_target(name);
    const bool integral = kind != AtomicKind::Add && kind != AtomicKind::Exch;
    if (integral && is_floating(target->type.base)) fail("unsupported", at, name + " of a floating cell: CUDA has it for integers");
    auto e = node(EK::AtomicAdd, at, target->type);
    e->op = static_cast<std::uint8_t>(kind);
    if (kind == AtomicKind::CAS) {
      expect(",");
      e->c = convert(assignment(), target->type, "compare");
    }
    expect(",");
    ExprP v = assignment();
    expect(")");
    mark_access(*target, true);
    mark_access(*target, false);
    e->b = convert(std::move(v), target->type, "update");
    e->a = std::move(target);
    return seal(std::move(e));
  }
  if (name == "min" || name == "max" || name == "fminf" || name == "fmaxf" || name == "fmin" || name == "fmax" || name == "umin" ||
      name == "umax" || name == "llmin" || name == "llmax") {
    auto args = arguments(name, 2, 2);
    if (args[0]->type.pointer || args[1]->type.pointer) fail("syntax", at, name + " of a pointer");
    Type t = arithmetic_result(args[0]->type, args[1]->type);
    if (name[0] == 'f') t = name.back() == 'f' ? Type{Base::Float, false} : Type{Base::Double, false};
    auto e = node(EK::MinMax, at, t);
    e->op = name.find("max") != std::string::npos ? 1 : 0;
    e->a = convert(std::move(args[0]), t, "compare");
    e->b = convert(std::move(args[1]), t, "compare");
    return seal(std::move(e));
  }
  if (name == "abs" || name == "fabsf" || name == "fabs" || name == "llabs" || name == "labs") {
    auto args = arguments(name, 1, 1);
    if (args[0]->type.pointer) fail("syntax", at, name + " of a pointer");
    Type t = args[0]->type.base == Base::Bool ? Type{Base::Int, false} : args[0]->type;
    if (name == "fabsf") t = {Base::Float, false};
    if (name == "fabs" && !is_floating(t.base)) t = {Base::Double, false};
    auto e = node(EK::Abs, at, t);
    e->a = convert(std::move(args[0]), t, "take the absolute value of");
    return seal(std::move(e));
  }
  if (name == "printf" || (host_ && name == "fprintf")) {
    expect("(");
    if (name == "fprintf") {  // fprintf(stderr, FORMAT, ...): its stream read past
      (void)assignment();
      expect(",");
    }
    if (cur().kind != Tok::String) fail("syntax", cur().pos, name + "'s format string is a string literal");
    std::string format;
    while (cur().kind == Tok::String) format += t_[i_++].string_value;  // "a" "b": adjacent literals are one string
    auto e = node(EK::Printf, at, {Base::Int, false});
    e->ival = static_cast<std::int64_t>(formats_.size());
    formats_.push_back(std::move(format));
    while (accept(",")) e->args.push_back(assignment());
    expect(")");
    return seal(std::move(e));
  }
  if (name == "__syncthreads" || name == "__syncwarp" || name == "__threadfence")
    fail("unsupported", at, name + "() inside an expression: write it as a statement of its own");
  if (host_)
    if (ExprP e = host_call(name, at)) return e;
  if (templates_.count(name)) return function_call(function_index_.at(deduce(name, at)), at);
  if (const auto it = function_index_.find(name); it != function_index_.end()) return function_call(it->second, at);
  for (const Kernel& k : kernels_)
    if (k.name == name) fail("unsupported", at, "launching or calling the kernel '" + name + "' from device code is not read");
  fail("unsupported", at, "call of '" + name + "': not a function of this file nor a CUDA function scanviz reads (" +
                              "__syncthreads, __shfl_*_sync, __ballot_sync, __syncwarp, atomicAdd, __threadfence, __popc, min, max, abs, printf, assert)");
}

ExprP Parser::function_call(std::size_t f, SrcPos at) {
  const Function& fn = functions_[f];
  std::size_t required = fn.params.size();
  while (required > 0 && required <= fn.defaults.size() && fn.defaults[required - 1]) --required;
  auto args = arguments(fn.name, required, fn.params.size());
  auto e = node(EK::Call, at, fn.result);
  e->ival = static_cast<std::int64_t>(f);
  for (std::size_t p = 0; p < args.size(); ++p) {
    const Param& q = fn.params[p];
    ExprP a = convert(std::move(args[p]), q.type, ("pass to '" + q.name + "' as").c_str());
    if (q.type.pointer)
      if (Param* mine = param_behind(*a)) {
        mine->written = mine->written || q.written;
        mine->read = mine->read || q.read;
      }
    e->args.push_back(std::move(a));
  }
  if (calls_) calls_->push_back(static_cast<std::int64_t>(f));
  return seal(std::move(e));
}

ExprP Parser::primary() {
  const Token& tok = cur();
  const SrcPos at = tok.pos;
  if (tok.kind == Tok::Int) {
    ++i_;
    Base b = tok.unsigned_suffix ? Base::UInt : Base::Int;
    if (tok.long_suffix || tok.int_value > 0xffffffffull || (b == Base::Int && tok.int_value > 0x7fffffffull))
      b = tok.unsigned_suffix || tok.int_value > 0x7fffffffffffffffull ? Base::ULong : Base::Long;
    return literal_int(static_cast<std::int64_t>(tok.int_value), at, b);
  }
  if (tok.kind == Tok::Float) {
    ++i_;
    auto e = node(EK::FloatLit, at, {tok.float_suffix ? Base::Float : Base::Double, false});
    e->fval = tok.float_suffix ? static_cast<double>(static_cast<float>(tok.float_value)) : tok.float_value;
    return e;
  }
  if (tok.kind == Tok::String) {
    if (!host_) fail("unsupported", at, "a string literal outside printf is not read");
    while (cur().kind == Tok::String) ++i_;  // host code passes messages around: a pointer that reads nothing
    return null_pointer(at);
  }
  if (accept("(")) {
    Depth depth(*this, at);
    ExprP e = expression();
    expect(")");
    return e;
  }
  if (tok.kind != Tok::Ident) fail("syntax", at, "expected an expression, found '" + tok.text + "'");
  const std::string name = tok.text;
  if ((is_type_word(name) || alias_of(name)) && next_is("(")) {  // float(x): a functional cast
    const Type t = base_type();
    expect("(");
    ExprP a = expression();
    expect(")");
    return cast_to(t, std::move(a), at);
  }
  ++i_;
  if (name == "std" && accept("::")) return primary();  // std::printf, std::exit, std::min
  if (name == "true" || name == "false") return literal_int(name == "true", at, Base::Bool);
  if (host_) {
    if (const auto v = host_constant(name)) return literal_int(*v, at);
    if (name == "new") return new_array(at);
    if (name == "delete") {
      if (accept("[")) expect("]");
      auto e = node(EK::Api, at, {Base::Void, false});
      e->op = static_cast<std::uint8_t>(ApiKind::Nop);
      e->ival = -1;
      e->args.push_back(unary());
      return seal(std::move(e));
    }
    if (at_is("<") && templates_.count(name) && templates_.at(name).kernel) {  // scan<float, 256><<<...>>>
      const std::string instance = instantiate(name, template_arguments(), at);
      return launch(instance, at);
    }
    if ((at_is("<<") || at_is("<")) && is_kernel(name)) return launch(name, at);
    if (name == "threadIdx" || name == "blockIdx" || name == "blockDim" || name == "gridDim" || name == "warpSize")
      fail("unsupported", at, "'" + name + "' in host code: it is a kernel's");
  }
  if (name == "nullptr" || name == "NULL") return null_pointer(at);
  if (name == "threadIdx" || name == "blockIdx" || name == "blockDim" || name == "gridDim") return builtin(name, at);
  if (name == "warpSize") {
    auto e = node(EK::Builtin, at, {Base::Int, false});
    e->ival = static_cast<int>(Builtin::WarpSize);
    return e;
  }
  if (name == "static_cast" || name == "reinterpret_cast" || name == "const_cast") {
    expect("<");
    const Type t = cast_type();
    if (!at_is(">")) fail("syntax", cur().pos, "expected '>' to close " + name + "<...>");
    ++i_;
    expect("(");
    ExprP a = expression();
    expect(")");
    if (name == "static_cast" && t.pointer != a->type.pointer) fail("syntax", at, "static_cast between a pointer and a number");
    return cast_to(t, std::move(a), at);
  }
  if (at_is("<") && templates_.count(name) && !templates_.at(name).kernel) {  // f<int>(x)
    const std::string instance = instantiate(name, template_arguments(), at);
    if (!at_is("(")) fail("syntax", cur().pos, "expected '(' to call " + instance);
    return function_call(function_index_.at(instance), at);
  }
  if (at_is("(")) return call(name, at);
  return primary_name(name, at);
}

// A name in the scopes: a local, a constant, a thread's own array or a shared variable.
ExprP Parser::primary_name(const std::string& name, SrcPos at) {
  for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s) {
    const auto it = s->find(name);
    if (it == s->end()) continue;
    const Symbol& sym = it->second;
    if (sym.kind == Symbol::Local) {
      auto e = node(EK::Local, at, sym.type);
      e->ival = sym.index;
      return e;
    }
    if (sym.kind == Symbol::Constant) {
      if (is_floating(sym.type.base)) {
        auto e = node(EK::FloatLit, at, sym.type);
        e->fval = sym.fvalue;
        return e;
      }
      return literal_int(sym.index, at, sym.type.base);
    }
    if (sym.kind == Symbol::TypeAlias) fail("syntax", at, "'" + name + "' is a type, used as a value");
    if (sym.kind == Symbol::Array) {
      auto e = node(EK::LocalArray, at, Type{sym.type.base, true});
      e->ival = sym.index;
      return e;
    }
    const std::vector<SharedVar>& list = shared_ ? *shared_ : file_shared_;
    const SharedVar& v = list[static_cast<std::size_t>(sym.index)];
    auto e = node(v.scalar ? EK::SharedScalar : EK::Shared, at, v.scalar ? v.elem : Type{v.elem.base, true});
    e->ival = sym.index;
    return e;
  }
  fail("syntax", at, "use of undeclared identifier '" + name + "'");
}

ExprP Parser::null_pointer(SrcPos at) {
  auto e = node(EK::IntLit, at, {Base::Void, true});
  e->ival = 0;
  return e;
}

}  // namespace sv::cuda::parse
