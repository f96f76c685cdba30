// The C preprocessor of a kernel's file (lexer.hpp), on the tokens of lexer.cpp: object- and
// function-like macros (variadic, # and ##, __VA_OPT__), rescanning with a macro disabled inside its
// own expansion (as GCC does: a context per expansion), conditional groups with an #if evaluator,
// #include "local.h" through the caller's reader, #error. Every token keeps its file, line and column;
// a macro's own tokens take the position of the macro's use, so an error points at the use. The
// input is untrusted: every token an expansion makes counts against one budget, and each kind of
// nesting is bounded, so no file costs more than a few tens of megabytes or seconds.
#include <map>
#include <memory>
#include <set>

#include "cuda_subset/preprocessor.hpp"

namespace sv::cuda {

namespace {

using pp::is_punct;
using pp::PK;
using pp::PPToken;
using pp::Scanner;
using pp::shown;

// The budget of all expansions of one file: tokens made (kept or dropped later) and their bytes.
constexpr std::size_t kMaxWorkTokens = 4 * kMaxTokens;
constexpr std::size_t kMaxWorkBytes = 16u << 20;
constexpr std::size_t kMaxPastedBytes = 4096;  // one token made by ##
constexpr std::size_t kMaxIncludes = 1000;     // #include lines read, all files together

struct Macro {
  enum class Special : std::uint8_t { None, File, Line };
  bool function_like = false;
  bool variadic = false;      // the last parameter takes the rest (named __VA_ARGS__ or `name...`)
  bool predefined = false;    // not the file's: not reported, and a #define replaces it silently
  Special special = Special::None;
  std::vector<std::string> params;
  std::vector<PPToken> body;
  SrcPos at;
  bool disabled = false;      // being expanded: its name is not expanded again (C's rescanning rule)
};

using MacroTable = std::map<std::string, Macro>;

// Headers scanviz knows without reading them, even written with quotes: CUDA's, its samples', C's.
bool known_header(const std::string& name) {
  static const std::set<std::string> known = {
      "cuda_runtime.h", "cuda_runtime_api.h", "cuda.h", "device_launch_parameters.h", "device_functions.h",
      "cooperative_groups.h", "cuda_fp16.h", "cuda_bf16.h", "math_functions.h", "math_constants.h", "curand.h",
      "curand_kernel.h", "helper_cuda.h", "helper_functions.h", "helper_string.h", "helper_timer.h",
      "sm_20_atomic_functions.h", "sm_30_intrinsics.h", "stdio.h", "stdlib.h", "string.h", "math.h", "assert.h",
      "stdint.h", "time.h", "limits.h", "float.h", "stdbool.h", "stddef.h"};
  const std::size_t slash = name.find_last_of('/');
  const std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
  for (const char* dir : {"cub/", "thrust/", "cooperative_groups/", "cuda/"})
    if (name.rfind(dir, 0) == 0) return true;
  return known.count(base) > 0;
}

PPToken number_token(std::uint64_t v, const PPToken& like) {
  PPToken t;
  t.kind = PK::Number;
  t.text = std::to_string(v);
  t.pos = like.pos;
  t.space = like.space;
  return t;
}

std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

class Preprocessor;

// Expands a run of tokens: each macro use is replaced by its body (arguments substituted) and the
// result rescanned together with what follows, in a context that disables that macro until read.
// `refill` gives the next source line when a function-like macro's arguments run past the line.
class Expander {
 public:
  using Refill = std::function<bool(std::vector<PPToken>&)>;
  Expander(Preprocessor& pp, std::vector<PPToken> tokens, Refill refill, int depth);
  void run(std::vector<PPToken>& out);

 private:
  struct Context {
    std::vector<PPToken> toks;
    std::size_t next = 0;
    Macro* macro = nullptr;  // enabled again when the context is left
  };

  PPToken* peek(bool refill);
  PPToken take();
  void push(Macro& m, std::vector<PPToken> toks, const PPToken& use);
  std::vector<std::vector<PPToken>> collect(const Macro& m, const PPToken& name);
  std::vector<PPToken> substitute(const Macro& m, const std::vector<std::vector<PPToken>>& args, const PPToken& use);
  std::vector<PPToken> with_va_opt(const Macro& m, const std::vector<std::vector<PPToken>>& args) const;
  PPToken stringize(const std::vector<PPToken>& arg, const PPToken& use) const;
  PPToken paste(const PPToken& left, const PPToken& right, const PPToken& use);
  std::vector<PPToken> expanded(const std::vector<PPToken>& arg);

