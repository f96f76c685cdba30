// The parser's state and its functions, shared by the files that define them: parser.cpp (the file:
// host code skipped, kernels, functions, file-scope names), parse_statements.cpp (types,
// declarations, statements) and parse_expressions.cpp. Not for use outside cuda_subset/.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuda_subset/ast.hpp"
#include "cuda_subset/lexer.hpp"
#include "cuda_subset/parser.hpp"

namespace sv::cuda::parse {

struct Symbol {
  enum Kind { Local, Shared, Constant, TypeAlias, Array } kind = Local;
  std::int64_t index = 0;  // Local: the slot; Shared: the shared variable; Constant: an integer's value; Array: the local array
  double fvalue = 0;       // Constant: a floating value
  Type type;
};

// What stands before a declaration at file scope or in a body.
struct Specifiers {
  bool global = false, device = false, host = false, shared = false, constant = false, is_extern = false, is_const = false;
  SrcPos at;
  bool any_cuda() const { return global || device || shared || constant; }
};
// A template's parameter: a type (typename T) or an integer (int B), with the token its default starts at.
struct TemplateParam {
  bool type = false;
  std::string name;
  std::size_t default_at = 0;
};
// A kernel or __device__ function template: read again, at `at`, for each set of arguments.
struct Template {
  std::vector<TemplateParam> params;
  std::size_t at = 0;  // the definition's first token after `template <...>`
  bool kernel = false;
  std::string name;
};
struct TemplateArg {
  bool type = false;
  Type t;
  std::int64_t value = 0;
};

class Parser {
 public:
  Parser(Lexed lexed, std::string file) : t_(std::move(lexed.tokens)), files_(std::move(lexed.files)), file_(std::move(file)) {
    if (files_.empty()) files_.push_back(file_);
  }

  // The host functions of the file that launch kernels and whose parameters can be bound, as --launch lines.
  std::vector<std::string> launchers() {
    scopes_.emplace_back();
    while (cur().kind != Tok::End) top_level();
    if (!errors_.empty()) throw_errors();
    return launchers_;
  }

  // The whole file; `entry` names the kernel to return (empty: the file's only kernel). Every error
  // in it at once: the first thrown, the others in its `more`.
  Kernel file(const std::string& entry) {
    scopes_.emplace_back();  // the file's scope: constants, type aliases, extern __shared__ arrays
    std::optional<Kernel> k;
    try {
      while (cur().kind != Tok::End) top_level_recovering();
      // The entry's own reading (a host function, a template's instance) may note errors too.
      if (errors_.empty()) k = entry_kernel(entry);
    } catch (const KernelError& e) {  // one the parser cannot read on past (a budget): the last
      if (errors_.empty()) throw;
      note_error(e);
    }
    if (!errors_.empty()) throw_errors();
    return std::move(*k);
  }

 private:
  Kernel entry_kernel(const std::string& entry) {
    if (namespaces_ > 0) fail("syntax", cur().pos, "a namespace's '{' is never closed");
    std::string name = entry;
    if (const auto open = entry.find('<'); open != std::string::npos && entry.back() == '>' && templates_.count(entry.substr(0, open)))
      name = instantiate(entry.substr(0, open), template_arguments_of(entry.substr(open + 1, entry.size() - open - 2), cur().pos), cur().pos);
    if (!name.empty() && !is_kernel(name) && host_functions_.count(name)) return host_entry(name);
    return pick(name);
  }

