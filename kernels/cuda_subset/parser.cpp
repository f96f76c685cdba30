// The recursive-descent parser of the CUDA subset (docs/kernel-subset.md): declarations resolve to
// slots and shared buffers as they are read, and every expression gets its C type.
#include "cuda_subset/parser.hpp"

#include <algorithm>
#include <optional>

#include "cuda_subset/lexer.hpp"

namespace sv::cuda {

std::string type_name(Type t) {
  static constexpr const char* names[] = {"void", "bool", "int", "unsigned int", "float", "double"};
  return std::string(names[static_cast<int>(t.base)]) + (t.pointer ? "*" : "");
}

namespace {

struct Symbol {
  enum Kind { Local, Shared } kind = Local;
  std::int64_t index = 0;
  Type type;
};

class Parser {
 public:
  Parser(std::vector<Token> tokens, std::string file) : t_(std::move(tokens)), file_(std::move(file)) {}

  Kernel kernel() {
    k_.file = file_;
    while (at(";")) ++i_;
    if (at_ident("extern")) fail("unsupported", cur().pos, "'extern' is outside the CUDA subset: write one __global__ kernel");
    if (!at_ident("__global__")) {
      if (at_ident("__device__")) fail("unsupported", cur().pos, "__device__ functions are outside the CUDA subset: write the whole kernel in its __global__ function");
      if (at_ident("template")) fail("unsupported", cur().pos, "templates are outside the CUDA subset");
      fail("syntax", cur().pos, "expected a __global__ kernel, found '" + cur().text + "'");
    }
    k_.pos = cur().pos;
    ++i_;
    if (!at_ident("void")) fail("syntax", cur().pos, "a __global__ kernel returns void");
    ++i_;
    k_.name = ident("the kernel's name");
    expect("(");
    scopes_.emplace_back();
    if (!at(")")) {
      if (at_ident("void") && t_[i_ + 1].text == ")") ++i_;
      else
        do parameter(); while (accept(","));
    }
    expect(")");
    for (const Param& p : k_.params)
      if (p.type.pointer) {
        k_.element = Type{p.type.base, false};
        break;
      }
    for (const Param& p : k_.params)
      if (p.type.pointer && p.type.base != k_.element.base)
        fail("unsupported", p.pos, "pointer parameters of different types (" + type_name(k_.element) + " and " +
                                       type_name(Type{p.type.base, false}) + "): a scan reads and writes one type");
    if (!at("{")) fail("syntax", cur().pos, "expected '{' to open the kernel's body");
    k_.body = block();
    scopes_.pop_back();
    while (at(";")) ++i_;
    if (cur().kind != Tok::End) {
      if (at_ident("__global__")) fail("unsupported", cur().pos, "a second __global__ kernel: one kernel per file");
      fail("syntax", cur().pos, "unexpected '" + cur().text + "' after the kernel");
    }
    return std::move(k_);
  }

 private:
  // ---- tokens ----
  const Token& cur() const { return t_[i_]; }
  bool at(std::string_view p) const { return cur().kind == Tok::Punct && cur().text == p; }
  bool at_ident(std::string_view s) const { return cur().kind == Tok::Ident && cur().text == s; }
  bool accept(std::string_view p) {
    if (!at(p)) return false;
    ++i_;
    return true;
  }
  void expect(std::string_view p) {
    if (!accept(p)) fail("syntax", cur().pos, "expected '" + std::string(p) + "' before '" + cur().text + "'");
  }
  std::string ident(const char* what) {
    if (cur().kind != Tok::Ident) fail("syntax", cur().pos, std::string("expected ") + what + ", found '" + cur().text + "'");
    return t_[i_++].text;
  }
  [[noreturn]] void fail(const char* kind, SrcPos at, const std::string& what) const { throw KernelError(kind, file_, at, what); }

