// Templates: a kernel or __device__ function template over types and integers is noted where it is
// defined and read again for each set of arguments it is used with: a launch (`scan<float, 256>`,
// given with --launch or in host code), an explicit call (`f<int>(x)`) or a call whose arguments
// say its type parameters (`warp_scan(v)`). Each instance is a kernel or function of its own, named
// with its arguments (`scan<float, 256>`), its parameters bound as the file's own names.
#include <algorithm>
#include <utility>

#include "cuda_subset/parser_impl.hpp"

namespace sv::cuda::parse {

void Parser::template_header() {
  const SrcPos at = cur().pos;
  ++i_;
  expect("<");
  Template t;
  while (!at_is(">")) {
    TemplateParam p;
    if (at_ident("typename") || at_ident("class")) {
      ++i_;
      p.type = true;
    } else if (at_type()) {
      (void)base_type();
    } else {
      fail("unsupported", cur().pos, "a template parameter other than a type or an integer");
    }
    p.name = ident("a template parameter's name");
    if (accept("=")) {
      p.default_at = i_;
      int depth = 0;  // the default runs to the next ',' or '>' outside parentheses
      while (cur().kind != Tok::End && (depth > 0 || (!at_is(",") && !at_is(">")))) {
        if (at_is("(")) ++depth;
        if (at_is(")")) --depth;
        ++i_;
      }
    }
    t.params.push_back(p);
    if (!accept(",")) break;
  }
  expect(">");
  t.at = i_;
  const Specifiers s = specifiers();
  if (s.global) {
    t.kernel = true;
    if (!at_ident("void")) fail("syntax", cur().pos, "a __global__ kernel returns void");
    ++i_;
    t.name = ident("the kernel's name");
  } else if (s.device) {  // TYPE NAME(: its type may be a parameter, so the first NAME( is the name
    while (cur().kind != Tok::End && (cur().kind != Tok::Ident || !next_is("("))) ++i_;
    if (cur().kind == Tok::End) fail("syntax", at, "a __device__ template that is not a function");
    t.name = cur().text;
  } else {  // a host template, a template struct: read past
    i_ = t.at;
    skip_host_item();
    return;
  }
  if (templates_.count(t.name)) fail("unsupported", at, "a second template named '" + t.name + "' (overloads are not read)");
  while (cur().kind != Tok::End && !at_is("{") && !at_is(";")) ++i_;  // the definition's body is read per instance
  if (at_is("{")) skip_balanced("{", "}");
  else ++i_;  // a declaration
  templates_.emplace(t.name, std::move(t));
}

std::vector<TemplateArg> Parser::template_arguments() {
  std::vector<TemplateArg> args;
  expect("<");
  const bool outer = std::exchange(launch_config_, true);  // '>' ends an argument, not a comparison
  while (!at_is(">")) {
    TemplateArg a;
    if (at_type()) {
      a.type = true;
      a.t = cast_type();
    } else {
      ExprP v = conditional();
      const auto value = const_value(*v);
      if (!value) fail("unsupported", v->pos, "a template argument that is not a constant");
      a.value = *value;
    }
    args.push_back(a);
    if (!accept(",")) break;
  }
  launch_config_ = outer;
  expect(">");
  return args;
}

std::vector<TemplateArg> Parser::template_arguments_of(const std::string& text, SrcPos at) {
  Lexed lexed = lex("<" + text + ">", file_, {}, {});
  for (Token& t : lexed.tokens) t.pos = at;
  std::vector<Token> tokens = std::exchange(t_, std::move(lexed.tokens));
  const std::size_t i = std::exchange(i_, 0);
  std::vector<TemplateArg> args = template_arguments();
  if (cur().kind != Tok::End) fail("syntax", at, "the template arguments <" + text + "> end before '" + cur().text + "'");
  t_ = std::move(tokens);
  i_ = i;
  return args;
}

std::string Parser::instance_name(const std::string& name, const std::vector<TemplateArg>& args) {
  std::string s = name + "<";
  for (std::size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + (args[i].type ? type_name(args[i].t) : std::to_string(args[i].value));
  return s + ">";
}

std::string Parser::instantiate(const std::string& name, std::vector<TemplateArg> args, SrcPos at) {
  const Template& t = templates_.at(name);
  if (args.size() > t.params.size())
    fail("unsupported", at, "'" + name + "' takes " + std::to_string(t.params.size()) + " template arguments; " + std::to_string(args.size()) + " given");
  std::map<std::string, Symbol> scope;
  for (std::size_t p = 0; p < t.params.size(); ++p) {
    const TemplateParam& q = t.params[p];
    if (p == args.size()) {
      if (!q.default_at) fail("unsupported", at, "'" + name + "' needs its template argument '" + q.name + "'");
      const std::size_t i = std::exchange(i_, q.default_at);
      TemplateArg a;
      a.type = q.type;
      if (q.type) {
        a.t = cast_type();
      } else {
        const bool outer = std::exchange(launch_config_, true);
        ExprP v = conditional();
        launch_config_ = outer;
        const auto value = const_value(*v);
        if (!value) fail("unsupported", v->pos, "the default of '" + q.name + "' is not a constant");
        a.value = *value;
      }
      i_ = i;
      args.push_back(a);
    }
    const TemplateArg& a = args[p];
    if (a.type != q.type)
      fail("unsupported", at, "'" + name + "''s template parameter '" + q.name + "' is " + (q.type ? "a type" : "a number") + "; a " +
                                  (a.type ? "type" : "number") + " is given");
    scope[q.name] = a.type ? Symbol{Symbol::TypeAlias, 0, 0, a.t} : Symbol{Symbol::Constant, a.value, 0, Type{Base::Long, false}};
  }
  const std::string instance = instance_name(name, args);
  if (is_kernel(instance) || function_index_.count(instance)) return instance;
  elsewhere(t.at, std::move(scope), [&] {
    instance_name_ = instance;
    const bool host = std::exchange(host_, false);  // device code, even where host code launches it
    (void)specifiers();
    if (t.kernel) {
      kernel_definition();
    } else {
      function_definition();
    }
    host_ = host;
  });
  return instance;
}

std::string Parser::deduce(const std::string& name, SrcPos at) {
  const Template& t = templates_.at(name);
  if (t.kernel) fail("unsupported", at, "calling the kernel template '" + name + "' from device code is not read");
  // The arguments' types, read once and read again by the call of the instance.
  const std::size_t call_at = i_;
  const std::vector<ExprP> given = arguments(name, 0, 64);
  i_ = call_at;
  // Each function parameter's tokens that name a type parameter take that argument's type.
  std::map<std::string, Type> deduced;
  std::size_t j = t.at;
  while (t_[j].kind != Tok::Ident || t_[j].text != name || t_[j + 1].text != "(") ++j;
  j += 2;
  for (std::size_t arg = 0, depth = 0; t_[j].kind != Tok::End && !(depth == 0 && t_[j].text == ")"); ++j) {
    if (t_[j].text == "(") ++depth;
    if (t_[j].text == ")") --depth;
    if (depth == 0 && t_[j].text == ",") ++arg;
    if (t_[j].kind == Tok::Ident && arg < given.size())
      for (const TemplateParam& q : t.params)
        if (q.type && q.name == t_[j].text && !deduced.count(q.name)) deduced[q.name] = Type{given[arg]->type.base, false};
  }
  std::vector<TemplateArg> args;
  for (const TemplateParam& q : t.params) {
    if (!q.type || !deduced.count(q.name)) break;  // the rest from their defaults
    TemplateArg a;
    a.type = true;
    a.t = deduced[q.name];
    args.push_back(a);
  }
  return instantiate(name, std::move(args), at);
}

}  // namespace sv::cuda::parse
