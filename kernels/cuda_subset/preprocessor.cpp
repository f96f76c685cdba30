// The preprocessor of a kernel's file (lexer.hpp): directives, object- and function-like macros with #
// and ##, conditional groups, local includes, all on tokens, so every token keeps its file, line and
// column, and a token a macro produced takes the position of the macro's use. The input is untrusted:
// every expansion counts against one budget of tokens, and nesting of every kind is bounded.
#include <cctype>
#include <cstdint>
#include <set>

#include "cuda_subset/lexer.hpp"

namespace sv::cuda {

namespace {

struct Macro {
  bool function_like = false;
  bool variadic = false;
  bool builtin = false;  // predefined: not reported as the file's
  std::vector<std::string> params;
  std::vector<Token> body;
  SrcPos pos;
};

// The headers whose names scanviz knows without reading them (as <...> ones): CUDA's and its samples'.
bool known_header(const std::string& name) {
  static const std::set<std::string> known = {"cuda_runtime.h", "cuda.h", "cuda_runtime_api.h", "device_launch_parameters.h",
                                              "cooperative_groups.h", "helper_cuda.h", "helper_functions.h", "cuda_fp16.h",
                                              "device_functions.h", "math_functions.h", "curand_kernel.h"};
  return known.count(name) > 0 || name.rfind("cub/", 0) == 0 || name.rfind("thrust/", 0) == 0;
}

Token number_token(std::int64_t v, SrcPos at) {
  Token t;
  t.kind = Tok::Int;
  t.text = std::to_string(v);
  t.int_value = static_cast<std::uint64_t>(v);
  t.pos = at;
  return t;
}

class Preprocessor {
 public:
  Preprocessor(const std::map<std::string, std::string>& overrides, const IncludeReader& include)
      : overrides_(overrides), include_(include) {
    for (const auto& [name, value] : {std::pair{"__CUDACC__", "1"}, std::pair{"__NVCC__", "1"}, std::pair{"__CUDA_ARCH__", "900"},
                                      std::pair{"__cplusplus", "201703L"}}) {
      Macro m;
      m.builtin = true;
      m.body = tokenize(value, "<built-in>", 0);
      macros_[name] = m;
    }
  }

  Lexed run(std::string_view source, const std::string& file) {
    result_.files.push_back(file);
    bytes_ = source.size();
    file_tokens(tokenize(source, file, 0), 0, 0);
    for (const Token& t : result_.tokens) check_output(t);
    for (const auto& [name, m] : macros_)
      if (!m.builtin) result_.macros[name] = m.pos;
    Token end;
    end.kind = Tok::End;
    end.text = "end of file";
    end.pos = result_.tokens.empty() ? SrcPos{1, 1, 0} : result_.tokens.back().pos;
    result_.tokens.push_back(end);
    return std::move(result_);
  }

 private:
  [[noreturn]] void fail(const char* kind, SrcPos at, const std::string& what) const {
    throw KernelError(kind, at.file < result_.files.size() ? result_.files[at.file] : result_.files.front(), at, what);
  }

  // Every token made, kept or thrown away, counts: an exponential macro stops at the budget.
  void spend(SrcPos at, std::size_t n = 1) {
    work_ += n;
    if (work_ > 8 * kMaxTokens || result_.tokens.size() > kMaxTokens)
      fail("limit", at, "more than " + std::to_string(kMaxTokens) + " tokens after macro expansion: a kernel this long is refused");
  }

  void check_output(const Token& t) const {
    if (t.kind != Tok::Punct) return;
    if (t.text == "'" || t.text == "\"") fail("syntax", t.pos, std::string("an unterminated ") + (t.text == "'" ? "character" : "string") + " literal");
    if (t.text.size() == 1 && std::string_view("@$`\\").find(t.text[0]) != std::string_view::npos)
      fail("syntax", t.pos, "unexpected character '" + t.text + "'");
    if (t.text.size() == 1 && !std::isprint(static_cast<unsigned char>(t.text[0])))
      fail("syntax", t.pos, "unexpected byte in the source (not a character of C)");
  }

