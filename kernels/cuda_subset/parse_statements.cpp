// Types, declarations and statements of a kernel or a __device__ function (parser_impl.hpp).
#include <algorithm>
#include <functional>
#include <optional>
#include <set>

#include "cuda_subset/parser_impl.hpp"

namespace sv::cuda::parse {

bool Parser::is_type_word(std::string_view s) {
  static const std::set<std::string_view> words = {
      "int", "unsigned", "float", "double", "bool", "const", "signed", "long", "short", "char", "size_t", "volatile",
      "uint32_t", "int32_t", "int64_t", "uint64_t", "int16_t", "uint16_t", "int8_t", "uint8_t", "half", "auto", "void",
      "constexpr", "ptrdiff_t", "ssize_t", "uint", "__half"};
  return words.count(s) > 0;
}

const Symbol* Parser::alias_of(const std::string& name) const {
  for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s)
    if (const auto it = s->find(name); it != s->end()) return it->second.kind == Symbol::TypeAlias ? &it->second : nullptr;
  return nullptr;
}

Type Parser::base_type() {
  auto_ = false;
  const_ = false;
  const SrcPos at = cur().pos;
  bool is_signed = false, is_unsigned = false, any = false;
  int longs = 0;
  std::optional<Type> t;
  while (cur().kind == Tok::Ident) {
    const std::string& w = cur().text;
    if (w == "const" || w == "constexpr") const_ = true;
    else if (w == "volatile") {
    } else if (w == "signed") is_signed = true;
    else if (w == "unsigned") is_unsigned = true;
    else if (w == "long") ++longs;
    else if (w == "short" || w == "char") {
      if (!t) t = Type{Base::Int, false};  // read as int: the narrow integers' arithmetic promotes to int anyway
    } else if (w == "int") {
      if (!t) t = Type{Base::Int, false};
    } else if (t || longs > 0) break;
    else if (w == "float") t = Type{Base::Float, false};
    else if (w == "double") t = Type{Base::Double, false};
    else if (w == "bool") t = Type{Base::Bool, false};
    else if (w == "void") t = Type{Base::Void, false};
    else if (w == "auto") {
      auto_ = true;
      t = Type{Base::Int, false};
    } else if (w == "int32_t" || w == "int16_t" || w == "int8_t") t = Type{Base::Int, false};
    else if (w == "uint32_t" || w == "uint16_t" || w == "uint8_t" || w == "uint") t = Type{Base::UInt, false};
    else if (w == "int64_t" || w == "ptrdiff_t" || w == "ssize_t") t = Type{Base::Long, false};
    else if (w == "uint64_t" || w == "size_t") t = Type{Base::ULong, false};
    else if (w == "half" || w == "__half") fail("unsupported", cur().pos, "type '" + w + "' is not read (float, double, the integers)");
    else if (const Symbol* a = alias_of(w)) t = a->type;
    else break;
    any = true;
    ++i_;
  }
  if (!any || (!t && !is_signed && !is_unsigned && longs == 0)) fail("syntax", at, "expected a type, found '" + cur().text + "'");
  Type r = t.value_or(Type{Base::Int, false});
  if (longs > 0 && (r.base == Base::Int || r.base == Base::UInt)) r.base = Base::Long;
  if (longs > 0 && r.base == Base::Double) longs = 0;  // long double: read as double
  if (is_unsigned) {
    if (r.base == Base::Int) r.base = Base::UInt;
    else if (r.base == Base::Long) r.base = Base::ULong;
  }
  return r;
}

std::int64_t Parser::new_local(const std::string& name, Type type, SrcPos at) {
  declare(name, Symbol{Symbol::Local, slots_, 0, type}, at);
  local_names_.push_back(name);
  return slots_++;
}

void Parser::declare(const std::string& name, Symbol s, SrcPos at) {
  if (scopes_.back().count(name)) fail("syntax", at, "redefinition of '" + name + "'");
  if (name == "threadIdx" || name == "blockIdx" || name == "blockDim" || name == "gridDim" || name == "warpSize")
    fail("syntax", at, "'" + name + "' is a CUDA built-in variable");
  scopes_.back()[name] = s;
}