  Preprocessor& pp_;
  std::vector<Context> ctx_;  // ctx_[0]: the tokens given (and refilled)
  Refill refill_;
  int depth_;                 // expanders inside expanders: arguments are expanded on their own
};

class Preprocessor : public pp::ConditionHost {
 public:
  Preprocessor(const std::map<std::string, std::string>& overrides, const IncludeReader& include)
      : overrides_(overrides), include_(include) {
    for (const auto& [name, value] : {std::pair{"__CUDACC__", "1"}, std::pair{"__NVCC__", "1"},
                                      std::pair{"__CUDA_ARCH__", "900"}, std::pair{"__cplusplus", "201703L"}}) {
      Macro m;
      m.predefined = true;
      Scanner(value, "<built-in>", 0).read_all(m.body);
      macros_[name] = std::move(m);
    }
    macros_["__FILE__"].special = Macro::Special::File;
    macros_["__LINE__"].special = Macro::Special::Line;
    for (const char* name : {"__FILE__", "__LINE__"}) macros_[name].predefined = true;
  }

  Lexed run(std::string_view source, const std::string& file) {
    out_.files.push_back(file);
    bytes_ = source.size();
    open_.push_back({std::make_unique<Scanner>(source, file, 0), 0});
    while (!open_.empty()) step();
    Token end;
    end.kind = Tok::End;
    end.text = "end of file";
    end.pos = out_.tokens.empty() ? SrcPos{1, 1, 0} : out_.tokens.back().pos;
    out_.tokens.push_back(end);
    return std::move(out_);
  }

  // ---- what the expander asks ----
  [[noreturn]] void fail(const char* kind, SrcPos at, const std::string& what) const override {
    throw KernelError(kind, at.file < out_.files.size() ? out_.files[at.file] : out_.files.front(), at, what);
  }

  Macro* find(const std::string& name) {
    const auto it = macros_.find(name);
    return it == macros_.end() ? nullptr : &it->second;
  }

  // Counts tokens an expansion made: an exponential macro stops here, long before memory runs out.
  void spend(SrcPos at, std::size_t tokens, std::size_t bytes) {
    work_tokens_ += tokens;
    work_bytes_ += bytes;
    if (work_tokens_ > kMaxWorkTokens || work_bytes_ > kMaxWorkBytes)
      fail("limit", at, "macro expansion makes more than " + std::to_string(kMaxWorkTokens) + " tokens (" +
                            std::to_string(kMaxWorkBytes >> 20) + " MiB): a kernel this long is refused");
  }

  // __FILE__ and __LINE__ at a use.
  PPToken special(const Macro& m, const PPToken& use) const {
    if (m.special == Macro::Special::Line) return number_token(use.pos.line, use);
    PPToken t = use;
    t.kind = PK::String;
    t.text = quoted(out_.files[use.pos.file]);
    return t;
  }

 private:
  struct Open {
    std::unique_ptr<Scanner> scanner;
    std::size_t cond_base;  // conds_ below this index belong to the files including this one
  };
  struct Cond {
    SrcPos at;
    std::string directive;  // if, ifdef or ifndef: for "#ifdef without #endif"
    bool active;            // this group's lines are read
    bool taken;             // some group of this #if was (or the #if is inside a skipped group)
    bool seen_else;
  };

  bool active() const { return conds_.empty() || conds_.back().active; }
  bool parent_active() const { return conds_.size() < 2 || conds_[conds_.size() - 2].active; }

  // One logical line of the file being read (or its end).
  void step() {
    Open& f = open_.back();
    Scanner& s = *f.scanner;
    const bool directive = s.at_directive();
    if (!directive && s.at_end()) {
      if (conds_.size() > f.cond_base) fail("syntax", conds_.back().at, "#" + conds_.back().directive + " without #endif");
      open_.pop_back();
      return;
    }
    if (directive) return this->directive(s);
    if (!active()) return s.skip_line();
    std::vector<PPToken> line;
    s.read_line(line);
    if (line.empty()) return;
    std::vector<PPToken> out;
    Expander(*this, std::move(line), [this, &s](std::vector<PPToken>& more) { return more_text(s, more); }, 0).run(out);
    emit(out);
  }