  // ---- one file ----
  struct Group {
    bool active;      // this branch is taken
    bool taken;       // some branch of the #if was
    bool seen_else;
    SrcPos at;
  };

  void file_tokens(const std::vector<Token>& toks, std::uint16_t file, int depth) {
    std::vector<Group> groups;
    std::vector<Token> text;  // the active lines since the last directive, expanded together
    auto active = [&] { return groups.empty() || groups.back().active; };
    std::size_t i = 0;
    while (i < toks.size()) {
      if (!(toks[i].kind == Tok::Punct && toks[i].text == "#" && toks[i].line_start)) {
        if (active()) text.push_back(toks[i]);
        ++i;
        continue;
      }
      std::size_t end = i + 1;
      while (end < toks.size() && !toks[end].line_start) ++end;
      const std::vector<Token> line(toks.begin() + static_cast<std::ptrdiff_t>(i + 1), toks.begin() + static_cast<std::ptrdiff_t>(end));
      const SrcPos at = toks[i].pos;
      i = end;
      const std::string name = line.empty() ? "" : line[0].text;
      if (name == "if" || name == "ifdef" || name == "ifndef") {
        if (groups.size() >= static_cast<std::size_t>(kMaxConditionalDepth))
          fail("limit", at, "#if nested more than " + std::to_string(kMaxConditionalDepth) + " deep");
        const bool outer = active();
        const bool value = outer && condition(name, line, at);
        groups.push_back({value, value || !outer, false, at});  // inside a skipped group no branch is taken
        continue;
      }
      if (name == "elif" || name == "else") {
        if (groups.empty()) fail("syntax", at, "#" + name + " without #if");
        Group& g = groups.back();
        if (g.seen_else) fail("syntax", at, "#" + name + " after #else");
        g.seen_else = name == "else";
        const bool value = !g.taken && (name == "else" || condition("if", line, at));
        g.active = value;
        g.taken = g.taken || value;
        continue;
      }
      if (name == "endif") {
        if (groups.empty()) fail("syntax", at, "#endif without #if");
        groups.pop_back();
        continue;
      }
      if (!active()) continue;
      flush(text);  // what a directive changes applies after it
      if (name == "define") define(line, at);
      else if (name == "undef") {
        if (line.size() < 2 || line[1].kind != Tok::Ident) fail("syntax", at, "#undef needs a name");
        macros_.erase(line[1].text);
      } else if (name == "include") include(line, at, file, depth);
      else if (name == "error") fail("syntax", at, "#error" + rest_text(line));
      else if (name == "pragma" || name == "line" || name == "warning" || name.empty()) {
      } else
        fail("unsupported", at, "preprocessor directive '#" + name + "' is not read");
    }
    if (!groups.empty()) fail("syntax", groups.back().at, "this #if is never closed by #endif");
    flush(text);
  }

  static std::string rest_text(const std::vector<Token>& line) {
    std::string s;
    for (std::size_t k = 1; k < line.size(); ++k) s += " " + line[k].text;
    return s;
  }

  void flush(std::vector<Token>& text) {
    if (text.empty()) return;
    std::vector<Token> out;
    expand(text, {}, nullptr, out, 0);
    for (Token& t : out) {
      result_.tokens.push_back(std::move(t));
      spend(result_.tokens.back().pos, 0);
    }
    text.clear();
  }