Param Parser::parameter(std::vector<ExprP>* defaults) {
  Param p;
  p.pos = cur().pos;
  p.type = base_type();
  if (auto_) fail("syntax", p.pos, "a parameter cannot be 'auto'");
  if (accept("*")) p.type.pointer = true;
  while (at_ident("const") || at_ident("__restrict__") || at_ident("__restrict")) ++i_;
  if (at("*")) fail("unsupported", cur().pos, "pointers to pointers are not read");
  if (at("&")) fail("unsupported", cur().pos, "reference parameters are not read: pass a pointer or a value");
  p.pos = cur().pos;
  p.name = ident("a parameter name");
  if (accept("[")) {  // float s[] is float* s
    if (!accept("]")) fail("unsupported", cur().pos, "an array parameter with a size: write '" + type_name(p.type) + "* " + p.name + "'");
    if (p.type.pointer) fail("unsupported", p.pos, "pointers to pointers are not read");
    p.type.pointer = true;
  }
  if (p.type.base == Base::Void && !p.type.pointer) fail("unsupported", p.pos, "void parameters");
  ExprP def;
  if (accept("=")) {
    if (!defaults) fail("syntax", cur().pos, "a kernel's parameter with a default argument");
    def = convert(assignment(), p.type, "pass");
  }
  if (defaults) defaults->push_back(std::move(def));
  p.slot = new_local(p.name, p.type, p.pos);
  return p;
}

std::optional<std::int64_t> Parser::const_value(const Expr& e) const {
  switch (e.kind) {
    case EK::IntLit: return e.ival;
    case EK::Local:
      if (const auto it = slot_constants_.find(e.ival); it != slot_constants_.end()) return it->second;
      return std::nullopt;
    case EK::Cast:
      if (auto v = const_value(*e.a); v && is_integer(e.type.base)) return wrap_integer(e.type.base, *v);
      return std::nullopt;
    case EK::Unary: {
      auto v = const_value(*e.a);
      if (!v) return v;
      if (e.op == static_cast<int>(UnOp::Neg)) return -*v;
      if (e.op == static_cast<int>(UnOp::Plus)) return *v;
      if (e.op == static_cast<int>(UnOp::Not)) return *v == 0;
      if (e.op == static_cast<int>(UnOp::BitNot)) return wrap_integer(e.type.base, ~*v);
      return std::nullopt;
    }
    case EK::Cond: {
      auto c = const_value(*e.a), a = const_value(*e.b), b = const_value(*e.c);
      if (!c || !a || !b) return std::nullopt;
      return *c ? a : b;
    }
    case EK::Binary: {
      auto a = const_value(*e.a), b = const_value(*e.b);
      if (!a || !b) return std::nullopt;
      const auto op = static_cast<BinOp>(e.op);
      const std::int64_t limit = std::int64_t{1} << 40;
      if (*a > limit || *a < -limit || *b > limit || *b < -limit) return std::nullopt;
      switch (op) {
        case BinOp::Add: return *a + *b;
        case BinOp::Sub: return *a - *b;
        case BinOp::Mul: return *a * *b;
        case BinOp::Div: return *b ? std::optional(*a / *b) : std::nullopt;
        case BinOp::Mod: return *b ? std::optional(*a % *b) : std::nullopt;
        case BinOp::Shl: return *b >= 0 && *b < 24 ? std::optional(*a << *b) : std::nullopt;
        case BinOp::Shr: return *b >= 0 && *b < 63 ? std::optional(*a >> *b) : std::nullopt;
        case BinOp::BitAnd: return *a & *b;
        case BinOp::BitOr: return *a | *b;
        case BinOp::BitXor: return *a ^ *b;
        case BinOp::Lt: return *a < *b;
        case BinOp::Gt: return *a > *b;
        case BinOp::Le: return *a <= *b;
        case BinOp::Ge: return *a >= *b;
        case BinOp::Eq: return *a == *b;
        case BinOp::Ne: return *a != *b;
        default: return std::nullopt;
      }
    }
    default: return std::nullopt;
  }
}

