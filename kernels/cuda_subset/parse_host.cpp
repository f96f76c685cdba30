// Host code as an entry (--launch 'scan_gpu(io, n)'): a host function of the file and the host
// functions it calls (inline, or by recursion as entries of their own) are read as functions whose
// bodies may allocate (cudaMalloc, malloc, new[]),
// copy (cudaMemcpy of every kind, cudaMemset), launch the file's kernels (KERNEL<<<GRID, BLOCK,
// SHARED>>>(ARGS)) and check errors (cudaGetLastError, exit). Everything else of the host (main,
// structs, the standard library) stays skipped; docs/kernel-subset.md lists what is read.
#include <algorithm>
#include <utility>

#include "cuda_subset/parser_impl.hpp"

namespace sv::cuda::parse {

namespace {

// The host calls read, and what each becomes (Nop: evaluated, 0 its value).
struct ApiName {
  std::string_view name;
  ApiKind kind;
};
constexpr ApiName kApi[] = {
    {"cudaMalloc", ApiKind::Malloc},         {"cudaMallocManaged", ApiKind::Malloc}, {"cudaMallocHost", ApiKind::Malloc},
    {"cudaHostAlloc", ApiKind::Malloc},      {"cudaMemcpy", ApiKind::Copy},          {"cudaMemcpyAsync", ApiKind::Copy},
    {"cudaMemset", ApiKind::Set},            {"cudaMemsetAsync", ApiKind::Set},      {"malloc", ApiKind::Alloc},
    {"exit", ApiKind::Exit},                 {"abort", ApiKind::Exit},               {"cudaFree", ApiKind::Nop},
    {"cudaFreeHost", ApiKind::Nop},          {"free", ApiKind::Nop},                 {"cudaDeviceSynchronize", ApiKind::Nop},
    {"cudaGetLastError", ApiKind::Nop},      {"cudaPeekAtLastError", ApiKind::Nop},  {"cudaDeviceReset", ApiKind::Nop},
    {"cudaEventCreate", ApiKind::Nop},       {"cudaEventRecord", ApiKind::Nop},      {"cudaEventSynchronize", ApiKind::Nop},
    {"cudaEventElapsedTime", ApiKind::Nop},  {"cudaEventDestroy", ApiKind::Nop},     {"cudaStreamSynchronize", ApiKind::Nop},
    {"cudaGetErrorString", ApiKind::Nop},    {"cudaGetErrorName", ApiKind::Nop},     {"cudaSetDevice", ApiKind::Nop},
};

// The values of the runtime's and the C library's names host code compares and passes.
struct HostConstant {
  std::string_view name;
  std::int64_t value;
};
constexpr HostConstant kHostConstants[] = {
    {"cudaSuccess", 0},           {"cudaMemcpyHostToHost", 0}, {"cudaMemcpyHostToDevice", 1}, {"cudaMemcpyDeviceToHost", 2},
    {"cudaMemcpyDeviceToDevice", 3}, {"cudaMemcpyDefault", 4}, {"EXIT_SUCCESS", 0},           {"EXIT_FAILURE", 1},
    {"stdout", 0},                {"stderr", 0},               {"cudaMemAttachGlobal", 1},    {"cudaHostAllocDefault", 0},
};

}  // namespace

void Parser::note_host_function() {
  const std::size_t start = i_;
  (void)specifiers();
  const std::size_t type_at = i_;
  if (looks_like_function()) {
    std::size_t j = i_;
    while (t_[j].kind != Tok::Ident || t_[j + 1].text != "(") ++j;  // looks_like_function found NAME (
    const std::string name = t_[j].text;
    i_ = j + 1;
    skip_balanced("(", ")");
    while (at_ident("const") || at_ident("noexcept")) ++i_;
    if (at("{") && name != "main") {
      host_functions_.emplace(name, type_at);
      note_launcher(name, j + 1);
    }
  }
  i_ = start;
}

// A host function whose parameters scanviz can bind (pointers and integers) and whose body launches
// a kernel: its launch, the way the file would run the scan (const pointer in, the other out; one
// pointer alone io; integers n).
void Parser::note_launcher(const std::string& name, std::size_t open) {
  std::vector<std::string> args;
  std::vector<bool> pointers, consts;
  std::size_t j = open + 1;
  for (int depth = 0; t_[j].kind != Tok::End && !(depth == 0 && t_[j].text == ")");) {
    bool pointer = false, is_const = false, named_in = false;
    for (; t_[j].kind != Tok::End && !(depth == 0 && (t_[j].text == "," || t_[j].text == ")")); ++j) {
      if (t_[j].text == "(") ++depth;
      if (t_[j].text == ")") --depth;
      pointer |= t_[j].text == "*";
      is_const |= t_[j].text == "const" && !pointer;
      named_in |= t_[j].kind == Tok::Ident && t_[j].text.find("in") != std::string::npos && t_[j].text.find("int") == std::string::npos;
    }
    if (t_[j].text == ",") ++j;
    pointers.push_back(pointer);
    consts.push_back(is_const || (pointer && named_in));
  }
  const auto count = std::count(pointers.begin(), pointers.end(), true);
  if (count < 1 || count > 2) return;
  bool launches = false;  // somewhere in the body, from its '{' to the matching '}'
  std::size_t k = j;
  while (t_[k].kind != Tok::End && t_[k].text != "{") ++k;
  for (int depth = 0; t_[k].kind != Tok::End && !launches; ++k) {
    depth += t_[k].text == "{" ? 1 : t_[k].text == "}" ? -1 : 0;
    if (depth == 0) break;
    launches = t_[k].text == "<<" && t_[k + 1].text == "<";
  }
  if (!launches) return;
  bool in_given = false;
  for (std::size_t p = 0; p < pointers.size(); ++p) {
    if (!pointers[p]) {
      args.push_back("n");
    } else if (count == 1) {
      args.push_back("io");
    } else {
      const bool in = consts[p] && !in_given;
      in_given |= in;
      args.push_back(in ? "in" : "out");
    }
  }
  if (count == 2 && !in_given) args[static_cast<std::size_t>(std::find(pointers.begin(), pointers.end(), true) - pointers.begin())] = "in";
  std::string text = name + "(";
  for (std::size_t a = 0; a < args.size(); ++a) text += (a ? ", " : "") + args[a];
  launchers_.push_back(text + ")");
}

// Parses host function `name` where it stands in the file, from the middle of another body: the
// state of the body being read is kept aside, and the callee sees only the file's names.
void Parser::parse_host_function(const std::string& name) {
  const auto it = host_functions_.find(name);
  if (std::find(host_parsing_.begin(), host_parsing_.end(), name) != host_parsing_.end())
    fail("unsupported", t_[it->second].pos, "'" + name + "' calls itself (directly or through another function): recursion is not read");
  host_parsing_.push_back(name);
  elsewhere(it->second, {}, [&] { function_definition(); });
  host_parsing_.pop_back();
}

Kernel Parser::host_entry(const std::string& name) {
  host_ = true;
  for (const char* handle : {"cudaError_t", "cudaEvent_t", "cudaStream_t", "dim3"})
    scopes_.front()[handle] = Symbol{Symbol::TypeAlias, 0, 0, Type{std::string_view(handle) == "dim3" ? Base::UInt : Base::Int, false}};
  parse_host_function(name);
  const std::size_t f = function_index_.at(name);
  Function& fn = functions_[f];
  Kernel k;
  k.file = file_;
  k.name = name;
  k.pos = fn.pos;
  k.host = true;
  k.params = fn.params;
  k.body = std::move(fn.body);
  kernel_calls_[name] = fn.calls;
  for (const Param& p : k.params)
    if (p.type.pointer && p.type.base != Base::Void) {
      k.element = Type{p.type.base, false};
      break;
    }
  k.slots = slots_;
  k.local_names = local_names_;
  k.local_arrays = local_arrays_;
  k.files = files_;
  for (const Kernel& other : kernels_) k.kernels.push_back(other.name);
  k.launched = launched_;
  k.called = called_;
  for (const Kernel& other : kernels_)  // a launched kernel's shuffles run in warps of 32, as the check's cases do
    if (std::find(launched_.begin(), launched_.end(), other.name) != launched_.end()) {
      k.uses_warp_intrinsics |= other.uses_warp_intrinsics;
      for (const std::int64_t f : kernel_calls_[other.name]) k.uses_warp_intrinsics |= warp_functions_.count(static_cast<std::size_t>(f)) > 0;
    }
  check_calls(k);
  k.functions = std::move(functions_);
  k.formats = formats_;
  return k;
}

std::optional<std::int64_t> Parser::host_constant(const std::string& name) const {
  if (!host_) return std::nullopt;
  for (const HostConstant& c : kHostConstants)
    if (c.name == name) return c.value;
  return std::nullopt;
}

std::int64_t Parser::address_of_local(const std::string& call) {
  // (void**)&p, reinterpret_cast<void**>(&p) and &p all name local pointer p.
  int parens = 0;
  if (at("(") && t_[i_ + 1].text == "void") {
    skip_balanced("(", ")");
  } else if (at_ident("reinterpret_cast") || at_ident("static_cast")) {
    ++i_;
    while (!at(">") && cur().kind != Tok::End) ++i_;
    expect(">");
    expect("(");
    ++parens;
  }
  const SrcPos at = cur().pos;
  if (!accept("&")) fail("unsupported", at, call + "'s first argument is the address of a variable, as in " + call + "(&d_sums, bytes)");
  const std::string name = ident("a variable's name");
  for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s)
    if (const auto it = s->find(name); it != s->end()) {
      if (it->second.kind != Symbol::Local) break;
      while (parens-- > 0) expect(")");
      if (call.rfind("cudaMalloc", 0) == 0 || call == "cudaHostAlloc") {
        if (!it->second.type.pointer) fail("unsupported", at, call + " of '" + name + "', which is not a pointer");
        if (it->second.type.base == Base::Void) fail("unsupported", at, call + " of a void pointer: declare '" + name + "' with its element type");
      }
      last_address_type_ = it->second.type;
      return it->second.index;
    }
  fail("unsupported", at, call + " of '" + name + "': not a local variable of this function");
}