  // Bounds the parser's recursion (`statements`: the statements nesting, else the expressions').
  struct Depth {
    Depth(Parser& p, SrcPos at, bool statement = false) : p_(p), statement_(statement) {
      if (++p_.depth_ > kMaxParseDepth)
        p_.fail("limit", at, "nesting deeper than " + std::to_string(kMaxParseDepth) + " levels of expressions and statements");
      if (statement_ && ++p_.statements_ > kMaxStatementNesting)
        p_.fail("limit", at, "statements nested deeper than " + std::to_string(kMaxStatementNesting));
    }
    ~Depth() {
      --p_.depth_;
      if (statement_) --p_.statements_;
    }
    Parser& p_;
    bool statement_;
  };

  // Sets e's depth from its children's; refuses a tree deeper than the compiler may recurse.
  ExprP seal(ExprP e) const {
    int d = 0;
    for (const ExprP* c : {&e->a, &e->b, &e->c, &e->d})
      if (*c) d = std::max<int>(d, (*c)->depth);
    if (d + 1 > kMaxExpressionDepth)
      fail("limit", e->pos, "an expression nested deeper than " + std::to_string(kMaxExpressionDepth) + " levels: split it into statements");
    e->depth = static_cast<std::uint16_t>(d + 1);
    return e;
  }

  // ---- types ----
  static bool is_type_word(std::string_view s) {
    return s == "int" || s == "unsigned" || s == "float" || s == "double" || s == "bool" || s == "const" ||
           s == "signed" || s == "long" || s == "short" || s == "char" || s == "size_t" || s == "volatile" ||
           s == "uint32_t" || s == "int32_t" || s == "half" || s == "auto";
  }
  bool at_type() const { return cur().kind == Tok::Ident && is_type_word(cur().text); }

  Type base_type() {
    while (at_ident("const") || at_ident("volatile")) ++i_;
    const SrcPos at = cur().pos;
    const std::string w = ident("a type");
    Type t;
    if (w == "int" || w == "int32_t" || w == "signed") {
      t.base = Base::Int;
      if (w == "signed" && at_ident("int")) ++i_;
    } else if (w == "unsigned" || w == "uint32_t") {
      t.base = Base::UInt;
      if (w == "unsigned" && at_ident("int")) ++i_;
      if (at_ident("long") || at_ident("short") || at_ident("char"))
        fail("unsupported", cur().pos, "type 'unsigned " + cur().text + "' is outside the CUDA subset (int, unsigned int, float, double, bool)");
    } else if (w == "float") {
      t.base = Base::Float;
    } else if (w == "double") {
      t.base = Base::Double;
    } else if (w == "bool") {
      t.base = Base::Bool;
    } else {
      fail("unsupported", at, "type '" + w + "' is outside the CUDA subset (int, unsigned int, float, double, bool)");
    }
    while (at_ident("const") || at_ident("volatile")) ++i_;
    return t;
  }

  // ---- declarations ----
  std::int64_t new_local(const std::string& name, Type type, SrcPos at) {
    declare(name, Symbol{Symbol::Local, k_.slots, type}, at);
    k_.local_names.push_back(name);
    return k_.slots++;
  }
  void declare(const std::string& name, Symbol s, SrcPos at) {
    if (scopes_.back().count(name)) fail("syntax", at, "redefinition of '" + name + "'");
    if (name == "threadIdx" || name == "blockIdx" || name == "blockDim" || name == "gridDim" || name == "warpSize")
      fail("syntax", at, "'" + name + "' is a CUDA built-in variable");
    scopes_.back()[name] = s;
  }

  void parameter() {
    Param p;
    p.pos = cur().pos;
    p.type = base_type();
    if (accept("*")) p.type.pointer = true;
    while (at_ident("const") || at_ident("__restrict__") || at_ident("__restrict")) ++i_;
    if (at("*")) fail("unsupported", cur().pos, "pointers to pointers are outside the CUDA subset");
    if (at("&")) fail("unsupported", cur().pos, "references are outside the CUDA subset");
    p.pos = cur().pos;
    p.name = ident("a parameter name");
    if (at("[")) fail("unsupported", cur().pos, "array parameters: write '" + type_name(p.type) + "* " + p.name + "'");
    if (p.type.base == Base::Void) fail("unsupported", p.pos, "void parameters");
    p.slot = new_local(p.name, p.type, p.pos);
    k_.params.push_back(p);
  }