StmtP Parser::shared_declaration(bool dynamic, std::vector<SharedVar>& into) {
  auto list = std::make_unique<Stmt>();
  list->kind = SK::Block;
  list->pos = cur().pos;
  if (!at_type()) fail("syntax", cur().pos, "expected the type of a __shared__ variable, found '" + cur().text + "'");
  const Type base = base_type();
  do {
    Type t = base;
    if (accept("*")) t.pointer = true;
    const SrcPos at = cur().pos;
    const std::string name = ident("a variable name");
    if (t.pointer) fail("unsupported", at, "a __shared__ pointer: declare the pointer as a local");
    if (t.base == Base::Void) fail("unsupported", at, "a __shared__ void array: give it an element type (extern __shared__ float s[])");
    SharedVar v{name, t, 1, true, false, at};
    if (dynamic) {
      expect("[");
      if (!accept("]")) fail("syntax", cur().pos, "an extern __shared__ array has no size: the launch gives it ([] here)");
      v.scalar = false;
      v.dynamic = true;
      v.length = 0;
    } else if (accept("[")) {
      ExprP size = expression();
      expect("]");
      const auto n = const_value(*size);
      if (!n) fail("unsupported", size->pos, "the size of __shared__ array '" + name + "' is not a constant (a #define or a const int)");
      if (*n < 1) fail("syntax", size->pos, "__shared__ array '" + name + "' has size " + std::to_string(*n));
      v.length = *n;
      v.scalar = false;
      while (accept("[")) {  // float tile[32][33]: one flat array, indexed row by row is refused below
        fail("unsupported", cur().pos, "multi-dimensional arrays are not read: index one array (tile[row * WIDTH + col])");
      }
    }
    if (at_is("=")) fail("syntax", cur().pos, "a __shared__ variable cannot have an initializer");
    if (scopes_.size() == 1) {
      // File scope: the kernels' lists begin with these.
      scopes_.front()[name] = Symbol{Symbol::Shared, static_cast<std::int64_t>(into.size()), 0, t};
    } else {
      declare(name, Symbol{Symbol::Shared, static_cast<std::int64_t>(into.size()), 0, t}, at);
    }
    into.push_back(v);
  } while (accept(","));
  expect(";");
  return list;
}

StmtP Parser::declaration() {
  auto list = std::make_unique<Stmt>();
  list->kind = SK::Block;
  list->pos = cur().pos;
  const SrcPos type_at = cur().pos;
  const Type base = base_type();
  const bool is_auto = auto_, is_const = const_;
  do {
    Type t = base;
    if (accept("*")) t.pointer = true;
    while (at_ident("const") || at_ident("__restrict__")) ++i_;
    if (at("*")) fail("unsupported", cur().pos, "pointers to pointers are not read");
    if (at("&")) fail("unsupported", cur().pos, "references are not read: use a pointer or a copy");
    const SrcPos at = cur().pos;
    const std::string name = ident("a variable name");
    if (t.base == Base::Void && !t.pointer && !is_auto) fail("unsupported", type_at, "void variables");
    if (at_is("[")) {
      if (is_auto) fail("syntax", at, "'auto " + name + "[]' is not C++");
      list->body.push_back(array_declaration(t, name, at));
      continue;
    }
    auto d = std::make_unique<Stmt>();
    d->kind = SK::Decl;
    d->pos = at;
    if (accept("=")) {
      ExprP init = assignment();
      if (is_auto) t = init->type;
      if (t.base == Base::Void && !t.pointer) fail("syntax", init->pos, "a void value initializes '" + name + "'");
      d->e = convert(std::move(init), t, "initialize");
    } else if (host_ && accept("(")) {  // dim3 grid(blocks) (its y and z read past)
      ExprP init = assignment();
      while (accept(",")) (void)assignment();
      expect(")");
      d->e = convert(std::move(init), t, "initialize");
    } else if (is_auto) {
      fail("syntax", at, "'auto " + name + "' needs an initializer");
    }
    d->type = t;
    std::optional<std::int64_t> value;
    if (is_const && d->e && is_integer(t.base) && !t.pointer) value = const_value(*d->e);
    d->slot = new_local(name, t, at);  // after the initializer: `int x = x;` is not the new x
    if (value) slot_constants_[d->slot] = *value;
    list->body.push_back(std::move(d));
  } while (accept(","));
  expect(";");
  return list;
}