ExprP Parser::host_call(const std::string& name, SrcPos at) {
  const auto api = std::find_if(std::begin(kApi), std::end(kApi), [&](const ApiName& a) { return a.name == name; });
  if (api == std::end(kApi)) {
    if (std::find(host_parsing_.begin(), host_parsing_.end(), name) != host_parsing_.end()) return recursive_call(name, at);
    if (!function_index_.count(name) && host_functions_.count(name)) parse_host_function(name);
    return nullptr;
  }
  auto e = node(EK::Api, at, {Base::Int, false});
  e->op = static_cast<std::uint8_t>(api->kind);
  e->ival = -1;
  expect("(");
  switch (api->kind) {
    case ApiKind::Malloc:
      e->ival = address_of_local(name);
      e->a = node(EK::Local, at, last_address_type_);  // the pointer set: its cells are bytes / sizeof(element)
      e->a->ival = e->ival;
      expect(",");
      e->args.push_back(convert(assignment(), {Base::ULong, false}, "allocate"));
      while (accept(",")) (void)assignment();  // flags
      break;
    case ApiKind::Alloc:
      e->type = Type{Base::Void, true};  // the cast that follows says the element (cast_to)
      e->args.push_back(convert(assignment(), {Base::ULong, false}, "allocate"));
      break;
    case ApiKind::Copy:
    case ApiKind::Set: {
      e->args.push_back(assignment());
      expect(",");
      e->args.push_back(assignment());
      expect(",");
      e->args.push_back(convert(assignment(), {Base::ULong, false}, api->kind == ApiKind::Copy ? "copy" : "set"));
      if (!e->args[0]->type.pointer) fail("unsupported", e->args[0]->pos, name + "'s destination is not a pointer");
      if (api->kind == ApiKind::Copy && !e->args[1]->type.pointer) fail("unsupported", e->args[1]->pos, name + "'s source is not a pointer");
      if (e->args[0]->type.base == Base::Void) fail("unsupported", e->args[0]->pos, name + " through a void pointer: its element type is not known");
      while (accept(",")) (void)assignment();  // the copy's kind, a stream
      break;
    }
    case ApiKind::Exit:
      if (!at_is(")")) e->args.push_back(convert(assignment(), {Base::Int, false}, "exit with"));
      break;
    case ApiKind::NewArray:
    case ApiKind::Nop:
      if (name == "cudaGetErrorString" || name == "cudaGetErrorName") e->type = Type{Base::Int, true};  // a string: a pointer that reads nothing
      while (!at_is(")")) {
        if (at_is("&")) e->ival = address_of_local(name);
        else e->args.push_back(assignment());
        if (!accept(",")) break;
      }
      break;
  }
  expect(")");
  return seal(std::move(e));
}