  // ---- reading on past an error (parse_recovery.cpp) ----
  // What a statement or a file-scope item may leave changed when it throws half-way.
  struct Resume {
    std::size_t scopes = 0;
    int loops = 0, switches = 0, elsewhere = 0;
    bool launch_config = false;
  };
  Resume resume_point() const { return {scopes_.size(), loops_, switches_, elsewhere_, launch_config_}; }
  // Notes `e` and returns true where the parser can go on past it from `r` (a syntax or unsupported
  // error outside a template's re-reading, fewer than kMaxErrors so far); false: rethrow it.
  bool recover(const KernelError& e, const Resume& r);
  void note_error(const KernelError& e);
  [[noreturn]] void throw_errors();
  // Skips to the end of the statement the cursor is in: past its ';' or its braces' '}', or up to
  // the '}' that closes the block around it.
  void skip_statement();
  void top_level_recovering();
  std::vector<KernelError> errors_;
  int elsewhere_ = 0;  // template bodies being read (a throw from one leaves its reader's state)

  // ---- the file ----
  Kernel pick(const std::string& entry);

  // Every function the kernel reaches is defined and none calls itself, directly or not: a call is
  // compiled inline with the callee's own slots.
  void check_calls(Kernel& k);

  void top_level();

  // __global__, __device__, __host__, __shared__, __constant__, static, inline, extern "C", const,
  // constexpr, __launch_bounds__(...), in any order.
  Specifiers specifiers();

  // TYPE [*] NAME ( : a function's declaration or definition follows.
  bool looks_like_function() const;

  // Skips what scanviz does not run: host functions (their bodies), host variables, structs,
  // prototypes. Ends after the item's ';' or its body's '}'.
  void skip_host_item();

  // From an opening `open` to after its matching `close`.
  void skip_balanced(std::string_view open, std::string_view close);

  void template_header();

  // typedef TYPE NAME; and using NAME = TYPE; of a type scanviz knows; any other is skipped.
  void alias();

  // const int N = 1024; at file scope: a constant the kernels and array sizes use. False (nothing
  // read) where it is not one.
  bool constant_definition();

  // enum [NAME] [: TYPE] { A, B = 4, ... }; at file scope: its enumerators are int constants. False
  // (nothing read) for a scoped enum or one without a body.
  bool enum_definition();

  // __device__ T name [= VALUE]; or __device__ T name[SIZE]; (and __constant__): a cell or an array of
  // global memory every kernel of the file sees, set to VALUE (else 0) at the start of every run.
  void device_variable();

  // extern __shared__ T name[]; at file scope: the kernels' dynamic shared memory.
  void file_shared(const Specifiers& s);

  // __global__ void NAME(PARAMETERS) { BODY } (or a prototype, skipped).
  void kernel_definition();

  // A __device__ function: TYPE NAME(PARAMETERS) { BODY }, or its prototype.
  void function_definition();

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
  static bool is_type_word(std::string_view s);
  const Symbol* alias_of(const std::string& name) const;
  bool at_type() const { return cur().kind == Tok::Ident && (is_type_word(cur().text) || alias_of(cur().text)); }

  // A type's words (`unsigned long long int`, `const float`, `size_t`, an alias): its base; `auto`
  // sets auto_ (the declaration takes its initializer's type), `const` sets const_.
  Type base_type();

  // ---- declarations ----
  std::int64_t new_local(const std::string& name, Type type, SrcPos at);
  void declare(const std::string& name, Symbol s, SrcPos at);

  // A parameter of a kernel or (with `defaults`) of a function: TYPE [*] NAME [= DEFAULT], or TYPE NAME[].
  Param parameter(std::vector<ExprP>* defaults);

  std::optional<std::int64_t> const_value(const Expr& e) const;

  // __shared__ declarators after the type, up to ';' (`dynamic`: extern __shared__ T name[]), into `into`.
  StmtP shared_declaration(bool dynamic, std::vector<SharedVar>& into);

  // After the type: one or more declarators up to ';'.
  StmtP declaration();

  // ---- statements ----
  StmtP block();

  StmtP simple(SK kind, SrcPos at);

  StmtP sub_statement() {  // a branch or loop body: its own scope even without braces
    scopes_.emplace_back();
    StmtP s = statement();
    scopes_.pop_back();
    return s;
  }

  ExprP condition();