// `T name[N]` or `T name[N] = {a, b, ...}` (the cells not given are zero). In a kernel or a __device__
// function the array is the thread's own: N slots of its frame. In host code it is a host buffer, as
// `new T[N]` gives, so that cudaMemcpy can take it.
StmtP Parser::array_declaration(Type t, const std::string& name, SrcPos at) {
  expect("[");
  ExprP size = expression();
  expect("]");
  const auto n = const_value(*size);
  if (!n) fail("unsupported", size->pos, "the size of array '" + name + "' is not a constant (a #define or a const int)");
  if (*n < 1) fail("syntax", size->pos, "array '" + name + "' has size " + std::to_string(*n));
  if (at_is("[")) fail("unsupported", cur().pos, "multi-dimensional arrays are not read: index one array (a[row * WIDTH + col])");
  if (t.pointer) fail("unsupported", at, "arrays of pointers are not read");
  if (!host_ && *n > kMaxLocalArray)
    fail("limit", size->pos, "local array '" + name + "' has " + std::to_string(*n) + " cells; a thread's own arrays are read up to " +
                                 std::to_string(kMaxLocalArray) + " (use a __shared__ array)");
  std::vector<ExprP> init;
  const bool initialized = accept("=");
  if (initialized) {
    expect("{");
    while (!at_is("}")) {
      init.push_back(convert(assignment(), t, "initialize"));
      if (!accept(",")) break;
    }
    expect("}");
    if (static_cast<std::int64_t>(init.size()) > *n)
      fail("syntax", at, "array '" + name + "' has " + std::to_string(*n) + " cells and " + std::to_string(init.size()) + " initializers");
  }
  auto list = std::make_unique<Stmt>();
  list->kind = SK::Block;
  list->pos = at;
  ExprP first;
  if (host_) {
    auto buffer = node(EK::Api, at, Type{t.base, true});
    buffer->op = static_cast<std::uint8_t>(ApiKind::NewArray);
    buffer->ival = -1;
    buffer->args.push_back(literal_int(*n, at, Base::ULong));
    auto d = std::make_unique<Stmt>();
    d->kind = SK::Decl;
    d->pos = at;
    d->type = Type{t.base, true};
    d->e = seal(std::move(buffer));
    d->slot = new_local(name, d->type, at);
    list->body.push_back(std::move(d));
  } else {
    const std::int64_t id = static_cast<std::int64_t>(local_arrays_.size());
    local_arrays_.push_back(LocalArray{name, slots_, *n, at});
    for (std::int64_t c = 0; c < *n; ++c) local_names_.push_back(name + "[" + std::to_string(c) + "]");
    slots_ += *n;
    declare(name, Symbol{Symbol::Array, id, 0, t}, at);
  }
  for (std::int64_t c = 0; c < (initialized ? *n : 0); ++c) {  // a[c] = value, or 0 past the list
    auto cell = node(EK::Index, at, t);
    cell->a = primary_name(name, at);
    cell->b = literal_int(c, at, Base::Long);
    auto set = node(EK::Assign, at, t);
    set->a = seal(std::move(cell));
    set->b = c < static_cast<std::int64_t>(init.size()) ? std::move(init[static_cast<std::size_t>(c)]) : convert(literal_int(0, at), t, "initialize");
    auto s = std::make_unique<Stmt>();
    s->kind = SK::Expr;
    s->pos = at;
    s->e = seal(std::move(set));
    list->body.push_back(std::move(s));
  }
  if (!host_ && !initialized) {  // the cells are undefined until written, every time the declaration runs
    const LocalArray& a = local_arrays_.back();
    for (std::int64_t c = 0; c < a.length; ++c) {
      auto d = std::make_unique<Stmt>();
      d->kind = SK::Decl;
      d->pos = at;
      d->type = t;
      d->slot = a.first + c;
      list->body.push_back(std::move(d));
    }
  }
  return list;
}

