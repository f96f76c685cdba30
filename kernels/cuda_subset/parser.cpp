// The recursive-descent parser of a kernel's .cu file (docs/kernel-subset.md): the whole file is read,
// its host code skipped, its __device__ functions, file-scope constants and __global__ kernels parsed;
// declarations resolve to slots and shared buffers as they are read, and every expression gets its C
// type. One kernel is the entry; the functions it calls are compiled inline (compile.cpp).
#include "cuda_subset/parser.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

#include "cuda_subset/lexer.hpp"

namespace sv::cuda {

std::string type_name(Type t) {
  static constexpr const char* names[] = {"void", "bool", "int", "unsigned int", "float", "double", "long long", "unsigned long long"};
  return std::string(names[static_cast<int>(t.base)]) + (t.pointer ? "*" : "");
}

namespace {

struct Symbol {
  enum Kind { Local, Shared, Constant, TypeAlias } kind = Local;
  std::int64_t index = 0;  // Local: the slot; Shared: the shared variable; Constant: an integer's value
  double fvalue = 0;       // Constant: a floating value
  Type type;
};

// What stands before a declaration at file scope or in a body.
struct Specifiers {
  bool global = false, device = false, host = false, shared = false, constant = false, is_extern = false, is_const = false;
  SrcPos at;
  bool any_cuda() const { return global || device || shared || constant; }
};

std::int64_t size_of(Type t) {
  if (t.pointer) return 8;
  switch (t.base) {
    case Base::Bool: return 1;
    case Base::Double:
    case Base::Long:
    case Base::ULong: return 8;
    default: return 4;
  }
}

class Parser {
 public:
  Parser(Lexed lexed, std::string file) : t_(std::move(lexed.tokens)), files_(std::move(lexed.files)), file_(std::move(file)) {
    if (files_.empty()) files_.push_back(file_);
  }

  // The whole file; `entry` names the kernel to return (empty: the file's only kernel).
  Kernel file(const std::string& entry) {
    scopes_.emplace_back();  // the file's scope: constants, type aliases, extern __shared__ arrays
    while (cur().kind != Tok::End) top_level();
    if (namespaces_ > 0) fail("syntax", cur().pos, "a namespace's '{' is never closed");
    return pick(entry);
  }

 private:
  // ---- the file ----
  Kernel pick(const std::string& entry) {
    std::string names;
    for (const Kernel& k : kernels_) names += (names.empty() ? "" : ", ") + k.name;
    std::size_t chosen = kernels_.size();
    if (!entry.empty()) {
      for (std::size_t i = 0; i < kernels_.size(); ++i)
        if (kernels_[i].name == entry) chosen = i;
      if (chosen == kernels_.size()) {
        const bool function = function_index_.count(entry) > 0;
        fail("unsupported", {1, 1}, "'" + entry + "' is " + (function ? "a __device__ function, not a __global__ kernel" : "not a kernel of this file") +
                                        (kernels_.empty() ? " (it has none)" : " (its kernels: " + names + ")"));
      }
    } else if (kernels_.size() == 1) {
      chosen = 0;
    } else if (kernels_.empty()) {
      fail("unsupported", cur().pos, "no __global__ kernel in this file");
    } else {
      fail("unsupported", kernels_[1].pos, "the file has " + std::to_string(kernels_.size()) + " kernels (" + names +
                                               "): say which one runs, e.g. --launch '" + kernels_[0].name + "<<<GRID, BLOCK>>>(in, out, n)'");
    }
    Kernel k = std::move(kernels_[chosen]);
    k.slots = slots_;
    k.local_names = local_names_;
    k.files = files_;
    for (const Kernel& other : kernels_) k.kernels.push_back(other.name.empty() ? k.name : other.name);
    for (std::size_t i = 0; i < kernels_.size(); ++i)
      if (i == chosen) k.kernels[i] = k.name;
    check_calls(k);
    k.functions = std::move(functions_);
    return k;
  }