  // The next lines of text for arguments that go on past a line: none past a directive or the file.
  static bool more_text(Scanner& s, std::vector<PPToken>& more) {
    while (!s.at_directive() && !s.at_end()) {
      const std::size_t before = more.size();
      s.read_line(more);
      if (more.size() > before) return true;
    }
    return false;
  }

  void emit(const std::vector<PPToken>& toks) {
    for (const PPToken& t : toks) {
      out_.tokens.push_back(pp::to_token(t, out_.files[t.pos.file]));
      if (out_.tokens.size() > kMaxTokens)
        fail("limit", t.pos, "more than " + std::to_string(kMaxTokens) + " tokens after macro expansion: a kernel this long is refused");
    }
  }

  // ---- directives ----
  void directive(Scanner& s) {
    const SrcPos at = s.take_hash();
    const std::string name = s.directive_name();
    if (name == "if" || name == "ifdef" || name == "ifndef") return open_group(s, name, at);
    if (name == "elif" || name == "elifdef" || name == "elifndef" || name == "else") return next_group(s, name, at);
    if (name == "endif") {
      if (conds_.size() <= open_.back().cond_base) fail("syntax", at, "#endif without #if");
      conds_.pop_back();
      return s.skip_line();
    }
    if (!active()) return s.skip_line();
    if (name == "define") return define(s, at);
    if (name == "undef") return undef(s, at);
    if (name == "include") return include(s, at);
    if (name == "error") fail("syntax", at, "#error" + prefixed(s.raw_line()));
    if (name == "pragma") {
      std::vector<PPToken> rest;
      s.read_line(rest);
      if (rest.size() == 1 && rest[0].text == "once" && open_.size() > 1) once_.insert(s.name());
      return;
    }
    if (name == "warning" || name == "line" || name == "0" || name.empty()) return s.skip_line();  // line markers too
    fail("unsupported", at, "preprocessor directive '#" + shown(name) + "' is not supported");
  }

  static std::string prefixed(const std::string& text) { return text.empty() ? "" : " " + text; }

  void open_group(Scanner& s, const std::string& name, SrcPos at) {
    if (conds_.size() >= static_cast<std::size_t>(kMaxConditionalDepth))
      fail("limit", at, "#if nested more than " + std::to_string(kMaxConditionalDepth) + " deep");
    if (!active()) {  // inside a skipped group no group is read: only nesting is followed
      conds_.push_back({at, name, false, true, false});
      return s.skip_line();
    }
    const bool value = condition(s, name, at, name);
    conds_.push_back({at, name, value, value, false});
  }

  void next_group(Scanner& s, const std::string& name, SrcPos at) {
    if (conds_.size() <= open_.back().cond_base) fail("syntax", at, "#" + name + " without #if");
    Cond& c = conds_.back();
    if (c.seen_else) fail("syntax", at, "#" + name + " after #else");
    if (name == "else") {
      c.seen_else = true;
      c.active = !c.taken;
      c.taken = true;
      return s.skip_line();
    }
    if (c.taken || !parent_active()) {
      c.active = false;
      return s.skip_line();
    }
    const bool value = condition(s, name == "elif" ? "if" : name.substr(2), at, name);
    conds_.back().active = value;
    conds_.back().taken = value;
  }

  // #if EXPR, #ifdef NAME, #ifndef NAME; `directive`: as written (elif, elifdef, ...).
  bool condition(Scanner& s, const std::string& kind, SrcPos at, const std::string& directive) {
    std::vector<PPToken> line;
    s.read_line(line);
    if (kind != "if") {
      if (line.empty() || line[0].kind != PK::Ident) fail("syntax", at, "#" + directive + " needs a macro name");
      return defined(line[0].text) == (kind == "ifdef");
    }
    std::vector<PPToken> out;
    Expander(*this, with_defined(line), nullptr, 0).run(out);
    if (out.empty()) fail("syntax", at, "#" + directive + " with no expression");
    return evaluate(out);
  }

  bool defined(const std::string& name) const { return macros_.count(name) > 0 || name == "__has_include"; }