// switch (v) { case C: ... default: ... }: v an integer, each C a constant.
StmtP Parser::switch_statement(SrcPos at) {
  ++i_;
  auto s = simple(SK::Switch, at);
  expect("(");
  ExprP value = expression();
  expect(")");
  if (value->type.pointer || !is_integer(value->type.base)) fail("syntax", value->pos, "switch on a " + type_name(value->type) + ": a switch takes an integer");
  const Type t = arithmetic_result(value->type, {Base::Int, false});
  scopes_.emplace_back();
  auto keep = std::make_unique<Stmt>();
  keep->kind = SK::Decl;
  keep->pos = at;
  keep->type = t;
  keep->e = convert(std::move(value), t, "switch on");
  keep->slot = new_local("switch value", t, at);
  s->init = std::move(keep);
  expect("{");
  scopes_.emplace_back();
  ++switches_;
  std::set<std::int64_t> seen;
  bool defaulted = false;
  while (!at_is("}")) {
    if (cur().kind == Tok::End) fail("syntax", at, "this switch's '{' is never closed");
    const SrcPos label_at = cur().pos;
    if (at_ident("case") || at_ident("default")) {
      const bool is_default = at_ident("default");
      ++i_;
      auto label = simple(SK::Case, label_at);
      if (is_default) {
        if (std::exchange(defaulted, true)) fail("syntax", label_at, "a second default label in one switch");
      } else {
        ExprP c = conditional();
        const auto v = const_value(*c);
        if (!v) fail("syntax", c->pos, "a case label is a constant");
        if (!seen.insert(wrap_integer(t.base, *v)).second) fail("syntax", c->pos, "case " + std::to_string(*v) + " twice in one switch");
        auto local = node(EK::Local, label_at, t);
        local->ival = s->init->slot;
        auto test = node(EK::Binary, label_at, {Base::Bool, false});
        test->op = static_cast<std::uint8_t>(BinOp::Eq);
        test->a = std::move(local);
        test->b = literal_int(wrap_integer(t.base, *v), label_at, t.base);
        label->cond = seal(std::move(test));
      }
      expect(":");
      s->body.push_back(std::move(label));
      continue;
    }
    s->body.push_back(statement());
  }
  ++i_;
  --switches_;
  scopes_.pop_back();
  scopes_.pop_back();
  return s;
}

StmtP Parser::block() {
  auto b = std::make_unique<Stmt>();
  b->kind = SK::Block;
  b->pos = cur().pos;
  expect("{");
  scopes_.emplace_back();
  while (!at("}")) {
    if (cur().kind == Tok::End) fail("syntax", b->pos, "this '{' is never closed");
    const Resume resume = resume_point();
    try {
      b->body.push_back(statement());
    } catch (const KernelError& e) {
      if (!recover(e, resume)) throw;
      skip_statement();
    }
  }
  ++i_;
  scopes_.pop_back();
  return b;
}

StmtP Parser::simple(SK kind, SrcPos at) {
  auto s = std::make_unique<Stmt>();
  s->kind = kind;
  s->pos = at;
  return s;
}

ExprP Parser::condition() {
  expect("(");
  ExprP c = expression();
  expect(")");
  return to_bool(std::move(c));
}

StmtP Parser::shared_statement(SrcPos at, bool dynamic) {
  if (!shared_) fail("unsupported", at, "a __shared__ variable inside a __device__ function: declare it in the kernel and pass a pointer");
  return shared_declaration(dynamic, *shared_);
}