  // Every function the kernel reaches is defined and none calls itself, directly or not: a call is
  // compiled inline with the callee's own slots.
  void check_calls(Kernel& k) {
    std::vector<int> state(functions_.size(), 0);  // 0 unseen, 1 on the path, 2 done
    std::function<void(std::size_t)> visit = [&](std::size_t f) {
      if (state[f] == 2) return;
      const Function& fn = functions_[f];
      if (state[f] == 1) fail("unsupported", fn.pos, "'" + fn.name + "' calls itself (directly or through another function): recursion is not read");
      if (!fn.body) fail("unsupported", fn.pos, "'" + fn.name + "' is declared but never defined in this file");
      state[f] = 1;
      for (const std::int64_t g : fn.calls) visit(static_cast<std::size_t>(g));
      state[f] = 2;
      if (warp_functions_.count(f)) k.uses_warp_intrinsics = true;
    };
    for (const std::int64_t f : kernel_calls_[k.name]) visit(static_cast<std::size_t>(f));
  }

  void top_level() {
    if (accept(";")) return;
    if (at("}")) {
      if (namespaces_ == 0) fail("syntax", cur().pos, "unexpected '}' at file scope");
      ++i_;
      --namespaces_;
      return;
    }
    if (at_ident("namespace")) {
      ++i_;
      if (cur().kind == Tok::Ident) ++i_;
      if (accept("{")) {
        ++namespaces_;
        return;
      }
      skip_host_item();
      return;
    }
    if (at_ident("template")) {
      template_header();
      return;
    }
    if (at_ident("typedef") || at_ident("using")) {
      alias();
      return;
    }
    if (at_ident("struct") || at_ident("class") || at_ident("union") || at_ident("enum")) {
      skip_host_item();
      return;
    }
    const std::size_t start = i_;
    const Specifiers s = specifiers();
    if (s.global) return kernel_definition();
    if (s.device || s.constant || s.shared) {
      if (s.shared) return file_shared(s);
      if (looks_like_function()) return function_definition();
      return device_variable();
    }
    if (s.is_const && at_type() && constant_definition()) return;
    i_ = start;
    skip_host_item();
  }

  // __global__, __device__, __host__, __shared__, __constant__, static, inline, extern "C", const,
  // constexpr, __launch_bounds__(...), in any order.
  Specifiers specifiers() {
    Specifiers s;
    s.at = cur().pos;
    while (cur().kind == Tok::Ident) {
      const std::string& w = cur().text;
      if (w == "__global__") s.global = true;
      else if (w == "__device__") s.device = true;
      else if (w == "__host__") s.host = true;
      else if (w == "__shared__") s.shared = true;
      else if (w == "__constant__") s.constant = true;
      else if (w == "extern") {
        s.is_extern = true;
        if (t_[i_ + 1].kind == Tok::String) ++i_;  // extern "C"
      } else if (w == "const" || w == "constexpr") s.is_const = true;
      else if (w == "__launch_bounds__") {
        ++i_;
        skip_balanced("(", ")");
        continue;
      } else if (w != "static" && w != "inline" && w != "__inline__" && w != "__forceinline__" && w != "__noinline__" && w != "register")
        break;
      ++i_;
    }
    return s;
  }

  // TYPE [*] NAME ( : a function's declaration or definition follows.
  bool looks_like_function() const {
    std::size_t j = i_;
    while (t_[j].kind == Tok::Ident && (is_type_word(t_[j].text) || alias_of(t_[j].text))) ++j;
    while (t_[j].kind == Tok::Punct && (t_[j].text == "*" || t_[j].text == "&")) ++j;
    while (t_[j].kind == Tok::Ident && (t_[j].text == "const" || t_[j].text == "__restrict__")) ++j;
    return j > i_ && t_[j].kind == Tok::Ident && t_[j + 1].kind == Tok::Punct && t_[j + 1].text == "(";
  }