  // `defined X` and `defined(X)` as 1 or 0, before the macros are expanded (which would replace X).
  std::vector<PPToken> with_defined(const std::vector<PPToken>& line) const {
    std::vector<PPToken> out;
    for (std::size_t k = 0; k < line.size(); ++k) {
      if (line[k].kind != PK::Ident || line[k].text != "defined") {
        out.push_back(line[k]);
        continue;
      }
      const std::size_t end = defined_operand(line, k);
      out.push_back(number_token(defined(line[end - (is_punct(line[end], ")") ? 1 : 0)].text) ? 1 : 0, line[k]));
      k = end;
    }
    return out;
  }

 public:
  // The index of the last token of `defined X` or `defined ( X )` starting at t[k].
  std::size_t defined_operand(const std::vector<PPToken>& t, std::size_t k) const override {
    const bool paren = k + 1 < t.size() && is_punct(t[k + 1], "(");
    const std::size_t name = k + (paren ? 2 : 1);
    if (name >= t.size() || t[name].kind != PK::Ident) fail("syntax", t[k].pos, "'defined' needs a macro name");
    if (paren && (name + 1 >= t.size() || !is_punct(t[name + 1], ")"))) fail("syntax", t[name].pos, "expected ')' after 'defined(" + t[name].text + "'");
    return paren ? name + 1 : name;
  }
  bool is_defined(const std::string& name) const override { return defined(name); }
  bool has_include(const std::string& name, SrcPos at) const override {
    if (known_header(name)) return true;
    return include_ && include_(name, out_.files[at.file]).has_value();
  }
  const std::string& file_name(SrcPos at) const override { return out_.files[at.file]; }

 private:
  bool evaluate(const std::vector<PPToken>& expr);

  void define(Scanner& s, SrcPos at) {
    std::vector<PPToken> line;
    s.read_line(line);
    if (line.empty() || line[0].kind != PK::Ident) fail("syntax", at, "#define needs a macro name");
    const std::string name = line[0].text;
    if (name == "defined" || name == "__VA_ARGS__" || name == "__VA_OPT__") fail("syntax", line[0].pos, "'" + name + "' cannot be a macro");
    Macro m;
    m.at = line[0].pos;
    std::size_t k = 1;
    if (k < line.size() && is_punct(line[k], "(") && !line[k].space) k = parameters(line, k, m, name);  // NAME( with no blank
    m.body.assign(line.begin() + static_cast<std::ptrdiff_t>(k), line.end());
    if (!m.body.empty()) m.body[0].space = false;
    check_body(m, name);
    if (const auto o = overrides_.find(name); o != overrides_.end() && !m.function_like) {
      m.body.clear();  // the caller's value (BLOCK_DIM=8) in place of the file's
      Scanner(o->second, s.name(), s.file()).read_all(m.body);
      for (PPToken& t : m.body) t.pos = m.at;
    }
    spend(at, m.body.size(), 0);
    out_.macros.emplace(name, m.at);  // a second #define replaces the first, as compilers do (with a warning)
    macros_[name] = std::move(m);
  }

  // The parameter list of a function-like macro from line[open] = '('; the index after its ')'.
  std::size_t parameters(const std::vector<PPToken>& line, std::size_t open, Macro& m, const std::string& name) const {
    m.function_like = true;
    std::size_t k = open + 1;
    if (k < line.size() && is_punct(line[k], ")")) return k + 1;
    while (true) {
      if (k >= line.size()) fail("syntax", line[open].pos, "the parameters of macro '" + name + "' are never closed");
      const PPToken& p = line[k];
      if (is_punct(p, "...")) {
        m.variadic = true;
        m.params.push_back("__VA_ARGS__");
        ++k;
      } else if (p.kind == PK::Ident && p.text != "__VA_ARGS__" && p.text != "__VA_OPT__") {
        for (const std::string& q : m.params)
          if (q == p.text) fail("syntax", p.pos, "macro '" + name + "' has two parameters named '" + p.text + "'");
        m.params.push_back(p.text);
        ++k;
        if (k < line.size() && is_punct(line[k], "...")) {  // GNU: name... takes the rest as `name`
          m.variadic = true;
          ++k;
        }
      } else {
        fail("syntax", p.pos, "'" + shown(p.text) + "' in the parameters of macro '" + name + "'");
      }
      if (k < line.size() && is_punct(line[k], ")")) return k + 1;
      if (m.variadic || k >= line.size() || !is_punct(line[k], ","))
        fail("syntax", k < line.size() ? line[k].pos : line[open].pos, "expected ',' or ')' in the parameters of macro '" + name + "'");
      ++k;
    }
  }