  StmtP shared_statement(SrcPos at, bool dynamic);

  StmtP statement();

  StmtP return_statement(SrcPos at);

  // ---- expressions ----
  ExprP node(EK kind, SrcPos at, Type type);

  ExprP expression();

  static bool lvalue(const Expr& e) { return e.kind == EK::Local || e.kind == EK::SharedScalar || e.kind == EK::Index; }

  // The parameter of the kernel or function being read that `e` points into (through p + i and casts).
  Param* param_behind(const Expr& e) const;

  void mark_access(const Expr& target, bool write);

  ExprP pointer_add(ExprP p, ExprP offset, bool subtract, SrcPos at);

  // A pointer value of type `to` from `e`: the same type, or a null pointer.
  ExprP pointer_to(ExprP e, Type to, const char* verb);

  ExprP assignment();

  ExprP conditional();

  struct BinInfo {
    std::string_view text;
    int prec;
    BinOp op;
    bool logical_and = false, logical_or = false;
  };
  static const BinInfo* binary_at(const Token& t);

  // C's usual arithmetic conversions over the bases read: a 64-bit operand makes the other 64-bit;
  // unsigned wins at equal width (a long long holds every unsigned int).
  static Type arithmetic_result(Type a, Type b);

  void check_binary(BinOp op, const Expr& a, const Expr& b, SrcPos at) const;

  ExprP binary(int min_prec);

  ExprP to_bool(ExprP e);

  ExprP convert(ExprP e, Type to, const char* verb);

  // An explicit cast to `t`: numbers convert; a pointer becomes a pointer to another type (the same
  // cells, read as that type).
  ExprP cast_to(Type t, ExprP a, SrcPos at);

  // A type in a cast or sizeof: TYPE [*].
  Type cast_type();

  ExprP unary();

  ExprP incdec(ExprP a, bool dec, bool prefix, SrcPos at);

  ExprP postfix();

  ExprP literal_int(std::int64_t v, SrcPos at, Base b = Base::Int);

  ExprP builtin(const std::string& name, SrcPos at);

  std::vector<ExprP> arguments(const std::string& name, std::size_t min, std::size_t max);
  ExprP warp_vote(const std::string& name, SrcPos at);
  ExprP primary_name(const std::string& name, SrcPos at);
  StmtP array_declaration(Type t, const std::string& name, SrcPos at);
  StmtP switch_statement(SrcPos at);
  ExprP bit_intrinsic(const std::string& name, SrcPos at);

  // The cell an atomic updates: &cell (the subset's form) or a pointer to it (atomicAdd(counter, 1)).
  ExprP atomic_target(const std::string& name);

  ExprP call(const std::string& name, SrcPos at);

  // A call of the file's function `f`: its arguments converted to the parameters' types, the
  // defaults filled in by the compiler, and what its body does to a pointer marked on the caller's.
  ExprP function_call(std::size_t f, SrcPos at);

  ExprP primary();

  // nullptr: a pointer that points at nothing (buffer -1), of whatever pointer type it is converted to.
  ExprP null_pointer(SrcPos at);

  // Runs `read` with the parser at token `at`, seeing only the file's names and `scope`; the state of
  // the body being read is kept aside and restored after.
  template <class F>
  void elsewhere(std::size_t at, std::map<std::string, Symbol> scope, F read) {
    const std::size_t i = std::exchange(i_, at);
    auto scopes = std::move(scopes_);
    scopes_ = {scopes.front(), std::move(scope)};
    auto* params = params_;
    auto* shared = shared_;
    auto* calls = calls_;
    bool* warp = warp_;
    const auto result = result_;
    const bool in_function = in_function_, config = launch_config_;
    const int loops = std::exchange(loops_, 0), switches = std::exchange(switches_, 0);
    launch_config_ = false;
    ++elsewhere_;
    read();
    --elsewhere_;
    scopes.front() = std::move(scopes_.front());  // what the file scope learned (an alias, a constant)
    i_ = i;
    scopes_ = std::move(scopes);
    params_ = params;
    shared_ = shared;
    calls_ = calls;
    warp_ = warp;
    result_ = result;
    in_function_ = in_function;
    launch_config_ = config;
    loops_ = loops;
    switches_ = switches;
  }