  // Skips what scanviz does not run: host functions (their bodies), host variables, structs,
  // prototypes. Ends after the item's ';' or its body's '}'.
  void skip_host_item() {
    int parens = 0;
    bool assigned = false;
    const Token& start = cur();
    while (cur().kind != Tok::End) {
      // A CUDA keyword inside what was taken for host code: the words before it are not C.
      if (parens == 0 && &cur() != &start && cur().kind == Tok::Ident &&
          (cur().text == "__global__" || cur().text == "__device__" || cur().text == "__shared__" || cur().text == "__constant__"))
        fail("syntax", start.pos, "'" + start.text + "' does not start a declaration (before '" + cur().text + "' on line " +
                                      std::to_string(cur().pos.line) + ")");
      if (at("(") || at("[")) ++parens;
      else if (at(")") || at("]")) --parens;
      else if (parens == 0 && at("=")) assigned = true;
      else if (parens == 0 && at(";")) {
        ++i_;
        return;
      } else if (at("{")) {
        skip_balanced("{", "}");
        if (!assigned && !at(";")) return;  // a function's body (a struct's is followed by ';')
        continue;
      } else if (at("}")) {
        if (&cur() == &start) fail("syntax", start.pos, "unexpected '}'");
        return;  // a namespace's end: top_level closes it
      }
      ++i_;
    }
  }

  // From an opening `open` to after its matching `close`.
  void skip_balanced(std::string_view open, std::string_view close) {
    const SrcPos at = cur().pos;
    expect(open);
    int depth = 1;
    while (depth > 0) {
      if (cur().kind == Tok::End) fail("syntax", at, "this '" + std::string(open) + "' is never closed");
      if (at_is(open)) ++depth;
      else if (at_is(close)) --depth;
      ++i_;
    }
  }

  void template_header() {
    fail("unsupported", cur().pos, "templates are not read yet: write the kernel for one type and block size (a #define)");
  }

  // typedef TYPE NAME; and using NAME = TYPE; of a type scanviz knows; any other is skipped.
  void alias() {
    const std::size_t start = i_;
    const bool is_using = at_ident("using");
    ++i_;
    std::string name;
    if (is_using) {
      if (cur().kind != Tok::Ident || t_[i_ + 1].text != "=") {
        i_ = start;
        skip_host_item();
        return;
      }
      name = t_[i_].text;
      i_ += 2;
    }
    if (!at_type()) {
      i_ = start;
      skip_host_item();
      return;
    }
    Type t = base_type();
    if (accept("*")) t.pointer = true;
    if (!is_using) {
      if (cur().kind != Tok::Ident) {
        i_ = start;
        skip_host_item();
        return;
      }
      name = t_[i_++].text;
    }
    if (!at(";")) {
      i_ = start;
      skip_host_item();
      return;
    }
    ++i_;
    scopes_.front()[name] = Symbol{Symbol::TypeAlias, 0, 0, t};
  }

  // const int N = 1024; at file scope: a constant the kernels and array sizes use. False (nothing
  // read) where it is not one.
  bool constant_definition() {
    const std::size_t start = i_;
    const Type t = base_type();
    if (t.pointer || cur().kind != Tok::Ident || t_[i_ + 1].text != "=") {
      i_ = start;
      return false;
    }
    do {
      const SrcPos at = cur().pos;
      const std::string name = ident("a constant's name");
      expect("=");
      ExprP v = assignment();
      const auto value = const_value(*v);
      if (is_integer(t.base) && value) {
        scopes_.front()[name] = Symbol{Symbol::Constant, wrap_const(t.base, *value), 0, t};
      } else if (is_floating(t.base) && v->kind == EK::FloatLit) {
        scopes_.front()[name] = Symbol{Symbol::Constant, 0, v->fval, t};
      } else if (is_floating(t.base) && value) {
        scopes_.front()[name] = Symbol{Symbol::Constant, 0, static_cast<double>(*value), t};
      } else {
        fail("unsupported", at, "file-scope constant '" + name + "' is not a constant expression");
      }
    } while (accept(","));
    expect(";");
    return true;
  }
  static std::int64_t wrap_const(Base b, std::int64_t v) {
    if (b == Base::UInt) return static_cast<std::int64_t>(static_cast<std::uint32_t>(v));
    if (b == Base::Int) return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
    if (b == Base::Bool) return v != 0;
    return v;
  }