  // ---- directives ----
  void define(const std::vector<Token>& line, SrcPos at) {
    if (line.size() < 2 || line[1].kind != Tok::Ident) fail("syntax", at, "#define needs a name");
    const std::string name = line[1].text;
    if (name == "defined") fail("syntax", line[1].pos, "'defined' cannot be a macro");
    Macro m;
    m.pos = line[1].pos;
    std::size_t k = 2;
    // NAME( with no space is a function-like macro: the tokenizer's columns tell.
    if (k < line.size() && line[k].text == "(" && line[k].pos.line == line[1].pos.line &&
        line[k].pos.col == line[1].pos.col + name.size()) {
      m.function_like = true;
      ++k;
      while (k < line.size() && line[k].text != ")") {
        if (line[k].text == "...") {
          m.variadic = true;
        } else if (line[k].kind == Tok::Ident) {
          m.params.push_back(line[k].text);
        } else if (line[k].text != ",") {
          fail("syntax", line[k].pos, "'" + line[k].text + "' in the parameters of macro '" + name + "'");
        }
        ++k;
      }
      if (k >= line.size()) fail("syntax", at, "the parameters of macro '" + name + "' are never closed");
      ++k;
    }
    m.body.assign(line.begin() + static_cast<std::ptrdiff_t>(k), line.end());
    if (const auto o = overrides_.find(name); o != overrides_.end() && !m.function_like) {
      m.body = tokenize(o->second, result_.files[at.file], at.file);
      for (Token& t : m.body) t.pos = m.pos;
    }
    spend(at, m.body.size());
    macros_[name] = std::move(m);
  }

  void include(const std::vector<Token>& line, SrcPos at, std::uint16_t file, int depth) {
    if (line.size() >= 2 && line[1].text == "<") return;  // a system header: its CUDA names are known
    if (line.size() < 2 || line[1].kind != Tok::String) fail("syntax", at, "#include needs \"file\" or <file>");
    const std::string name = line[1].string_value;
    if (known_header(name)) return;
    if (depth + 1 > kMaxIncludeDepth) fail("limit", at, "#include nested more than " + std::to_string(kMaxIncludeDepth) + " deep");
    for (const std::string& open : including_)
      if (open == name) fail("syntax", at, "#include \"" + name + "\" includes itself (an #include cycle)");
    const std::optional<std::string> text = include_ ? include_(name, result_.files[file]) : std::nullopt;
    if (!text) fail("syntax", at, "#include \"" + name + "\": file not found beside " + result_.files[file]);
    bytes_ += text->size();
    if (bytes_ > kMaxSourceBytes)
      fail("limit", at, "the file and its includes are more than the " + std::to_string(kMaxSourceBytes) + " bytes a kernel may have");
    if (result_.files.size() >= 0xffff) fail("limit", at, "too many includes");
    const auto index = static_cast<std::uint16_t>(result_.files.size());
    result_.files.push_back(name);
    including_.push_back(name);
    file_tokens(tokenize(*text, name, index), index, depth + 1);
    including_.pop_back();
  }

  // #if EXPR, #ifdef NAME, #ifndef NAME.
  bool condition(const std::string& kind, const std::vector<Token>& line, SrcPos at) {
    if (kind != "if") {
      if (line.size() < 2 || line[1].kind != Tok::Ident) fail("syntax", at, "#" + kind + " needs a name");
      return (macros_.count(line[1].text) > 0) == (kind == "ifdef");
    }
    // `defined X` first, then the macros, then names left are 0.
    std::vector<Token> expr;
    for (std::size_t k = 1; k < line.size(); ++k) {
      if (line[k].kind == Tok::Ident && line[k].text == "defined") {
        const bool paren = k + 1 < line.size() && line[k + 1].text == "(";
        const std::size_t n = k + (paren ? 2 : 1);
        if (n >= line.size() || line[n].kind != Tok::Ident) fail("syntax", line[k].pos, "'defined' needs a name");
        expr.push_back(number_token(macros_.count(line[n].text) ? 1 : 0, line[k].pos));
        k = n + (paren ? 1 : 0);
        if (paren && (k >= line.size() || line[k].text != ")")) fail("syntax", line[k - 1].pos, "expected ')' after 'defined(" + line[n].text + "'");
        continue;
      }
      expr.push_back(line[k]);
    }
    std::vector<Token> out;
    expand(expr, {}, nullptr, out, 0);
    for (Token& t : out)
      if (t.kind == Tok::Ident) t = number_token(t.text == "true" ? 1 : 0, t.pos);
    if (out.empty()) fail("syntax", at, "#if with no expression");
    std::size_t p = 0;
    const std::int64_t v = Eval(*this, out, p).conditional(0);
    if (p != out.size()) fail("syntax", out[p].pos, "unexpected '" + out[p].text + "' in #if");
    return v != 0;
  }