  // What C requires of a body: # before a parameter, ## between two tokens, __VA_ARGS__ and
  // __VA_OPT__(...) only in a macro with `...`.
  void check_body(const Macro& m, const std::string& name) const {
    const std::vector<PPToken>& b = m.body;
    const bool va = m.variadic && m.params.back() == "__VA_ARGS__";
    auto is_param = [&](const PPToken& t) {
      if (t.kind != PK::Ident) return false;
      for (const std::string& p : m.params)
        if (p == t.text) return true;
      return false;
    };
    for (std::size_t k = 0; k < b.size(); ++k) {
      if (is_punct(b[k], "##") && (k == 0 || k + 1 == b.size()))
        fail("syntax", b[k].pos, "'##' at either end of macro '" + name + "': nothing to paste");
      if (m.function_like && is_punct(b[k], "#") && !(k + 1 < b.size() && is_param(b[k + 1])))
        fail("syntax", b[k].pos, "'#' in macro '" + name + "' is not followed by a parameter");
      if (b[k].kind == PK::Ident && b[k].text == "__VA_ARGS__" && !va)
        fail("syntax", b[k].pos, "__VA_ARGS__ in macro '" + name + "', which has no '...' parameter");
      if (b[k].kind == PK::Ident && b[k].text == "__VA_OPT__") {
        if (!va) fail("syntax", b[k].pos, "__VA_OPT__ in macro '" + name + "', which has no '...' parameter");
        if (k + 1 >= b.size() || !is_punct(b[k + 1], "(")) fail("syntax", b[k].pos, "__VA_OPT__ needs '(' ... ')'");
        int depth = 0;
        std::size_t j = k + 1;
        for (; j < b.size(); ++j) {
          if (b[j].kind == PK::Ident && b[j].text == "__VA_OPT__" && j != k) fail("syntax", b[j].pos, "__VA_OPT__ inside __VA_OPT__");
          depth += is_punct(b[j], "(") ? 1 : is_punct(b[j], ")") ? -1 : 0;
          if (depth == 0) break;
        }
        if (j >= b.size()) fail("syntax", b[k].pos, "__VA_OPT__'s '(' is never closed");
      }
    }
  }

  void undef(Scanner& s, SrcPos at) {
    std::vector<PPToken> line;
    s.read_line(line);
    if (line.empty() || line[0].kind != PK::Ident) fail("syntax", at, "#undef needs a macro name");
    macros_.erase(line[0].text);
  }

  void include(Scanner& s, SrcPos at) {
    auto header = s.header_name();
    if (!header) {  // #include MACRO: the macro's expansion names the file
      std::vector<PPToken> line, out;
      s.read_line(line);
      Expander(*this, std::move(line), nullptr, 0).run(out);
      if (!out.empty() && out[0].kind == PK::String && out[0].text.front() == '"')
        header = std::pair{'"', out[0].text.substr(1, out[0].text.size() - 2)};
      else if (!out.empty() && is_punct(out[0], "<"))
        header = std::pair{'<', std::string()};
      else
        fail("syntax", at, "#include expects \"FILE\" or <FILE>");
    }
    const auto& [quote, name] = *header;
    if (quote == '<' || known_header(name) || once_.count(name)) return;  // a system header: its names are CUDA's
    for (char c : name)
      if (static_cast<unsigned char>(c) < 0x20) fail("syntax", at, "#include \"" + shown(name) + "\": a control character in a file name");
    if (open_.size() > static_cast<std::size_t>(kMaxIncludeDepth))  // open_[0]: the file itself
      fail("limit", at, "#include nested more than " + std::to_string(kMaxIncludeDepth) + " deep");
    for (const Open& o : open_)
      if (o.scanner->name() == name) fail("syntax", at, "#include \"" + name + "\" includes itself: an #include cycle");
    if (out_.files.size() > kMaxIncludes) fail("limit", at, "more than " + std::to_string(kMaxIncludes) + " #include lines read");
    const std::optional<std::string> text = include_ ? include_(name, s.name()) : std::nullopt;
    if (!text) fail("syntax", at, "#include \"" + name + "\": file not found");
    bytes_ += text->size();
    if (bytes_ > kMaxSourceBytes)
      fail("limit", at, "the file and its includes are " + std::to_string(bytes_) + " bytes, more than the " +
                            std::to_string(kMaxSourceBytes) + " a kernel may have");
    if (text->find('\0') != std::string::npos) fail("syntax", at, "#include \"" + name + "\": the file holds a NUL byte: not a text file");
    const auto index = static_cast<std::uint16_t>(out_.files.size());
    out_.files.push_back(name);
    open_.push_back({std::make_unique<Scanner>(*text, name, index), conds_.size()});
  }