  // __device__ T name [= VALUE]; or __device__ T name[SIZE]; (and __constant__): a cell or an array of
  // global memory every kernel of the file sees, set to VALUE (else 0) at the start of every run.
  void device_variable() {
    if (!at_type()) fail("syntax", cur().pos, "expected the type of a __device__ variable, found '" + cur().text + "'");
    const Type t = base_type();
    do {
      if (at("*")) fail("unsupported", cur().pos, "a __device__ pointer is not read: pass the buffer as a kernel parameter");
      const SrcPos at = cur().pos;
      const std::string name = ident("a variable name");
      SharedVar v{name, t, 1, true, false, at};
      v.device = true;
      if (accept("[")) {
        ExprP size = expression();
        expect("]");
        const auto n = const_value(*size);
        if (!n || *n < 1 || *n > (std::int64_t{1} << 24))
          fail("unsupported", size->pos, "the size of __device__ array '" + name + "' is not a constant from 1 to 2^24");
        v.length = *n;
        v.scalar = false;
      }
      if (accept("=")) {
        if (accept("{")) {  // = {} or = {0}: zeroed, as it is anyway
          if (!at_is("}")) {
            ExprP first = assignment();
            if (const_value(*first).value_or(1) != 0 || !at_is("}"))
              fail("unsupported", first->pos, "a __device__ array's initializer other than {0} is not read");
          }
          expect("}");
        } else {
          ExprP value = assignment();
          const auto n = const_value(*value);
          if (n) v.init = static_cast<double>(*n);
          else if (value->kind == EK::FloatLit) v.init = value->fval;
          else fail("unsupported", value->pos, "the initializer of __device__ '" + name + "' is not a constant");
        }
      }
      scopes_.front()[name] = Symbol{Symbol::Shared, static_cast<std::int64_t>(file_shared_.size()), 0, t};
      file_shared_.push_back(v);
    } while (accept(","));
    expect(";");
  }

  // extern __shared__ T name[]; at file scope: the kernels' dynamic shared memory.
  void file_shared(const Specifiers& s) {
    if (!s.is_extern) fail("unsupported", s.at, "a __shared__ variable at file scope: declare it inside the kernel");
    StmtP ignored = shared_declaration(true, file_shared_);
    (void)ignored;
  }

  // __global__ void NAME(PARAMETERS) { BODY } (or a prototype, skipped).
  void kernel_definition() {
    Kernel k;
    k.file = file_;
    k.pos = cur().pos;
    if (!at_ident("void")) fail("syntax", cur().pos, "a __global__ kernel returns void");
    ++i_;
    k.pos = cur().pos;
    k.name = ident("the kernel's name");
    for (const Kernel& other : kernels_)
      if (other.name == k.name && other.body) fail("unsupported", k.pos, "a second kernel named '" + k.name + "' (overloads are not read)");
    k.shared = file_shared_;
    expect("(");
    scopes_.emplace_back();
    params_ = &k.params;
    if (!at(")")) {
      if (at_ident("void") && t_[i_ + 1].text == ")") ++i_;
      else
        do k.params.push_back(parameter(nullptr)); while (accept(","));
    }
    expect(")");
    if (accept(";")) {  // a prototype
      scopes_.pop_back();
      params_ = nullptr;
      return;
    }
    for (const Param& p : k.params)
      if (p.type.pointer && p.type.base != Base::Void) {
        k.element = Type{p.type.base, false};
        break;
      }
    if (!at("{")) fail("syntax", cur().pos, "expected '{' to open the kernel's body");
    shared_ = &k.shared;
    calls_ = &kernel_calls_[k.name];
    warp_ = &k.uses_warp_intrinsics;
    result_.reset();
    in_function_ = false;
    k.body = block();
    scopes_.pop_back();
    params_ = nullptr;
    shared_ = nullptr;
    calls_ = nullptr;
    warp_ = nullptr;
    kernels_.push_back(std::move(k));
  }