  // The #if evaluator: C's integer operators over int64.
  struct Eval {
    Preprocessor& pp;
    const std::vector<Token>& t;
    std::size_t& p;
    Eval(Preprocessor& pp_, const std::vector<Token>& t_, std::size_t& p_) : pp(pp_), t(t_), p(p_) {}

    bool at(std::string_view s) const { return p < t.size() && t[p].kind == Tok::Punct && t[p].text == s; }
    SrcPos pos() const { return p < t.size() ? t[p].pos : t.back().pos; }

    std::int64_t conditional(int depth) {
      if (depth > kMaxExpansionDepth) pp.fail("limit", pos(), "an #if expression nested too deeply");
      const std::int64_t c = binary(0, depth + 1);
      if (!at("?")) return c;
      ++p;
      const std::int64_t a = conditional(depth + 1);
      if (!at(":")) pp.fail("syntax", pos(), "expected ':' in #if");
      ++p;
      const std::int64_t b = conditional(depth + 1);
      return c ? a : b;
    }

    std::int64_t binary(int level, int depth) {
      static const std::vector<std::vector<std::string_view>> levels = {
          {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
      if (level == static_cast<int>(levels.size())) return unary(depth);
      std::int64_t v = binary(level + 1, depth);
      for (;;) {
        std::string_view op;
        for (std::string_view o : levels[static_cast<std::size_t>(level)])
          if (at(o)) op = o;
        if (op.empty()) return v;
        const SrcPos where = pos();
        ++p;
        const std::int64_t r = binary(level + 1, depth);
        const auto u = [](std::int64_t x) { return static_cast<std::uint64_t>(x); };
        if (op == "||") v = v || r;
        else if (op == "&&") v = v && r;
        else if (op == "|") v |= r;
        else if (op == "^") v ^= r;
        else if (op == "&") v &= r;
        else if (op == "==") v = v == r;
        else if (op == "!=") v = v != r;
        else if (op == "<") v = v < r;
        else if (op == ">") v = v > r;
        else if (op == "<=") v = v <= r;
        else if (op == ">=") v = v >= r;
        else if (op == "<<" || op == ">>") {
          if (r < 0 || r > 63) pp.fail("syntax", where, "a shift by " + std::to_string(r) + " in #if");
          v = op == "<<" ? static_cast<std::int64_t>(u(v) << r) : v >> r;
        } else if (op == "+") v = static_cast<std::int64_t>(u(v) + u(r));
        else if (op == "-") v = static_cast<std::int64_t>(u(v) - u(r));
        else if (op == "*") v = static_cast<std::int64_t>(u(v) * u(r));
        else {
          if (r == 0) pp.fail("syntax", where, "division by zero in #if");
          if (v == INT64_MIN && r == -1) pp.fail("syntax", where, "a value outside 64 bits in #if");
          v = op == "/" ? v / r : v % r;
        }
      }
    }

    std::int64_t unary(int depth) {
      if (depth > kMaxExpansionDepth) pp.fail("limit", pos(), "an #if expression nested too deeply");
      if (p >= t.size()) pp.fail("syntax", pos(), "an #if expression ends too soon");
      const Token& k = t[p];
      if (k.kind == Tok::Punct && (k.text == "-" || k.text == "+" || k.text == "!" || k.text == "~")) {
        ++p;
        const std::int64_t v = unary(depth + 1);
        if (k.text == "-") return static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(v));
        if (k.text == "!") return !v;
        if (k.text == "~") return ~v;
        return v;
      }
      if (k.kind == Tok::Punct && k.text == "(") {
        ++p;
        const std::int64_t v = conditional(depth + 1);
        if (!at(")")) pp.fail("syntax", pos(), "expected ')' in #if");
        ++p;
        return v;
      }
      if (k.kind == Tok::Int) {
        ++p;
        return static_cast<std::int64_t>(k.int_value);
      }
      pp.fail("syntax", k.pos, "'" + k.text + "' in an #if expression");
    }
  };