  std::optional<std::int64_t> const_value(const Expr& e) const {
    switch (e.kind) {
      case EK::IntLit: return e.ival;
      case EK::Cast:
        if (auto v = const_value(*e.a); v && is_integer(e.type.base)) return v;
        return std::nullopt;
      case EK::Unary: {
        auto v = const_value(*e.a);
        if (!v) return v;
        if (e.op == static_cast<int>(UnOp::Neg)) return -*v;
        if (e.op == static_cast<int>(UnOp::Plus)) return *v;
        return std::nullopt;
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
          default: return std::nullopt;
        }
      }
      default: return std::nullopt;
    }
  }

  // After the type: one or more declarators up to ';'.
  StmtP declaration(bool shared) {
    auto list = std::make_unique<Stmt>();
    list->kind = SK::Block;
    list->pos = cur().pos;
    const SrcPos type_at = cur().pos;
    if (at_ident("extern")) fail("unsupported", cur().pos, "extern (dynamic) shared memory: declare the array with a constant size");
    const Type base = base_type();
    do {
      Type t = base;
      if (accept("*")) t.pointer = true;
      if (at("*")) fail("unsupported", cur().pos, "pointers to pointers are outside the CUDA subset");
      const SrcPos at = cur().pos;
      const std::string name = ident("a variable name");
      if (shared) {
        if (t.pointer) fail("unsupported", at, "a __shared__ pointer: declare the pointer as a local");
        SharedVar v{name, t, 1, true, at};
        if (accept("[")) {
          ExprP size = expression();
          expect("]");
          const auto n = const_value(*size);
          if (!n) fail("unsupported", size->pos, "the size of __shared__ array '" + name + "' is not a constant (use a #define)");
          if (*n < 1) fail("syntax", size->pos, "__shared__ array '" + name + "' has size " + std::to_string(*n));
          v.length = *n;
          v.scalar = false;
          if (at_is("[")) fail("unsupported", cur().pos, "multi-dimensional arrays are outside the CUDA subset");
        }
        if (at_is("=")) fail("syntax", cur().pos, "a __shared__ variable cannot have an initializer");
        declare(name, Symbol{Symbol::Shared, static_cast<std::int64_t>(k_.shared.size()), t}, at);
        k_.shared.push_back(v);
      } else {
        if (at_is("[")) fail("unsupported", cur().pos, "local arrays are outside the CUDA subset (use a __shared__ array)");
        if (t.base == Base::Void) fail("unsupported", type_at, "void variables");
        auto d = std::make_unique<Stmt>();
        d->kind = SK::Decl;
        d->pos = at;
        d->type = t;
        if (accept("=")) d->e = convert(assignment(), t, "initialize");
        d->slot = new_local(name, t, at);  // after the initializer: `int x = x;` is not the new x
        list->body.push_back(std::move(d));
      }
    } while (accept(","));
    expect(";");
    return list;
  }
  bool at_is(std::string_view p) const { return at(p); }

  // ---- statements ----
  StmtP block() {
    auto b = std::make_unique<Stmt>();
    b->kind = SK::Block;
    b->pos = cur().pos;
    expect("{");
    scopes_.emplace_back();
    while (!at("}")) {
      if (cur().kind == Tok::End) fail("syntax", b->pos, "this '{' is never closed");
      b->body.push_back(statement());
    }
    ++i_;
    scopes_.pop_back();
    return b;
  }

  StmtP simple(SK kind, SrcPos at) {
    auto s = std::make_unique<Stmt>();
    s->kind = kind;
    s->pos = at;
    return s;
  }

  StmtP sub_statement() {  // a branch or loop body: its own scope even without braces
    scopes_.emplace_back();
    StmtP s = statement();
    scopes_.pop_back();
    return s;
  }

  ExprP condition() {
    expect("(");
    ExprP c = expression();
    expect(")");
    return to_bool(std::move(c));
  }