  // A __device__ function: TYPE NAME(PARAMETERS) { BODY }, or its prototype.
  void function_definition() {
    const Type result = base_type();
    Type r = result;
    if (accept("*")) r.pointer = true;
    if (at("&")) fail("unsupported", cur().pos, "functions returning references are not read");
    const SrcPos at = cur().pos;
    const std::string name = ident("the function's name");
    std::size_t index = functions_.size();
    if (const auto it = function_index_.find(name); it != function_index_.end()) {
      index = it->second;
      if (functions_[index].body) {
        // A second definition: an overload, or the same function again.
        fail("unsupported", at, "a second function named '" + name + "' (overloads are not read)");
      }
    } else {
      function_index_[name] = index;
      functions_.emplace_back();
    }
    Function f;
    f.name = name;
    f.pos = at;
    f.result = r;
    expect("(");
    scopes_.emplace_back();
    params_ = &f.params;
    if (!at_is(")")) {
      if (at_ident("void") && t_[i_ + 1].text == ")") ++i_;
      else
        do f.params.push_back(parameter(&f.defaults)); while (accept(","));
    }
    expect(")");
    while (at_ident("const")) ++i_;
    if (accept(";")) {  // a prototype: the definition comes later
      scopes_.pop_back();
      params_ = nullptr;
      if (!functions_[index].body) {
        functions_[index].name = name;
        functions_[index].pos = at;
        functions_[index].result = r;
        functions_[index].params = std::move(f.params);
        functions_[index].defaults = std::move(f.defaults);
      }
      return;
    }
    if (!at_is("{")) fail("syntax", cur().pos, "expected '{' to open the body of '" + name + "'");
    bool warp = false;
    shared_ = nullptr;
    calls_ = &f.calls;
    warp_ = &warp;
    result_ = r;
    in_function_ = true;
    // A prototype's slots are replaced by the definition's: the body names the definition's.
    functions_[index] = Function{name, at, r, {}, {}, nullptr, {}};
    functions_[index].params = f.params;
    f.body = block();
    if (warp) warp_functions_.insert(index);
    scopes_.pop_back();
    params_ = nullptr;
    calls_ = nullptr;
    warp_ = nullptr;
    result_.reset();
    in_function_ = false;
    functions_[index] = std::move(f);
  }

  // ---- tokens ----
  const Token& cur() const { return t_[i_]; }
  bool at(std::string_view p) const { return cur().kind == Tok::Punct && cur().text == p; }
  bool at_is(std::string_view p) const { return at(p); }
  bool at_ident(std::string_view s) const { return cur().kind == Tok::Ident && cur().text == s; }
  bool next_is(std::string_view p) const { return t_[i_ + 1].kind == Tok::Punct && t_[i_ + 1].text == p; }
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
  [[noreturn]] void fail(const char* kind, SrcPos at, const std::string& what) const {
    throw KernelError(kind, at.file < files_.size() ? files_[at.file] : file_, at, what);
  }

  // Bounds the parser's recursion (`statements`: the statements nesting, else the expressions').
  struct Depth {
    Depth(Parser& p, SrcPos at, bool statement = false) : p_(p), statement_(statement) {
      if (++p_.depth_ > kMaxParseDepth)
        p_.fail("limit", at, "nesting deeper than " + std::to_string(kMaxParseDepth) + " levels of expressions and statements (the compiler's recursion)");
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
    for (const ExprP& c : e->args) d = std::max<int>(d, c->depth);
    if (d + 1 > kMaxExpressionDepth)
      fail("limit", e->pos, "an expression nested deeper than " + std::to_string(kMaxExpressionDepth) + " levels: split it into statements");
    e->depth = static_cast<std::uint16_t>(d + 1);
    return e;
  }

  // ---- types ----
  static bool is_type_word(std::string_view s) {
    static const std::set<std::string_view> words = {
        "int", "unsigned", "float", "double", "bool", "const", "signed", "long", "short", "char", "size_t", "volatile",
        "uint32_t", "int32_t", "int64_t", "uint64_t", "int16_t", "uint16_t", "int8_t", "uint8_t", "half", "auto", "void",
        "constexpr", "ptrdiff_t", "ssize_t", "uint", "__half"};
    return words.count(s) > 0;
  }
  const Symbol* alias_of(const std::string& name) const {
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s)
      if (const auto it = s->find(name); it != s->end()) return it->second.kind == Symbol::TypeAlias ? &it->second : nullptr;
    return nullptr;
  }
  bool at_type() const { return cur().kind == Tok::Ident && (is_type_word(cur().text) || alias_of(cur().text)); }