  // ---- expansion ----
  // Expands `in` into `out`: each macro not in `active` is replaced by its body (arguments
  // substituted) and that rescanned with it active. `use`: the position every produced token takes
  // (the outermost use), or null at the top.
  void expand(const std::vector<Token>& in, const std::set<std::string>& active, const SrcPos* use, std::vector<Token>& out, int depth) {
    if (depth > kMaxExpansionDepth)
      fail("limit", use ? *use : in.front().pos, "macros expanded more than " + std::to_string(kMaxExpansionDepth) + " deep");
    for (std::size_t i = 0; i < in.size(); ++i) {
      const Token& t = in[i];
      const SrcPos at = use ? *use : t.pos;
      spend(at);
      if (t.kind == Tok::Ident && (t.text == "__LINE__" || t.text == "__FILE__")) {
        Token r = t.text == "__LINE__" ? number_token(at.line, at) : t;
        if (t.text == "__FILE__") {
          r.kind = Tok::String;
          r.string_value = result_.files[at.file];
          r.text = "\"" + r.string_value + "\"";
          r.pos = at;
        }
        out.push_back(r);
        continue;
      }
      const auto m = t.kind == Tok::Ident && !active.count(t.text) ? macros_.find(t.text) : macros_.end();
      if (m == macros_.end() || (m->second.function_like && !(i + 1 < in.size() && in[i + 1].text == "("))) {
        Token kept = t;
        kept.pos = at;
        out.push_back(std::move(kept));
        continue;
      }
      const Macro mac = m->second;  // a copy: an #undef cannot happen mid-line, but the map may rehash
      std::vector<std::vector<Token>> args;
      if (mac.function_like) i = arguments(in, i + 1, args, mac, t);
      std::vector<Token> body = substitute(mac, args, active, at, depth);
      std::set<std::string> inner = active;
      inner.insert(t.text);
      expand(body, inner, &at, out, depth + 1);
    }
  }

  // The arguments of a call whose '(' is at in[open]; returns the index of its ')'.
  std::size_t arguments(const std::vector<Token>& in, std::size_t open, std::vector<std::vector<Token>>& args, const Macro& m,
                        const Token& name) {
    int parens = 0;
    args.emplace_back();
    std::size_t k = open + 1;
    for (; k < in.size(); ++k) {
      const Token& a = in[k];
      if (a.kind == Tok::Punct && (a.text == "(" || a.text == "[" || a.text == "{")) ++parens;
      if (a.kind == Tok::Punct && (a.text == ")" || a.text == "]" || a.text == "}")) {
        if (parens == 0 && a.text == ")") break;
        --parens;
      }
      if (a.kind == Tok::Punct && a.text == "," && parens == 0 && !(m.variadic && args.size() > m.params.size())) {
        args.emplace_back();
        continue;
      }
      args.back().push_back(a);
    }
    if (k >= in.size()) fail("syntax", name.pos, "the arguments of macro '" + name.text + "' are never closed");
    if (args.size() == 1 && args[0].empty() && m.params.empty()) args.clear();
    const std::size_t want = m.params.size();
    if (args.size() < want || (args.size() > want && !m.variadic))
      fail("syntax", name.pos, "macro '" + name.text + "' takes " + std::to_string(want) + (m.variadic ? " or more" : "") + " arguments, not " +
                                   std::to_string(args.size()));
    return k;
  }