  // ---- templates (parse_template.cpp) ----
  // `template <...>` before a kernel or __device__ function: noted (templates_), its body skipped.
  std::vector<TemplateArg> template_arguments();  // <ARGS> at the cursor
  std::vector<TemplateArg> template_arguments_of(const std::string& text, SrcPos at);  // ARGS as --launch gives them
  static std::string instance_name(const std::string& name, const std::vector<TemplateArg>& args);
  // The kernel or function `name<args>` (defaults filled in), read the first time it is used; its name.
  std::string instantiate(const std::string& name, std::vector<TemplateArg> args, SrcPos at);
  // The instance a call of function template `name` at the cursor's '(' is of, from its arguments' types.
  std::string deduce(const std::string& name, SrcPos at);

  // ---- host code (parse_host.cpp) ----
  // Notes a host function's definition at the top level (what is then skipped), for host_entry.
  void note_host_function();
  void note_launcher(const std::string& name, std::size_t open);  // `open`: the parameters' '(' 
  void parse_host_function(const std::string& name);
  // The host function `name` as the entry (Kernel::host), with the host functions it calls.
  Kernel host_entry(const std::string& name);
  std::optional<std::int64_t> host_constant(const std::string& name) const;
  // &name, (void**)&name: the slot of local `name` (its type in last_address_type_).
  std::int64_t address_of_local(const std::string& call);
  // A CUDA runtime or C library call of host code; null where `name` is none (a host function of the
  // file is then parsed, for function_call).
  ExprP host_call(const std::string& name, SrcPos at);
  ExprP new_array(SrcPos at);
  // A call of a host function being read (recursion): run as an entry of its own (ApiKind::Call).
  ExprP recursive_call(const std::string& name, SrcPos at);
  ExprP launch(const std::string& kernel, SrcPos at);
  bool is_kernel(const std::string& name) const;

  std::vector<Token> t_;
  std::vector<std::string> files_;
  std::string file_;
  std::size_t i_ = 0;
  std::vector<std::map<std::string, Symbol>> scopes_;
  int depth_ = 0;
  int statements_ = 0;
  int loops_ = 0;
  int switches_ = 0;  // switches around the statement being read (break leaves one)
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
  std::vector<LocalArray> local_arrays_;
  std::vector<std::string> local_names_;
  std::map<std::int64_t, std::int64_t> slot_constants_;  // const locals with a constant value (array sizes)
  // The body being read.
  std::vector<Param>* params_ = nullptr;
  std::vector<SharedVar>* shared_ = nullptr;  // the kernel's; null in a function (which sees the file's)
  std::vector<std::int64_t>* calls_ = nullptr;
  bool* warp_ = nullptr;
  std::optional<Type> result_;
  bool in_function_ = false;
  // Host code.
  bool host_ = false;             // reading a host function of the entry
  bool launch_config_ = false;    // inside <<<...>>>: '>>' ends it
  std::map<std::string, std::size_t> host_functions_;  // name: the token its definition starts at
  std::vector<std::string> host_parsing_;              // the host functions being read, outermost first
  std::vector<std::string> launched_;                  // Kernel::launched
  std::vector<std::string> called_;                    // Kernel::called
  std::vector<std::string> formats_;                   // Kernel::formats
  std::vector<std::string> launchers_;                 // host functions that launch, as --launch lines
  Type last_address_type_;
  // Templates.
  std::map<std::string, Template> templates_;
  std::string instance_name_;  // the name the next kernel or function definition read takes (an instance)
};

}  // namespace sv::cuda::parse