ExprP Parser::recursive_call(const std::string& name, SrcPos at) {
  const Function& fn = functions_[function_index_.at(name)];
  if (fn.result.base != Base::Void || fn.result.pointer)
    fail("unsupported", at, "'" + name + "' calls itself and returns a value: only a void host function may recurse here");
  auto args = arguments(name, fn.params.size(), fn.params.size());
  auto e = node(EK::Api, at, {Base::Int, false});
  e->op = static_cast<std::uint8_t>(ApiKind::Call);
  for (std::size_t p = 0; p < args.size(); ++p) {
    const Param& q = fn.params[p];
    if (q.type.pointer != args[p]->type.pointer)
      fail("unsupported", args[p]->pos, "'" + name + "' takes " + (q.type.pointer ? "a pointer" : "a number") + " as '" + q.name + "'");
    e->args.push_back(q.type.pointer ? std::move(args[p]) : convert(std::move(args[p]), q.type, "pass"));
  }
  e->ival = static_cast<std::int64_t>(std::find(called_.begin(), called_.end(), name) - called_.begin());
  if (e->ival == static_cast<std::int64_t>(called_.size())) called_.push_back(name);
  return seal(std::move(e));
}

ExprP Parser::new_array(SrcPos at) {
  const Type t = base_type();
  if (at_is("*")) fail("unsupported", cur().pos, "new of pointers is not read");
  expect("[");
  ExprP count = convert(expression(), {Base::ULong, false}, "allocate");
  expect("]");
  auto e = node(EK::Api, at, Type{t.base, true});
  e->op = static_cast<std::uint8_t>(ApiKind::NewArray);
  e->ival = -1;
  e->args.push_back(std::move(count));
  return seal(std::move(e));
}