  // The macro's body with its parameters replaced: # stringizes, ## pastes (both on the argument as
  // written), any other use takes the argument fully expanded.
  std::vector<Token> substitute(const Macro& m, const std::vector<std::vector<Token>>& args, const std::set<std::string>& active,
                                SrcPos at, int depth) {
    auto param_of = [&](const Token& t) -> int {
      if (t.kind != Tok::Ident) return -1;
      for (std::size_t p = 0; p < m.params.size(); ++p)
        if (m.params[p] == t.text) return static_cast<int>(p);
      if (m.variadic && t.text == "__VA_ARGS__") return static_cast<int>(m.params.size());
      return -1;
    };
    auto raw = [&](int p) {
      if (static_cast<std::size_t>(p) < m.params.size()) return args[static_cast<std::size_t>(p)];
      std::vector<Token> va;  // the variadic arguments, commas between them
      for (std::size_t a = m.params.size(); a < args.size(); ++a) {
        if (a > m.params.size()) {
          Token comma;
          comma.kind = Tok::Punct;
          comma.text = ",";
          comma.pos = at;
          va.push_back(comma);
        }
        va.insert(va.end(), args[a].begin(), args[a].end());
      }
      return va;
    };
    std::vector<Token> out;
    const std::vector<Token>& b = m.body;
    for (std::size_t k = 0; k < b.size(); ++k) {
      if (m.function_like && b[k].text == "#" && b[k].kind == Tok::Punct && k + 1 < b.size() && param_of(b[k + 1]) >= 0) {
        std::string s;
        for (const Token& a : raw(param_of(b[k + 1]))) s += (s.empty() ? "" : " ") + a.text;
        Token str;
        str.kind = Tok::String;
        str.string_value = s;
        std::string quoted;
        for (char c : s) quoted += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
        str.text = "\"" + quoted + "\"";
        str.pos = at;
        out.push_back(str);
        ++k;
        continue;
      }
      if (b[k].kind == Tok::Punct && b[k].text == "##" && !out.empty() && k + 1 < b.size()) {
        std::vector<Token> right = param_of(b[k + 1]) >= 0 ? raw(param_of(b[k + 1])) : std::vector<Token>{b[k + 1]};
        ++k;
        if (right.empty()) continue;
        const std::string pasted = out.back().text + right.front().text;
        std::vector<Token> one = tokenize(pasted, result_.files[at.file], at.file);
        if (one.size() != 1) fail("syntax", at, "pasting '" + out.back().text + "' and '" + right.front().text + "' does not give one token");
        one[0].pos = at;
        out.back() = one[0];
        out.insert(out.end(), right.begin() + 1, right.end());
        continue;
      }
      const int p = param_of(b[k]);
      if (p < 0) {
        out.push_back(b[k]);
        continue;
      }
      const bool pasted_next = k + 1 < b.size() && b[k + 1].text == "##";
      std::vector<Token> arg = raw(p);
      if (!pasted_next) {
        std::vector<Token> expanded;
        if (!arg.empty()) expand(arg, active, &at, expanded, depth + 1);
        arg = std::move(expanded);
      }
      spend(at, arg.size());
      out.insert(out.end(), arg.begin(), arg.end());
    }
    return out;
  }

  const std::map<std::string, std::string>& overrides_;
  const IncludeReader& include_;
  std::map<std::string, Macro> macros_;
  std::vector<std::string> including_;  // the includes being read: a cycle is refused
  Lexed result_;
  std::size_t bytes_ = 0;
  std::size_t work_ = 0;
};

}  // namespace

Lexed lex(std::string_view source, const std::string& file, const std::map<std::string, std::string>& overrides,
          const IncludeReader& include) {
  if (source.size() > kMaxSourceBytes)
    throw KernelError("limit", file, {1, 1, 0}, "the source is " + std::to_string(source.size()) + " bytes, more than the " +
                                                     std::to_string(kMaxSourceBytes) + " a kernel may have");
  return Preprocessor(overrides, include).run(source, file);
}

}  // namespace sv::cuda