StmtP Parser::statement() {
  const SrcPos at = cur().pos;
  Depth depth(*this, at, true);
  if (at_is("{")) return block();
  if (accept(";")) return simple(SK::Empty, at);
  if (cur().kind == Tok::Ident) {
    const std::string& w = cur().text;
    if (w == "__shared__") {
      ++i_;
      return shared_statement(at, false);
    }
    if (w == "extern") {
      ++i_;
      if (!at_ident("__shared__")) fail("unsupported", at, "'extern' inside a body: only extern __shared__ arrays are read");
      ++i_;
      return shared_statement(at, true);
    }
    if (w == "static" || w == "register") {
      ++i_;
      if (at_ident("__shared__")) {
        ++i_;
        return shared_statement(at, false);
      }
      if (w == "static") fail("unsupported", at, "a static local: declare it __shared__ or outside the function");
      return declaration();
    }
    if (w == "__constant__" || w == "__device__" || w == "typedef" || w == "struct" || w == "enum" || w == "goto" ||
        w == "case" || w == "default" || w == "asm" || w == "class" || w == "union" || w == "template")
      fail("unsupported", at, "'" + w + "' inside a body is not read");
    if (at_type() && !next_is("(")) return declaration();  // `float(x)` starts an expression: a functional cast
    if (w == "if") {
      ++i_;
      auto s = simple(SK::If, at);
      s->cond = condition();
      s->then = sub_statement();
      if (at_ident("else")) {
        ++i_;
        s->otherwise = sub_statement();
      }
      return s;
    }
    if (w == "while") {
      ++i_;
      auto s = simple(SK::While, at);
      s->cond = condition();
      ++loops_;
      s->then = sub_statement();
      --loops_;
      return s;
    }
    if (w == "do") {
      ++i_;
      auto s = simple(SK::DoWhile, at);
      ++loops_;
      s->then = sub_statement();
      --loops_;
      if (!at_ident("while")) fail("syntax", cur().pos, "expected 'while' after the body of 'do'");
      ++i_;
      s->cond = condition();
      expect(";");
      return s;
    }
    if (w == "for") {
      ++i_;
      auto s = simple(SK::For, at);
      expect("(");
      scopes_.emplace_back();
      if (at_type()) s->init = declaration();
      else if (!accept(";")) {
        s->init = simple(SK::Expr, cur().pos);
        s->init->e = expression();
        expect(";");
      }
      if (!at_is(";")) s->cond = to_bool(expression());
      expect(";");
      if (!at_is(")")) s->step = expression();
      expect(")");
      ++loops_;
      s->then = sub_statement();
      --loops_;
      scopes_.pop_back();
      return s;
    }
    if (w == "switch") return switch_statement(at);
    if (w == "break" || w == "continue") {
      ++i_;
      if (loops_ == 0 && (w == "continue" || switches_ == 0)) fail("syntax", at, "'" + w + "' outside a loop" + (w == "break" ? " or switch" : ""));
      expect(";");
      return simple(w == "break" ? SK::Break : SK::Continue, at);
    }
    if (w == "return") return return_statement(at);
    if (w == "assert") {
      ++i_;
      auto s = simple(SK::Assert, at);
      s->cond = condition();
      expect(";");
      return s;
    }
    if (w == "__syncthreads" || w == "__syncwarp" || w == "__threadfence" || w == "__threadfence_block" || w == "__threadfence_system") {
      if (host_) fail("unsupported", at, w + "() in host code: it is a kernel's");
      ++i_;
      expect("(");
      if (w == "__syncwarp" && !at_is(")")) {
        ExprP mask = expression();
        if (!is_integer(mask->type.base) || mask->type.pointer) fail("syntax", mask->pos, "__syncwarp's mask is an integer");
      }
      expect(")");
      expect(";");
      if (w == "__syncwarp" && warp_) *warp_ = true;
      // __threadfence_block orders nothing another block sees: it is read, and left out of the run.
      return simple(w == "__syncthreads" ? SK::Sync : w == "__syncwarp" || w == "__threadfence_block" ? SK::SyncWarp : SK::Fence, at);
    }
  }
  auto s = simple(SK::Expr, at);
  s->e = expression();
  expect(";");
  return s;
}

StmtP Parser::return_statement(SrcPos at) {
  ++i_;
  auto s = simple(SK::Return, at);
  if (!in_function_) {
    if (!at_is(";")) fail("syntax", cur().pos, "a __global__ kernel returns nothing: write 'return;'");
    ++i_;
    return s;
  }
  const Type r = *result_;
  if (at_is(";")) {
    if (r.base != Base::Void || r.pointer) fail("syntax", at, "this function returns " + type_name(r) + ": 'return' needs a value");
    ++i_;
    return s;
  }
  ExprP v = expression();
  if (r.base == Base::Void && !r.pointer) fail("syntax", v->pos, "a void function returns no value");
  s->e = convert(std::move(v), r, "return");
  expect(";");
  return s;
}

}  // namespace sv::cuda::parse