  const std::map<std::string, std::string>& overrides_;
  const IncludeReader& include_;
  MacroTable macros_;
  std::vector<Open> open_;     // the file being read last, the files including it before
  std::vector<Cond> conds_;
  std::set<std::string> once_;  // #pragma once files
  Lexed out_;
  std::size_t bytes_ = 0;
  std::size_t work_tokens_ = 0, work_bytes_ = 0;
};

// ---- the expander ----

Expander::Expander(Preprocessor& pp, std::vector<PPToken> tokens, Refill refill, int depth)
    : pp_(pp), refill_(std::move(refill)), depth_(depth) {
  ctx_.push_back({std::move(tokens), 0, nullptr});
}

// The next token without taking it. A context read to its end is left (its macro enabled again)
// only when a token after it is wanted: while its last token expands, the macro stays disabled.
PPToken* Expander::peek(bool refill) {
  while (true) {
    Context& c = ctx_.back();
    if (c.next < c.toks.size()) return &c.toks[c.next];
    if (ctx_.size() > 1) {
      if (c.macro) c.macro->disabled = false;
      ctx_.pop_back();
      continue;
    }
    if (!refill || !refill_) return nullptr;
    c.toks.clear();
    c.next = 0;
    if (!refill_(c.toks)) return nullptr;
  }
}

PPToken Expander::take() {
  Context& c = ctx_.back();
  return std::move(c.toks[c.next++]);
}

void Expander::push(Macro& m, std::vector<PPToken> toks, const PPToken& use) {
  if (ctx_.size() + static_cast<std::size_t>(depth_) > static_cast<std::size_t>(kMaxExpansionDepth))
    pp_.fail("limit", use.pos, "macros expanded inside each other more than " + std::to_string(kMaxExpansionDepth) + " deep");
  m.disabled = true;
  ctx_.push_back({std::move(toks), 0, &m});
}

void Expander::run(std::vector<PPToken>& out) {
  while (peek(false)) {
    PPToken t = take();
    Macro* m = t.kind == PK::Ident && !t.painted ? pp_.find(t.text) : nullptr;
    if (!m) {
      out.push_back(std::move(t));
      continue;
    }
    if (m->disabled) {  // its own name inside its expansion: left as it is, for good
      t.painted = true;
      out.push_back(std::move(t));
      continue;
    }
    if (m->special != Macro::Special::None) {
      out.push_back(pp_.special(*m, t));
      continue;
    }
    if (!m->function_like) {
      push(*m, substitute(*m, {}, t), t);
      continue;
    }
    const PPToken* open = peek(true);
    if (!open || !is_punct(*open, "(")) {  // a function-like macro's name alone is a name
      out.push_back(std::move(t));
      continue;
    }
    const auto args = collect(*m, t);
    push(*m, substitute(*m, args, t), t);
  }
}

// The arguments of a use whose '(' is next: split at commas outside parentheses (the variadic
// parameter takes the rest, commas and all), over line breaks.
std::vector<std::vector<PPToken>> Expander::collect(const Macro& m, const PPToken& name) {
  (void)take();  // '('
  std::vector<std::vector<PPToken>> args(1);
  int parens = 0;
  while (true) {
    if (!peek(true)) pp_.fail("syntax", name.pos, "the arguments of macro '" + name.text + "' are never closed (a directive or the end of the file comes first)");
    PPToken a = take();
    if (is_punct(a, "(")) {
      ++parens;
    } else if (is_punct(a, ")")) {
      if (parens == 0) break;
      --parens;
    } else if (is_punct(a, ",") && parens == 0 && !(m.variadic && args.size() == m.params.size())) {
      args.emplace_back();
      continue;
    }
    args.back().push_back(std::move(a));
  }
  const std::size_t want = m.params.size();
  if (want == 0 && args.size() == 1 && args[0].empty()) args.clear();
  if (m.variadic && args.size() + 1 == want) args.emplace_back();  // F(a) for F(x, ...): no variadic arguments
  if (args.size() != want)
    pp_.fail("syntax", name.pos, "macro '" + name.text + "' takes " + std::to_string(want) + (m.variadic ? " or more" : "") +
                                     " argument" + (want == 1 ? "" : "s") + ", not " + std::to_string(args.size()));
  return args;
}

// An argument macro-expanded on its own, as C expands one before substituting it.
std::vector<PPToken> Expander::expanded(const std::vector<PPToken>& arg) {
  if (depth_ + static_cast<int>(ctx_.size()) > kMaxExpansionDepth)
    pp_.fail("limit", arg.front().pos, "macros expanded inside each other more than " + std::to_string(kMaxExpansionDepth) + " deep");
  std::size_t bytes = 0;
  for (const PPToken& t : arg) bytes += t.text.size();
  pp_.spend(arg.front().pos, arg.size(), bytes);  // the copy: nested arguments copy theirs again, level by level
  std::vector<PPToken> out;
  Expander(pp_, arg, nullptr, depth_ + static_cast<int>(ctx_.size())).run(out);
  return out;
}

// The body with __VA_OPT__(x) replaced by x when there are variadic arguments, else by nothing.
std::vector<PPToken> Expander::with_va_opt(const Macro& m, const std::vector<std::vector<PPToken>>& args) const {
  std::vector<PPToken> body;
  const bool some = !args.back().empty();
  for (std::size_t k = 0; k < m.body.size(); ++k) {
    const PPToken& b = m.body[k];
    if (b.kind != PK::Ident || b.text != "__VA_OPT__") {
      body.push_back(b);
      continue;
    }
    int depth = 0;
    std::size_t j = k + 1;  // '(': check_body saw it closed
    for (; j < m.body.size(); ++j) {
      depth += is_punct(m.body[j], "(") ? 1 : is_punct(m.body[j], ")") ? -1 : 0;
      if (depth == 0) break;
    }
    if (some) body.insert(body.end(), m.body.begin() + static_cast<std::ptrdiff_t>(k + 2), m.body.begin() + static_cast<std::ptrdiff_t>(j));
    else body.push_back({"", b.pos, PK::Placemarker, b.space, false});
    k = j;
  }
  return body;
}

PPToken Expander::stringize(const std::vector<PPToken>& arg, const PPToken& use) const {
  std::string s = "\"";
  for (std::size_t k = 0; k < arg.size(); ++k) {
    if (k > 0 && arg[k].space) s += ' ';
    if (arg[k].kind != PK::String && arg[k].kind != PK::Char) {
      s += arg[k].text;
      continue;
    }
    for (char c : arg[k].text) {  // a literal keeps its quotes and escapes: "a\n" becomes \"a\\n\"
      if (c == '"' || c == '\\') s += '\\';
      s += c;
    }
  }
  return {s + "\"", use.pos, PK::String, false, false};
}

// left ## right: the two spelled as one, which must be one token.
PPToken Expander::paste(const PPToken& left, const PPToken& right, const PPToken& use) {
  if (left.kind == PK::Placemarker) return right;
  if (right.kind == PK::Placemarker) return left;
  const std::string text = left.text + right.text;
  if (text.size() > kMaxPastedBytes) pp_.fail("limit", use.pos, "## makes a token longer than " + std::to_string(kMaxPastedBytes) + " characters");
  std::optional<PPToken> one = Scanner::one_token(text);
  if (!one) pp_.fail("syntax", use.pos, "pasting '" + shown(left.text) + "' and '" + shown(right.text) + "' does not give a valid token");
  one->pos = use.pos;
  one->space = left.space;
  return *one;
}

// The macro's body for one use: parameters replaced (after # a parameter is stringized; beside ## it
// is the argument as written; elsewhere the argument expanded), then ## pasted. The body's own
// tokens take the use's position; an argument's tokens keep theirs (they are written at the use).
std::vector<PPToken> Expander::substitute(const Macro& m, const std::vector<std::vector<PPToken>>& args, const PPToken& use) {
  const std::vector<PPToken> va_body = m.variadic ? with_va_opt(m, args) : std::vector<PPToken>{};
  const std::vector<PPToken>& body = m.variadic ? va_body : m.body;
  auto param = [&](const PPToken& t) -> int {
    if (t.kind != PK::Ident) return -1;
    for (std::size_t p = 0; p < m.params.size(); ++p)
      if (m.params[p] == t.text) return static_cast<int>(p);
    return -1;
  };
  struct Item {
    PPToken tok;
    bool paste = false;  // a ## of the body (one inside an argument pastes nothing)
  };
  std::vector<Item> items;
  auto add = [&](PPToken t, bool paste_op = false) {  // counted as made, before a huge argument is copied 8 times
    pp_.spend(use.pos, 1, t.text.size());
    items.push_back({std::move(t), paste_op});
  };
  pp_.spend(use.pos, 1, 0);  // an empty expansion is work too
  std::vector<std::optional<std::vector<PPToken>>> expansions(args.size());
  for (std::size_t k = 0; k < body.size(); ++k) {
    const PPToken& b = body[k];
    if (m.function_like && is_punct(b, "#") && k + 1 < body.size() && param(body[k + 1]) >= 0) {
      add(stringize(args[static_cast<std::size_t>(param(body[++k]))], use));
      items.back().tok.space = b.space;
      continue;
    }
    if (is_punct(b, "##")) {
      add({"##", use.pos, PK::Punct, b.space, false}, true);
      continue;
    }
    const int p = param(b);
    if (p < 0) {
      add(b);
      items.back().tok.pos = use.pos;
      continue;
    }
    const auto& arg = args[static_cast<std::size_t>(p)];
    const bool before = k > 0 && is_punct(body[k - 1], "##"), after = k + 1 < body.size() && is_punct(body[k + 1], "##");
    // GNU: `, ## __VA_ARGS__` drops the comma when there are no variadic arguments, else pastes nothing.
    if (before && m.variadic && static_cast<std::size_t>(p) + 1 == m.params.size() && k >= 2 && is_punct(body[k - 2], ",") &&
        items.size() >= 2 && items.back().paste) {
      items.pop_back();
      if (arg.empty()) items.pop_back();
      for (const PPToken& a : arg) add(a);
      continue;
    }
    if (!before && !after && !arg.empty() && !expansions[static_cast<std::size_t>(p)])
      expansions[static_cast<std::size_t>(p)] = expanded(arg);
    const std::vector<PPToken>& toks = before || after || arg.empty() ? arg : *expansions[static_cast<std::size_t>(p)];
    if (toks.empty()) add({"", use.pos, PK::Placemarker, b.space, false});
    for (std::size_t a = 0; a < toks.size(); ++a) {
      add(toks[a]);
      if (a == 0) items.back().tok.space = b.space;
    }
  }
  std::vector<PPToken> out;
  out.reserve(items.size());
  for (std::size_t k = 0; k < items.size(); ++k) {
    if (!items[k].paste) {
      out.push_back(std::move(items[k].tok));
      continue;
    }
    PPToken left = out.empty() ? PPToken{"", use.pos, PK::Placemarker, false, false} : std::move(out.back());
    if (!out.empty()) out.pop_back();
    PPToken right = k + 1 < items.size() && !items[k + 1].paste ? std::move(items[++k].tok) : PPToken{"", use.pos, PK::Placemarker, false, false};
    out.push_back(paste(left, right, use));
  }
  std::erase_if(out, [](const PPToken& t) { return t.kind == PK::Placemarker; });
  if (!out.empty()) out[0].space = use.space;
  return out;
}

bool Preprocessor::evaluate(const std::vector<PPToken>& expr) { return pp::evaluate_condition(*this, expr); }

}  // namespace

Lexed lex(std::string_view source, const std::string& file, const std::map<std::string, std::string>& overrides,
          const IncludeReader& include) {
  if (source.size() > kMaxSourceBytes)
    throw KernelError("limit", file, {1, 1, 0}, "the source is " + std::to_string(source.size()) + " bytes, more than the " +
                                                     std::to_string(kMaxSourceBytes) + " a kernel may have");
  if (source.find('\0') != std::string_view::npos) throw KernelError("syntax", file, {1, 1, 0}, "the source holds a NUL byte: not a text file");
  return Preprocessor(overrides, include).run(source, file);
}

}  // namespace sv::cuda
