// The recursive-descent parser of a kernel's .cu file (docs/kernel-subset.md): the whole file is read,
// its host code skipped, its __device__ functions, file-scope constants and __global__ kernels parsed;
// declarations resolve to slots and shared buffers as they are read, and every expression gets its C
// type. One kernel is the entry; the functions it calls are compiled inline (compile.cpp). This file:
// the file's top level; parse_statements.cpp and parse_expressions.cpp the bodies.
#include "cuda_subset/parser.hpp"

#include <functional>
#include <set>

#include "cuda_subset/parser_impl.hpp"

namespace sv::cuda {

std::string type_name(Type t) {
  static constexpr const char* names[] = {"void", "bool", "int", "unsigned int", "float", "double", "long long", "unsigned long long"};
  return std::string(names[static_cast<int>(t.base)]) + (t.pointer ? "*" : "");
}

namespace parse {

Kernel Parser::pick(const std::string& entry) {
  std::string names;
  for (const Kernel& k : kernels_) names += (names.empty() ? "" : ", ") + k.name;
  std::size_t chosen = kernels_.size();
  if (!entry.empty()) {
    for (std::size_t i = 0; i < kernels_.size(); ++i)
      if (kernels_[i].name == entry) chosen = i;
    if (chosen == kernels_.size()) {
      if (templates_.count(entry) && templates_.at(entry).kernel)
        fail("unsupported", t_[templates_.at(entry).at].pos, "'" + entry + "' is a template kernel: give its template arguments in the launch, as in --launch '" +
                                                                entry + "<...><<<GRID, BLOCK>>>(in, out, n)'");
      const bool function = function_index_.count(entry) > 0;
      fail("unsupported", {1, 1}, "'" + entry + "' is " + (function ? "a __device__ function, not a __global__ kernel" : "not a kernel of this file") +
                                      (kernels_.empty() ? " (it has none)" : " (its kernels: " + names + ")"));
    }
  } else if (kernels_.size() == 1) {
    chosen = 0;
  } else if (kernels_.empty()) {
    for (const auto& [name, t] : templates_)
      if (t.kernel)
        fail("unsupported", t_[t.at].pos, "the file's kernel '" + name + "' is a template: say its arguments with --launch '" + name +
                                              "<...><<<GRID, BLOCK>>>(in, out, n)'");
    fail("unsupported", cur().pos, "no __global__ kernel in this file");
  } else {
    fail("unsupported", kernels_[1].pos, "the file has " + std::to_string(kernels_.size()) + " kernels (" + names +
                                             "): say which one runs, e.g. --launch '" +
                                             (launchers_.size() == 1 ? launchers_[0] + "' (its host function)" : kernels_[0].name + "<<<GRID, BLOCK>>>(in, out, n)'"));
  }
  Kernel k = std::move(kernels_[chosen]);
  k.slots = slots_;
  k.local_names = local_names_;
  k.local_arrays = local_arrays_;
  k.files = files_;
  for (const Kernel& other : kernels_) k.kernels.push_back(other.name.empty() ? k.name : other.name);
  for (std::size_t i = 0; i < kernels_.size(); ++i)
    if (i == chosen) k.kernels[i] = k.name;
  check_calls(k);
  k.functions = std::move(functions_);
  k.formats = formats_;
  return k;
}

void Parser::check_calls(Kernel& k) {
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

void Parser::top_level() {
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
  if (at_ident("enum") && enum_definition()) return;
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
  note_host_function();
  skip_host_item();
}

Specifiers Parser::specifiers() {
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

bool Parser::looks_like_function() const {
  std::size_t j = i_;
  while (t_[j].kind == Tok::Ident && (is_type_word(t_[j].text) || alias_of(t_[j].text))) ++j;
  while (t_[j].kind == Tok::Punct && (t_[j].text == "*" || t_[j].text == "&")) ++j;
  while (t_[j].kind == Tok::Ident && (t_[j].text == "const" || t_[j].text == "__restrict__")) ++j;
  return j > i_ && t_[j].kind == Tok::Ident && t_[j + 1].kind == Tok::Punct && t_[j + 1].text == "(";
}

void Parser::skip_host_item() {
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

void Parser::skip_balanced(std::string_view open, std::string_view close) {
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

void Parser::alias() {
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

bool Parser::enum_definition() {
  const std::size_t start = i_;
  ++i_;
  if (at_ident("class") || at_ident("struct")) {  // scoped: its names are Name::A, which device code does not read
    i_ = start;
    return false;
  }
  if (cur().kind == Tok::Ident) ++i_;  // the enum's name
  if (accept(":")) (void)base_type();
  if (!at_is("{")) {  // a declaration of a variable of an enum type, or an opaque enum: host code
    i_ = start;
    return false;
  }
  ++i_;
  std::int64_t next = 0;
  while (!at_is("}")) {
    const SrcPos at = cur().pos;
    const std::string name = ident("an enumerator's name");
    if (accept("=")) {
      ExprP v = conditional();
      const auto value = const_value(*v);
      if (!value) fail("unsupported", v->pos, "enumerator '" + name + "' is not an integer constant");
      next = *value;
    }
    if (scopes_.front().count(name)) fail("syntax", at, "redefinition of '" + name + "'");
    scopes_.front()[name] = Symbol{Symbol::Constant, wrap_integer(Base::Int, next), 0, Type{Base::Int, false}};
    ++next;
    if (!accept(",")) break;
  }
  expect("}");
  while (!at_is(";") && cur().kind != Tok::End) ++i_;  // enum E {...} e; a variable of it: host code
  expect(";");
  return true;
}

bool Parser::constant_definition() {
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
      scopes_.front()[name] = Symbol{Symbol::Constant, wrap_integer(t.base, *value), 0, t};
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

void Parser::device_variable() {
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

void Parser::file_shared(const Specifiers& s) {
  if (!s.is_extern) fail("unsupported", s.at, "a __shared__ variable at file scope: declare it inside the kernel");
  StmtP ignored = shared_declaration(true, file_shared_);
  (void)ignored;
}

void Parser::kernel_definition() {
  Kernel k;
  k.file = file_;
  k.pos = cur().pos;
  if (!at_ident("void")) fail("syntax", cur().pos, "a __global__ kernel returns void");
  ++i_;
  k.pos = cur().pos;
  k.name = ident("the kernel's name");
  if (!instance_name_.empty()) k.name = std::exchange(instance_name_, std::string());  // a template's instance
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

void Parser::function_definition() {
  const Type result = base_type();
  Type r = result;
  if (accept("*")) r.pointer = true;
  if (at("&")) fail("unsupported", cur().pos, "functions returning references are not read");
  const SrcPos at = cur().pos;
  std::string name = ident("the function's name");
  if (!instance_name_.empty()) name = std::exchange(instance_name_, std::string());  // a template's instance
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

}  // namespace parse

using parse::Parser;
Kernel parse_kernel(std::string_view source, const std::string& file, const std::map<std::string, std::string>& overrides,
                    const std::string& entry, const IncludeReader& include) {
  Lexed lexed = lex(source, file, overrides, include);
  return Parser(std::move(lexed), file).file(entry);
}

std::vector<std::string> host_launches(std::string_view source, const std::string& file, const IncludeReader& include) {
  try {
    return Parser(lex(source, file, {}, include), file).launchers();
  } catch (const KernelError&) {
    return {};
  }
}

std::map<std::string, SrcPos> defined_macros(std::string_view source, const std::string& file, const IncludeReader& include) {
  try {
    return lex(source, file, {}, include).macros;
  } catch (const KernelError&) {
    return {};
  }
}

}  // namespace sv::cuda