  StmtP statement() {
    const SrcPos at = cur().pos;
    Depth depth(*this, at, true);
    if (at_is("{")) return block();
    if (accept(";")) return simple(SK::Empty, at);
    if (cur().kind == Tok::Ident) {
      const std::string& w = cur().text;
      if (w == "__shared__") {
        ++i_;
        return declaration(true);
      }
      if (w == "static" || w == "register" || w == "__constant__" || w == "__device__" || w == "typedef" || w == "struct" ||
          w == "enum" || w == "goto" || w == "switch" || w == "case" || w == "default" || w == "asm" || w == "extern")
        fail("unsupported", at, "'" + w + "' is outside the CUDA subset");
      if (at_type()) return declaration(false);
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
        if (at_type()) s->init = declaration(false);
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
      if (w == "break" || w == "continue") {
        ++i_;
        if (loops_ == 0) fail("syntax", at, "'" + w + "' outside a loop");
        expect(";");
        return simple(w == "break" ? SK::Break : SK::Continue, at);
      }
      if (w == "return") {
        ++i_;
        if (!at_is(";")) fail("syntax", cur().pos, "a __global__ kernel returns nothing: write 'return;'");
        ++i_;
        return simple(SK::Return, at);
      }
      if (w == "__syncthreads" || w == "__syncwarp" || w == "__threadfence" || w == "__threadfence_block") {
        ++i_;
        expect("(");
        if (w == "__syncwarp" && !at_is(")")) {
          ExprP mask = expression();
          if (!is_integer(mask->type.base) || mask->type.pointer) fail("syntax", mask->pos, "__syncwarp's mask is an integer");
        }
        expect(")");
        expect(";");
        if (w == "__syncwarp") k_.uses_warp_intrinsics = true;
        return simple(w == "__syncthreads" ? SK::Sync : w == "__syncwarp" ? SK::SyncWarp : SK::Fence, at);
      }
    }
    auto s = simple(SK::Expr, at);
    s->e = expression();
    expect(";");
    return s;
  }

  // ---- expressions ----
  ExprP node(EK kind, SrcPos at, Type type) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->pos = at;
    e->type = type;
    return e;
  }

  ExprP expression() {
    ExprP e = assignment();
    if (at_is(",")) fail("unsupported", cur().pos, "the comma operator is outside the CUDA subset");
    return e;
  }

  static bool lvalue(const Expr& e) { return e.kind == EK::Local || e.kind == EK::SharedScalar || e.kind == EK::Index; }

  void mark_access(const Expr& target, bool write) {
    if (target.kind != EK::Index || target.a->kind != EK::Local) return;
    for (Param& p : k_.params)
      if (p.slot == target.a->ival) (write ? p.written : p.read) = true;
  }