  // A type's words (`unsigned long long int`, `const float`, `size_t`, an alias): its base; `auto`
  // sets auto_ (the declaration takes its initializer's type), `const` sets const_.
  Type base_type() {
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

  // ---- declarations ----
  std::int64_t new_local(const std::string& name, Type type, SrcPos at) {
    declare(name, Symbol{Symbol::Local, slots_, 0, type}, at);
    local_names_.push_back(name);
    return slots_++;
  }
  void declare(const std::string& name, Symbol s, SrcPos at) {
    if (scopes_.back().count(name)) fail("syntax", at, "redefinition of '" + name + "'");
    if (name == "threadIdx" || name == "blockIdx" || name == "blockDim" || name == "gridDim" || name == "warpSize")
      fail("syntax", at, "'" + name + "' is a CUDA built-in variable");
    scopes_.back()[name] = s;
  }

  // A parameter of a kernel or (with `defaults`) of a function: TYPE [*] NAME [= DEFAULT], or TYPE NAME[].
  Param parameter(std::vector<ExprP>* defaults) {
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

  std::optional<std::int64_t> const_value(const Expr& e) const {
    switch (e.kind) {
      case EK::IntLit: return e.ival;
      case EK::Local:
        if (const auto it = slot_constants_.find(e.ival); it != slot_constants_.end()) return it->second;
        return std::nullopt;
      case EK::Cast:
        if (auto v = const_value(*e.a); v && is_integer(e.type.base)) return wrap_const(e.type.base, *v);
        return std::nullopt;
      case EK::Unary: {
        auto v = const_value(*e.a);
        if (!v) return v;
        if (e.op == static_cast<int>(UnOp::Neg)) return -*v;
        if (e.op == static_cast<int>(UnOp::Plus)) return *v;
        if (e.op == static_cast<int>(UnOp::Not)) return *v == 0;
        if (e.op == static_cast<int>(UnOp::BitNot)) return wrap_const(e.type.base, ~*v);
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

  // __shared__ declarators after the type, up to ';' (`dynamic`: extern __shared__ T name[]), into `into`.
  StmtP shared_declaration(bool dynamic, std::vector<SharedVar>& into) {
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

  // After the type: one or more declarators up to ';'.
  StmtP declaration() {
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
      if (at_is("[")) fail("unsupported", cur().pos, "local arrays are not read yet (use a __shared__ array)");
      if (t.base == Base::Void && !t.pointer && !is_auto) fail("unsupported", type_at, "void variables");
      auto d = std::make_unique<Stmt>();
      d->kind = SK::Decl;
      d->pos = at;
      if (accept("=")) {
        ExprP init = assignment();
        if (is_auto) t = init->type;
        if (t.base == Base::Void && !t.pointer) fail("syntax", init->pos, "a void value initializes '" + name + "'");
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

  StmtP shared_statement(SrcPos at, bool dynamic) {
    if (!shared_) fail("unsupported", at, "a __shared__ variable inside a __device__ function: declare it in the kernel and pass a pointer");
    return shared_declaration(dynamic, *shared_);
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
          w == "switch" || w == "case" || w == "default" || w == "asm" || w == "class" || w == "union" || w == "template")
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
      if (w == "break" || w == "continue") {
        ++i_;
        if (loops_ == 0) fail("syntax", at, "'" + w + "' outside a loop");
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
        ++i_;
        expect("(");
        if (w == "__syncwarp" && !at_is(")")) {
          ExprP mask = expression();
          if (!is_integer(mask->type.base) || mask->type.pointer) fail("syntax", mask->pos, "__syncwarp's mask is an integer");
        }
        expect(")");
        expect(";");
        if (w == "__syncwarp" && warp_) *warp_ = true;
        return simple(w == "__syncthreads" ? SK::Sync : w == "__syncwarp" ? SK::SyncWarp : SK::Fence, at);
      }
    }
    auto s = simple(SK::Expr, at);
    s->e = expression();
    expect(";");
    return s;
  }

  StmtP return_statement(SrcPos at) {
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

  static bool lvalue(const Expr& e) { return e.kind == EK::Local || e.kind == EK::SharedScalar || e.kind == EK::Index; }

  // The parameter of the kernel or function being read that `e` points into (through p + i and casts).
  Param* param_behind(const Expr& e) const {
    const Expr* root = &e;
    while (root->kind == EK::PtrAdd || root->kind == EK::Cast) root = root->a.get();
    if (root->kind != EK::Local || !params_) return nullptr;
    for (Param& p : *params_)
      if (p.slot == root->ival) return &p;
    return nullptr;
  }

  void mark_access(const Expr& target, bool write) {
    if (target.kind != EK::Index) return;
    if (Param* p = param_behind(*target.a)) (write ? p->written : p->read) = true;
  }

  ExprP pointer_add(ExprP p, ExprP offset, bool subtract, SrcPos at) {
    if (!is_integer(offset->type.base) || offset->type.pointer) fail("syntax", offset->pos, "a pointer moves by an integer, not " + type_name(offset->type));
    if (p->type.base == Base::Void) fail("unsupported", at, "arithmetic on a void pointer: cast it to the element's type first");
    auto e = node(EK::PtrAdd, at, p->type);
    e->op = subtract ? 1 : 0;
    e->a = std::move(p);
    e->b = convert(std::move(offset), {Base::Long, false}, "move by");
    return seal(std::move(e));
  }

  // A pointer value of type `to` from `e`: the same type, or a null pointer.
  ExprP pointer_to(ExprP e, Type to, const char* verb) {
    if (e->type == to) return e;
    if (e->type.pointer && e->type.base == Base::Void && e->kind == EK::IntLit) {  // nullptr
      e->type = to;
      return e;
    }
    fail("syntax", e->pos, std::string("cannot ") + verb + " " + type_name(to) + " with " + type_name(e->type) +
                               (e->type.pointer ? " (cast it: (" + type_name(to) + ")p)" : ""));
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

  // C's usual arithmetic conversions over the bases read: a 64-bit operand makes the other 64-bit;
  // unsigned wins at equal width (a long long holds every unsigned int).
  static Type arithmetic_result(Type a, Type b) {
    if (a.base == Base::Double || b.base == Base::Double) return {Base::Double, false};
    if (a.base == Base::Float || b.base == Base::Float) return {Base::Float, false};
    if (a.base == Base::ULong || b.base == Base::ULong) return {Base::ULong, false};
    if (a.base == Base::Long || b.base == Base::Long) return {Base::Long, false};
    if (a.base == Base::UInt || b.base == Base::UInt) return {Base::UInt, false};
    return {Base::Int, false};
  }

  void check_binary(BinOp op, const Expr& a, const Expr& b, SrcPos at) const {
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

  ExprP to_bool(ExprP e) {
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

  ExprP convert(ExprP e, Type to, const char* verb) {
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

  // An explicit cast to `t`: numbers convert; a pointer becomes a pointer to another type (the same
  // cells, read as that type).
  ExprP cast_to(Type t, ExprP a, SrcPos at) {
    if (t.pointer || a->type.pointer) {
      if (!t.pointer || !a->type.pointer) fail("unsupported", at, "casting " + type_name(a->type) + " to " + type_name(t));
      if (a->kind == EK::IntLit) {  // a null pointer
        a->type = t;
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

  // A type in a cast or sizeof: TYPE [*].
  Type cast_type() {
    Type t = base_type();
    if (accept("*")) t.pointer = true;
    while (at_ident("const")) ++i_;
    if (at("*")) fail("unsupported", cur().pos, "pointers to pointers are not read");
    return t;
  }

  ExprP unary() {
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

  ExprP incdec(ExprP a, bool dec, bool prefix, SrcPos at) {
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

  ExprP postfix() {
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

  // The cell an atomic updates: &cell (the subset's form) or a pointer to it (atomicAdd(counter, 1)).
  ExprP atomic_target(const std::string& name) {
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

  ExprP call(const std::string& name, SrcPos at) {
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
    if (name == "atomicAdd") {
      expect("(");
      ExprP target = atomic_target(name);
      expect(",");
      ExprP v = assignment();
      expect(")");
      mark_access(*target, true);
      mark_access(*target, false);
      auto e = node(EK::AtomicAdd, at, target->type);
      e->b = convert(std::move(v), target->type, "add");
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
    if (name == "printf") {
      expect("(");
      if (cur().kind != Tok::String) fail("syntax", cur().pos, "printf's first argument is its format string");
      while (cur().kind == Tok::String) ++i_;  // "a" "b": adjacent literals are one string
      auto e = node(EK::Printf, at, {Base::Int, false});
      while (accept(",")) e->args.push_back(assignment());
      expect(")");
      return seal(std::move(e));
    }
    if (name == "__syncthreads" || name == "__syncwarp" || name == "__threadfence")
      fail("unsupported", at, name + "() inside an expression: write it as a statement of its own");
    if (const auto it = function_index_.find(name); it != function_index_.end()) return function_call(it->second, at);
    for (const Kernel& k : kernels_)
      if (k.name == name) fail("unsupported", at, "launching or calling the kernel '" + name + "' from device code is not read");
    fail("unsupported", at, "call of '" + name + "': not a function of this file nor a CUDA function scanviz reads (" +
                                "__syncthreads, __shfl_*_sync, __syncwarp, atomicAdd, __threadfence, min, max, abs, printf, assert)");
  }

  // A call of the file's function `f`: its arguments converted to the parameters' types, the
  // defaults filled in by the compiler, and what its body does to a pointer marked on the caller's.
  ExprP function_call(std::size_t f, SrcPos at) {
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

  ExprP primary() {
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
    if (tok.kind == Tok::String) fail("unsupported", at, "a string literal outside printf is not read");
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
    if (name == "true" || name == "false") return literal_int(name == "true", at, Base::Bool);
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
      if (sym.kind == Symbol::Constant) {
        if (is_floating(sym.type.base)) {
          auto e = node(EK::FloatLit, at, sym.type);
          e->fval = sym.fvalue;
          return e;
        }
        return literal_int(sym.index, at, sym.type.base);
      }
      if (sym.kind == Symbol::TypeAlias) fail("syntax", at, "'" + name + "' is a type, used as a value");
      const std::vector<SharedVar>& list = shared_ ? *shared_ : file_shared_;
      const SharedVar& v = list[static_cast<std::size_t>(sym.index)];
      auto e = node(v.scalar ? EK::SharedScalar : EK::Shared, at, v.scalar ? v.elem : Type{v.elem.base, true});
      e->ival = sym.index;
      return e;
    }
    fail("syntax", at, "use of undeclared identifier '" + name + "'");
  }

  // nullptr: a pointer that points at nothing (buffer -1), of whatever pointer type it is converted to.
  ExprP null_pointer(SrcPos at) {
    auto e = node(EK::IntLit, at, {Base::Void, true});
    e->ival = 0;
    return e;
  }

  std::vector<Token> t_;
  std::vector<std::string> files_;
  std::string file_;
  std::size_t i_ = 0;
  std::vector<std::map<std::string, Symbol>> scopes_;
  int depth_ = 0;
  int statements_ = 0;
  int loops_ = 0;
  int namespaces_ = 0;
  bool auto_ = false, const_ = false;  // what the last base_type read
  // The file.
  std::vector<Kernel> kernels_;
  std::vector<Function> functions_;
  std::map<std::string, std::size_t> function_index_;
  std::map<std::string, std::vector<std::int64_t>> kernel_calls_;
  std::set<std::size_t> warp_functions_;
  std::vector<SharedVar> file_shared_;
  std::int64_t slots_ = 0;
  std::vector<std::string> local_names_;
  std::map<std::int64_t, std::int64_t> slot_constants_;  // const locals with a constant value (array sizes)
  // The body being read.
  std::vector<Param>* params_ = nullptr;
  std::vector<SharedVar>* shared_ = nullptr;  // the kernel's; null in a function (which sees the file's)
  std::vector<std::int64_t>* calls_ = nullptr;
  bool* warp_ = nullptr;
  std::optional<Type> result_;
  bool in_function_ = false;
};

}  // namespace

Kernel parse_kernel(std::string_view source, const std::string& file, const std::map<std::string, std::string>& overrides,
                    const std::string& entry, const IncludeReader& include) {
  Lexed lexed = lex(source, file, overrides, include);
  return Parser(std::move(lexed), file).file(entry);
}

std::map<std::string, SrcPos> defined_macros(std::string_view source, const std::string& file, const IncludeReader& include) {
  try {
    return lex(source, file, {}, include).macros;
  } catch (const KernelError&) {
    return {};
  }
}

}  // namespace sv::cuda