ExprP Parser::launch(const std::string& kernel, SrcPos at) {
  if (at_is("<")) fail("unsupported", at, "template kernels are not launched from host code yet: give the launch with --launch");
  expect("<<");
  expect("<");
  const auto k = std::find_if(kernels_.begin(), kernels_.end(), [&](const Kernel& x) { return x.name == kernel && x.body; });
  auto e = node(EK::Launch, at, {Base::Int, false});
  const bool outer = std::exchange(launch_config_, true);
  for (int part = 0; part < 4 && !at_is(">>"); ++part) {
    if (part > 0) expect(",");
    ExprP v = convert(assignment(), {Base::Long, false}, "launch with");
    if (part < 3) e->args.push_back(std::move(v));  // a stream is read past
  }
  launch_config_ = outer;
  if (e->args.size() < 2) fail("syntax", at, "a launch gives at least <<<GRID, BLOCK>>>");
  if (e->args.size() == 2) e->args.push_back(literal_int(0, at, Base::Long));
  expect(">>");
  expect(">");
  expect("(");
  std::size_t given = 0;
  if (!at_is(")")) do {
      ExprP a = assignment();
      if (given < k->params.size()) {
        const Param& q = k->params[given];
        if (q.type.pointer && !a->type.pointer) fail("unsupported", a->pos, "'" + kernel + "' takes a pointer as '" + q.name + "'; this is a number");
        if (!q.type.pointer && a->type.pointer) fail("unsupported", a->pos, "'" + kernel + "' takes a number as '" + q.name + "'; this is a pointer");
        if (!q.type.pointer) a = convert(std::move(a), q.type, "pass");
      }
      e->args.push_back(std::move(a));
      ++given;
    } while (accept(","));
  expect(")");
  if (given != k->params.size())
    fail("unsupported", at, "'" + kernel + "' takes " + std::to_string(k->params.size()) + " parameters; this launch passes " + std::to_string(given));
  e->ival = static_cast<std::int64_t>(std::find(launched_.begin(), launched_.end(), kernel) - launched_.begin());
  if (e->ival == static_cast<std::int64_t>(launched_.size())) launched_.push_back(kernel);
  return seal(std::move(e));
}

bool Parser::is_kernel(const std::string& name) const {
  return std::any_of(kernels_.begin(), kernels_.end(), [&](const Kernel& k) { return k.name == name && k.body; });
}

}  // namespace sv::cuda::parse