  ExprP assignment() {
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
      if (lhs->type.pointer) {
        if (op != BinOp::None) fail("unsupported", at, "pointer arithmetic is outside the CUDA subset");
        if (lhs->kind != EK::Local) fail("unsupported", at, "storing a pointer in memory");
        if (!rhs->type.pointer || rhs->type.base != lhs->type.base)
          fail("syntax", rhs->pos, "assigning " + type_name(rhs->type) + " to " + type_name(lhs->type));
      } else if (op != BinOp::None) {
        check_binary(op, *lhs, *rhs, at);
        const Type result = arithmetic_result(lhs->type, rhs->type);  // before rhs is moved: arguments have no order
        rhs = convert(std::move(rhs), result, "combine");
      } else {
        rhs = convert(std::move(rhs), lhs->type, "assign");
      }
      mark_access(*lhs, true);
      if (op != BinOp::None) mark_access(*lhs, false);
      auto e = node(EK::Assign, at, lhs->type);
      e->op = static_cast<std::uint8_t>(op);
      e->a = std::move(lhs);
      e->b = std::move(rhs);
      return seal(std::move(e));
    }
    return lhs;
  }

  ExprP conditional() {
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
      if (a->type != b->type) fail("syntax", at, "the two sides of '?:' are " + type_name(a->type) + " and " + type_name(b->type));
      t = a->type;
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

  struct BinInfo {
    std::string_view text;
    int prec;
    BinOp op;
    bool logical_and = false, logical_or = false;
  };
  static const BinInfo* binary_at(const Token& t) {
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

  static Type arithmetic_result(Type a, Type b) {
    if (a.base == Base::Double || b.base == Base::Double) return {Base::Double, false};
    if (a.base == Base::Float || b.base == Base::Float) return {Base::Float, false};
    if (a.base == Base::UInt || b.base == Base::UInt) return {Base::UInt, false};
    return {Base::Int, false};
  }

  void check_binary(BinOp op, const Expr& a, const Expr& b, SrcPos at) const {
    if (a.type.pointer || b.type.pointer) {
      if (op == BinOp::Eq || op == BinOp::Ne) {
        if (a.type != b.type) fail("syntax", at, "comparing " + type_name(a.type) + " with " + type_name(b.type));
        return;
      }
      fail("unsupported", at, "pointer arithmetic is outside the CUDA subset (index the pointer instead: p[i])");
    }
    const bool ints = op == BinOp::Mod || op == BinOp::Shl || op == BinOp::Shr || op == BinOp::BitAnd ||
                      op == BinOp::BitOr || op == BinOp::BitXor;
    if (ints && (!is_integer(a.type.base) || !is_integer(b.type.base)))
      fail("syntax", at, "operator needs integer operands, not " + type_name(a.type) + " and " + type_name(b.type));
    if (a.type.base == Base::Void || b.type.base == Base::Void) fail("syntax", at, "a void value in an expression");
  }

  ExprP binary(int min_prec) {
    ExprP lhs = unary();
    while (const BinInfo* info = binary_at(cur())) {
      if (info->prec <= min_prec) break;
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
      check_binary(info->op, *lhs, *rhs, at);
      const bool compare = info->op >= BinOp::Lt;
      const Type common = lhs->type.pointer ? lhs->type : arithmetic_result(lhs->type, rhs->type);
      Type operand = common;
      if ((info->op == BinOp::Shl || info->op == BinOp::Shr)) operand = arithmetic_result(lhs->type, {Base::Int, false});
      auto e = node(EK::Binary, at, compare ? Type{Base::Bool, false} : operand);
      e->op = static_cast<std::uint8_t>(info->op);
      e->a = convert(std::move(lhs), operand, "compute");
      e->b = (info->op == BinOp::Shl || info->op == BinOp::Shr) ? convert(std::move(rhs), {Base::Int, false}, "shift")
                                                                : convert(std::move(rhs), common, "compute");
      lhs = seal(std::move(e));
    }
    return lhs;
  }

  ExprP to_bool(ExprP e) {
    if (e->type.base == Base::Void) fail("syntax", e->pos, "a void value used as a condition");
    if (e->type.pointer) fail("unsupported", e->pos, "a pointer used as a condition");
    if (e->type.base == Base::Bool) return e;
    return convert(std::move(e), {Base::Bool, false}, "test");
  }

  ExprP convert(ExprP e, Type to, const char* verb) {
    if (e->type == to) return e;
    if (e->type.pointer || to.pointer)
      fail("syntax", e->pos, std::string("cannot ") + verb + " " + type_name(to) + " with " + type_name(e->type));
    if (e->type.base == Base::Void) fail("syntax", e->pos, "a void value in an expression");
    auto c = node(EK::Cast, e->pos, to);
    c->a = std::move(e);
    return seal(std::move(c));
  }

  ExprP unary() {
    const SrcPos at = cur().pos;
    Depth depth(*this, at);
    static constexpr std::pair<std::string_view, UnOp> ops[] = {{"-", UnOp::Neg}, {"+", UnOp::Plus}, {"!", UnOp::Not}, {"~", UnOp::BitNot}};
    for (const auto& [text, op] : ops)
      if (at_is(text)) {
        ++i_;
        ExprP a = unary();
        if (a->type.pointer) fail("unsupported", at, "operator '" + std::string(text) + "' on a pointer");
        if (op == UnOp::Not) a = to_bool(std::move(a));
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
    if (at_is("&") || at_is("*")) fail("unsupported", at, std::string("unary '") + cur().text + "' (address-of and dereference) is outside the CUDA subset; index instead: p[i]");
    if (at_ident("sizeof")) fail("unsupported", at, "sizeof is outside the CUDA subset");
    if (at_is("(") && t_[i_ + 1].kind == Tok::Ident && is_type_word(t_[i_ + 1].text)) {
      ++i_;
      Type t = base_type();
      if (accept("*")) t.pointer = true;
      expect(")");
      ExprP a = unary();
      if (t.pointer || a->type.pointer) {
        if (a->type != t) fail("unsupported", at, "casting " + type_name(a->type) + " to " + type_name(t));
        return a;
      }
      auto e = node(EK::Cast, at, t);
      e->a = std::move(a);
      return seal(std::move(e));
    }
    return postfix();
  }

  ExprP incdec(ExprP a, bool dec, bool prefix, SrcPos at) {
    if (!lvalue(*a)) fail("syntax", at, std::string("the operand of '") + (dec ? "--" : "++") + "' is not assignable");
    if (a->type.pointer) fail("unsupported", at, "pointer arithmetic is outside the CUDA subset");
    mark_access(*a, true);
    mark_access(*a, false);
    auto e = node(EK::IncDec, at, a->type);
    e->op = dec ? 1 : 0;
    e->prefix = prefix;
    e->a = std::move(a);
    return seal(std::move(e));
  }

  ExprP postfix() {
    ExprP e = primary();
    while (true) {
      const SrcPos at = cur().pos;
      if (accept("[")) {
        Depth depth(*this, at);
        if (!e->type.pointer) fail("syntax", at, "indexing something that is not an array or a pointer");
        ExprP index = expression();
        expect("]");
        if (index->type.pointer || !is_integer(index->type.base)) fail("syntax", index->pos, "an array index must be an integer, not " + type_name(index->type));
        auto ix = node(EK::Index, at, Type{e->type.base, false});
        ix->a = std::move(e);
        ix->b = std::move(index);
        mark_access(*ix, false);
        e = seal(std::move(ix));
      } else if (at_is("++") || at_is("--")) {
        const bool dec = at_is("--");
        ++i_;
        e = incdec(std::move(e), dec, false, at);
      } else if (at_is(".") || at_is("->")) {
        fail("unsupported", at, "member access is outside the CUDA subset");
      } else if (at_is("(")) {
        fail("unsupported", at, "calling this is outside the CUDA subset");
      } else {
        return e;
      }
    }
  }

  ExprP literal_int(std::int64_t v, SrcPos at, Base b = Base::Int) {
    auto e = node(EK::IntLit, at, {b, false});
    e->ival = v;
    return e;
  }

  ExprP builtin(const std::string& name, SrcPos at) {
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

  std::vector<ExprP> arguments(const std::string& name, std::size_t min, std::size_t max) {
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

  ExprP call(const std::string& name, SrcPos at) {
    if (name.rfind("__shfl_", 0) == 0) {
      ShflKind kind;
      if (name == "__shfl_up_sync") kind = ShflKind::Up;
      else if (name == "__shfl_down_sync") kind = ShflKind::Down;
      else if (name == "__shfl_sync") kind = ShflKind::Idx;
      else if (name == "__shfl_xor_sync") kind = ShflKind::Xor;
      else fail("unsupported", at, "'" + name + "' is outside the CUDA subset (__shfl_sync, __shfl_up_sync, __shfl_down_sync, __shfl_xor_sync)");
      auto args = arguments(name, 3, 4);
      if (args[1]->type.pointer) fail("unsupported", args[1]->pos, "shuffling a pointer");
      auto e = node(EK::Shfl, at, args[1]->type);
      e->op = static_cast<std::uint8_t>(kind);
      e->a = convert(std::move(args[0]), {Base::UInt, false}, "mask");
      e->b = std::move(args[1]);
      e->c = convert(std::move(args[2]), {Base::Int, false}, "shuffle by");
      if (args.size() == 4) e->d = convert(std::move(args[3]), {Base::Int, false}, "shuffle within");
      k_.uses_warp_intrinsics = true;
      return seal(std::move(e));
    }
    if (name == "atomicAdd") {
      const SrcPos aat = cur().pos;
      expect("(");
      if (!accept("&")) fail("unsupported", cur().pos, "atomicAdd's first argument in the subset is &array[index] or &scalar");
      ExprP target = unary();
      if (!lvalue(*target) || target->kind == EK::Local) fail("syntax", target->pos, "atomicAdd needs a shared or global cell");
      if (target->type.base == Base::Bool) fail("unsupported", target->pos, "atomicAdd on a bool: CUDA's atomicAdd takes int, unsigned int, float or double");
      expect(",");
      ExprP v = assignment();
      expect(")");
      (void)aat;
      mark_access(*target, true);
      mark_access(*target, false);
      auto e = node(EK::AtomicAdd, at, target->type);
      e->b = convert(std::move(v), target->type, "add");
      e->a = std::move(target);
      return seal(std::move(e));
    }
    if (name == "__syncthreads" || name == "__syncwarp" || name == "__threadfence")
      fail("unsupported", at, name + "() inside an expression: write it as a statement of its own");
    fail("unsupported", at, "call of '" + name + "': functions other than the CUDA intrinsics (__syncthreads, __shfl_*_sync, __syncwarp, atomicAdd, __threadfence) are outside the subset");
  }

  ExprP primary() {
    const Token& tok = cur();
    const SrcPos at = tok.pos;
    if (tok.kind == Tok::Int) {
      ++i_;
      return literal_int(static_cast<std::int64_t>(tok.int_value), at, tok.unsigned_suffix ? Base::UInt : Base::Int);
    }
    if (tok.kind == Tok::Float) {
      ++i_;
      auto e = node(EK::FloatLit, at, {tok.float_suffix ? Base::Float : Base::Double, false});
      e->fval = tok.float_suffix ? static_cast<double>(static_cast<float>(tok.float_value)) : tok.float_value;
      return e;
    }
    if (accept("(")) {
      Depth depth(*this, at);
      ExprP e = expression();
      expect(")");
      return e;
    }
    if (tok.kind != Tok::Ident) fail("syntax", at, "expected an expression, found '" + tok.text + "'");
    const std::string name = tok.text;
    ++i_;
    if (name == "true" || name == "false") return literal_int(name == "true", at, Base::Bool);
    if (name == "threadIdx" || name == "blockIdx" || name == "blockDim" || name == "gridDim") return builtin(name, at);
    if (name == "warpSize") {
      auto e = node(EK::Builtin, at, {Base::Int, false});
      e->ival = static_cast<int>(Builtin::WarpSize);
      return e;
    }
    if (at_is("(")) return call(name, at);
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s) {
      const auto it = s->find(name);
      if (it == s->end()) continue;
      const Symbol& sym = it->second;
      if (sym.kind == Symbol::Local) {
        auto e = node(EK::Local, at, sym.type);
        e->ival = sym.index;
        return e;
      }
      const SharedVar& v = k_.shared[static_cast<std::size_t>(sym.index)];
      auto e = node(v.scalar ? EK::SharedScalar : EK::Shared, at, v.scalar ? v.elem : Type{v.elem.base, true});
      e->ival = sym.index;
      return e;
    }
    fail("syntax", at, "use of undeclared identifier '" + name + "'");
  }

  std::vector<Token> t_;
  std::string file_;
  std::size_t i_ = 0;
  Kernel k_;
  std::vector<std::map<std::string, Symbol>> scopes_;
  int depth_ = 0;
  int statements_ = 0;
  int loops_ = 0;
};

}  // namespace

Kernel parse_kernel(std::string_view source, const std::string& file, const std::map<std::string, std::string>& overrides) {
  Lexed lexed = lex(source, file, overrides);
  return Parser(std::move(lexed.tokens), file).kernel();
}

std::map<std::string, SrcPos> defined_macros(std::string_view source, const std::string& file) {
  try {
    return lex(source, file).macros;
  } catch (const KernelError&) {
    return {};
  }
}

}  // namespace sv::cuda
