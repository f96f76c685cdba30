// Binds a kernel of the user's own to a block run and records it (cuda_subset/record_kernel.hpp).
#include "cuda_subset/record_kernel.hpp"

#include <algorithm>
#include <bit>
#include <optional>

#include "core/pause.hpp"
#include "core/values.hpp"
#include "cuda_subset/host_run.hpp"
#include "cuda_subset/parser.hpp"
#include "cuda_subset/record_parts.hpp"
#include "emulator/block_emulator.hpp"
#include "emulator/record.hpp"
#include "run/prepare.hpp"

namespace sv::cuda {

namespace detail {

constexpr std::int64_t kMaxSharedBytes = 48 * 1024;  // a block's static shared memory on every CUDA GPU

std::map<std::string, std::string> block_override(const KernelRunConfig& c, std::int32_t threads) {
  if (c.launch) return {};  // the launch says the block; the file's macros stay as written
  const std::string macro = block_macro(c.source, c.file, c.include);
  if (macro.empty()) return {};
  return {{macro, std::to_string(threads)}};
}

// The largest __shared__ array of the element type, in elements (0: none).
std::int64_t shared_capacity(const Kernel& k) {
  std::int64_t capacity = 0;
  for (const SharedVar& v : k.shared)
    if (!v.scalar && !v.device && v.elem.base == k.element.base) capacity = std::max(capacity, v.length);
  return capacity;
}

std::int64_t cell_bytes(Base b) { return size_of(Type{b, false}); }

// The extern __shared__ arrays' element (the first one's: they are one allocation), if any.
std::optional<Base> dynamic_element(const Kernel& k) {
  for (const SharedVar& v : k.shared)
    if (v.dynamic) return v.elem.base;
  return std::nullopt;
}

void check_shared_size(const Kernel& k, std::int64_t dynamic_bytes) {
  std::int64_t bytes = dynamic_bytes;
  if (bytes > kMaxSharedBytes)
    throw KernelError("limit", k.file, k.pos, "the launch gives " + std::to_string(bytes) + " bytes of dynamic shared memory, more than the " +
                                                  std::to_string(kMaxSharedBytes) + " a block may have");
  for (const SharedVar& v : k.shared) {
    if (v.dynamic || v.device) continue;
    bytes += cell_bytes(v.elem.base) * v.length;
    if (bytes > kMaxSharedBytes)
      throw KernelError("limit", file_of(k, v.pos), v.pos, "__shared__ '" + v.name + "' brings the block's shared memory to " + std::to_string(bytes) +
                                                    " bytes, more than the " + std::to_string(kMaxSharedBytes) + " a block may have");
  }
}

// A scalar parameter's value from a launch argument.
void bind_scalar(const Kernel& k, const Param& q, const LaunchArg& a, std::int64_t n, std::int64_t& value, double& number) {
  if (a.kind != LaunchArg::Number)
    throw KernelError("unsupported", file_of(k, q.pos), q.pos, "parameter '" + q.name + "' (" + type_name(q.type) + ") is bound to a buffer by the launch: pass a number or n");
  if (!a.expr.empty()) {
    value = eval_launch_expr(a.expr, n);
    number = static_cast<double>(value);
  } else {
    number = a.number;
    value = static_cast<std::int64_t>(a.number);
  }
}

// The parameters bound to a launch's arguments, one for one.
ParamBinding bind_to_launch(Kernel& k, const LaunchSpec& l, std::int64_t n, std::int32_t grid) {
  if (l.args.size() != k.params.size())
    throw KernelError("unsupported", k.file, k.pos, "'" + k.name + "' takes " + std::to_string(k.params.size()) + " parameters; the launch passes " +
                                                        std::to_string(l.args.size()));
  ParamBinding p;
  p.buffer.assign(k.params.size(), -1);
  p.value.assign(k.params.size(), 0);
  p.number.assign(k.params.size(), 0);
  for (std::size_t i = 0; i < k.params.size(); ++i) {
    const Param& q = k.params[i];
    const LaunchArg& a = l.args[i];
    if (!q.type.pointer) {
      bind_scalar(k, q, a, n, p.value[i], p.number[i]);
      continue;
    }
    switch (a.kind) {
      case LaunchArg::In: p.buffer[i] = 0; break;
      case LaunchArg::Out:
      case LaunchArg::Io:
        p.buffer[i] = 1;
        p.in_place = a.kind == LaunchArg::Io;
        k.element = Type{q.type.base, false};  // the scan's type is what its output holds
        break;
      case LaunchArg::Sums: p.extras.push_back({q.name, grid, false}); break;
      case LaunchArg::Zeros:
      case LaunchArg::Buf: {
        const std::int64_t cells = eval_launch_expr(a.cells, n);
        if (cells < 1 || cells > (std::int64_t{1} << 24))
          throw KernelError("unsupported", file_of(k, q.pos), q.pos, "parameter '" + q.name + "': the launch gives it " + std::to_string(cells) +
                                                                          " cells (1 to 2^24)");
        p.extras.push_back({q.name, cells, a.kind == LaunchArg::Zeros});
        break;
      }
      case LaunchArg::Number:
        throw KernelError("unsupported", file_of(k, q.pos), q.pos, "parameter '" + q.name + "' is a pointer; the launch passes a number");
    }
    if (p.buffer[i] < 0) p.buffer[i] = static_cast<std::int32_t>(1 + p.extras.size());
  }
  return p;
}

}  // namespace detail

using namespace detail;

Kernel parse_run_kernel(const KernelRunConfig& c, const std::map<std::string, std::string>& overrides) {
  return parse_kernel(c.source, c.file, overrides, c.launch ? launch_entry(*c.launch) : std::string(), c.include);
}

ParamBinding bind_params(const Kernel& k, std::int64_t n) {
  std::vector<std::size_t> pointers;
  ParamBinding p;
  p.buffer.assign(k.params.size(), -1);
  p.value.assign(k.params.size(), 0);
  bool have_length = false;
  for (std::size_t i = 0; i < k.params.size(); ++i) {
    const Param& q = k.params[i];
    if (q.type.pointer) {
      pointers.push_back(i);
      continue;
    }
    if (!is_integer(q.type.base) || q.type.base == Base::Bool)
      throw KernelError("unsupported", k.file, q.pos, "cannot bind parameter '" + q.name + "' (" + type_name(q.type) +
                                                          "): a kernel takes an input pointer, an output pointer and the length n");
    if (have_length)
      throw KernelError("unsupported", k.file, q.pos, "cannot bind parameter '" + q.name + "': a second integer parameter (the first is the length n)");
    have_length = true;
    p.value[i] = n;
  }
  if (pointers.size() < 2 || pointers.size() > 3)
    throw KernelError("unsupported", k.file, pointers.empty() ? k.pos : k.params[pointers.back()].pos,
                      "the kernel has " + std::to_string(pointers.size()) +
                          " pointer parameters; a block scan takes the input, the output and optionally the partial sums (in-place kernels are not bound)");
  // The input is the first pointer never stored through (else the first); the others follow in order.
  std::size_t in = pointers[0];
  for (std::size_t q : pointers)
    if (!k.params[q].written) {
      in = q;
      break;
    }
  std::int32_t next = 1;
  p.buffer[in] = 0;
  for (std::size_t q : pointers)
    if (q != in) p.buffer[q] = next++;
  p.number.assign(k.params.size(), 0);
  for (std::size_t q : pointers)
    if (p.buffer[q] == 2) p.extras.push_back({k.params[q].name, 0, false});  // one cell a block: sized at the launch
  return p;
}

std::int64_t elements_per_block(const Kernel& k, std::int32_t threads) { return std::max<std::int64_t>(shared_capacity(k), threads); }

std::string block_macro(const std::string& source, const std::string& file, const IncludeReader& include) {
  const auto macros = defined_macros(source, file, include);
  for (const char* name : {"BLOCK_DIM", "BLOCK_SIZE", "SECTION_SIZE"})
    if (macros.count(name)) return name;
  return {};
}

ValueType run_type_of(const Kernel& k, bool symbolic) {
  const Base e = k.element.base;
  if (symbolic) {
    if (!is_floating(e))
      throw KernelError("unsupported", k.file, k.pos, "--op interval runs a float or double kernel symbolically, and this one scans " + type_name(k.element));
    return ValueType::Interval;
  }
  if (e == Base::Float) return ValueType::F32;
  if (e == Base::Double) return ValueType::F64;
  if (e == Base::Int) return ValueType::I32;
  if (e == Base::Long) return ValueType::I64;
  throw KernelError("unsupported", k.file, k.pos, "a scan of " + type_name(k.element) + " values: scanviz scans int, long long, float or double");
}

ValueType kernel_run_type(const KernelRunConfig& c) {
  Kernel k = parse_run_kernel(c);
  if (c.launch)
    for (std::size_t i = 0; i < c.launch->args.size() && i < k.params.size(); ++i) {
      const auto kind = c.launch->args[i].kind;
      if ((kind == LaunchArg::Out || kind == LaunchArg::Io) && k.params[i].type.pointer) k.element = Type{k.params[i].type.base, false};
    }
  return run_type_of(k, c.symbolic);
}

std::int32_t infer_block(const KernelRunConfig& c) {
  if (c.block != 0) {
    if (c.block < 1 || c.block > 1024) throw std::invalid_argument("--block " + std::to_string(c.block) + " is outside 1..1024");
    return c.block;
  }
  const std::string macro = block_macro(c.source, c.file, c.include);
  if (macro.empty()) {
    const Kernel k = parse_run_kernel(c);  // a syntax error is said first
    throw KernelError("unsupported", c.file, k.pos, "cannot infer the block size: #define BLOCK_DIM (or BLOCK_SIZE, SECTION_SIZE) or give --block");
  }
  for (std::int32_t threads = 1; threads <= 1024; threads *= 2) {
    try {
      const Kernel k = parse_run_kernel(c, {{macro, std::to_string(threads)}});
      const std::int64_t capacity = shared_capacity(k);
      if ((capacity ? capacity : threads) >= c.n) return threads;
    } catch (const KernelError&) {  // WARPS = BLOCK_DIM/32 is 0 below 32 threads: try a larger block
      if (threads == 1024) throw;
    }
  }
  throw std::invalid_argument("n = " + std::to_string(c.n) + " does not fit one block of at most 1024 threads of this kernel");
}

namespace detail {

void check_n(const KernelRunConfig& c) {
  if (c.n < 1 || c.n > (std::int64_t{1} << 20)) throw std::invalid_argument("n = " + std::to_string(c.n) + " is outside 1..1048576 for a kernel of your own");
}


Bound bind_launch(const KernelRunConfig& c, const Launch& l) {
  Bound b;
  b.k = parse_run_kernel(c, block_override(c, l.threads));
  Kernel& k = b.k;
  ParamBinding params = c.launch ? bind_to_launch(k, *c.launch, c.n, l.grid) : bind_params(k, c.n);
  const ValueType type = run_type_of(k, c.symbolic);
  std::int64_t dynamic_cells = 0;
  if (const auto elem = dynamic_element(k)) {
    // Without a launch, twice the block's threads: a double buffer, or a work-efficient scan's two
    // elements a thread. The card prints the launch that ran.
    const std::int64_t bytes = c.launch ? l.shared_bytes : 2 * std::int64_t{l.threads} * cell_bytes(*elem);
    dynamic_cells = bytes / cell_bytes(*elem);
    if (dynamic_cells < 1) {
      const auto v = std::find_if(k.shared.begin(), k.shared.end(), [](const SharedVar& s) { return s.dynamic; });
      throw KernelError("unsupported", file_of(k, v->pos), v->pos, "extern __shared__ '" + v->name + "' gets " + std::to_string(bytes) +
                                                                        " bytes from the launch: give SHARED_BYTES, the third value in <<<GRID, BLOCK, SHARED_BYTES>>>");
    }
    check_shared_size(k, bytes);
  } else {
    check_shared_size(k, 0);
  }
  if (!c.input.empty() && static_cast<std::int64_t>(c.input.size()) != c.n)
    throw std::invalid_argument("the input has " + std::to_string(c.input.size()) + " values but n = " + std::to_string(c.n));

  TraceMeta& m = b.meta;
  m.algorithm = own_kernel_algorithm(k.name.substr(0, k.name.find('<')));  // a template's instance traces as its template
  const auto slash = c.file.find_last_of('/');
  m.options["file"] = slash == std::string::npos ? c.file : c.file.substr(slash + 1);
  if (c.launch) m.options["kernel_launch"] = launch_text(*c.launch);  // not "launch": the device-wide scans' launch-order switch
  if (c.warp != 32) m.options["warp"] = std::to_string(c.warp);
  m.n = c.n;
  m.block = l.threads;
  m.capacity = l.capacity;
  m.items_per_thread = static_cast<std::int32_t>(std::max<std::int64_t>(1, l.capacity / l.threads));
  m.grid = l.grid;
  m.op = c.symbolic ? OpKind::Interval : OpKind::Sum;
  m.type = type;
  m.exclusive = c.exclusive;
  m.input_seed = c.input.empty() ? c.input_seed : 0;
  m.input = c.input.empty() ? random_input(m.op, type, c.n, c.input_seed) : c.input;
  check_op_values(m.op, type, m.input);
  m.executor.kind = "emulator";
  m.executor.schedule = c.schedule.kind_name();
  m.executor.seed = c.schedule.seed;

  b.bind.param_buffer = std::move(params.buffer);
  b.bind.param_value = std::move(params.value);
  b.bind.param_number = std::move(params.number);
  b.bind.run_type = type;
  b.bind.threads = l.threads;
  b.bind.grid = l.grid;
  b.bind.warp = c.warp;
  b.bind.dynamic_cells = dynamic_cells;
  b.extras = std::move(params.extras);
  for (ParamBinding::Extra& e : b.extras)
    if (e.cells == 0) e.cells = l.grid;  // the partial sums: one cell a block
  // The file's __device__ variables: global buffers after the parameters', set at the run's start.
  b.bind.device_buffer.assign(k.shared.size(), -1);
  for (std::size_t s = 0; s < k.shared.size(); ++s)
    if (k.shared[s].device) {
      b.bind.device_buffer[s] = static_cast<std::int32_t>(2 + b.extras.size());
      b.extras.push_back({k.shared[s].name, k.shared[s].length, true, k.shared[s].init});
    }
  b.in_place = params.in_place;
  return b;
}

// A buffer's cells set to `v`, in the run's type (a symbolic run's: the identity for 0).
Payload fill_value(ValueType type, double v) {
  switch (type) {
    case ValueType::F32: return Payload::of(static_cast<float>(v));
    case ValueType::F64: return Payload::of(v);
    case ValueType::I32: return Payload::of(static_cast<std::int32_t>(v));
    case ValueType::I64: return Payload::of(static_cast<std::int64_t>(v));
    case ValueType::Interval: break;
  }
  return Payload::of(v == 0 ? Interval::identity() : Interval::range(static_cast<std::int32_t>(v), static_cast<std::int32_t>(v)));
}


// One block of the launch into `trace`, on `memory`, which it leaves as the block did. Returns the
// statements it ran.
std::int64_t run_block(const KernelRunConfig& c, const Bound& b, std::int32_t block_id, Trace& trace, GlobalMemory& memory,
                       const Budget& budget, std::vector<UninitializedRead>& uninitialized) {
  Binding bind = b.bind;
  bind.block_id = block_id;
  // Reserved, as record_block_scan does, so the events are not moved as they grow (pages reserved and
  // never written cost nothing): the built-in kernels record up to about 60 events a thread.
  trace.events.reserve(static_cast<std::size_t>(std::clamp<std::int64_t>(std::int64_t{bind.threads} * 128, 0, budget.events)));
  BlockEmulator emu(trace, c.schedule, bind.threads, block_id, b.meta.input, c.n, true, c.warp, kInterpreterStack);
  emu.allow_pauses();  // a check in the page runs a slice a frame
  for (const ParamBinding::Extra& e : b.extras) emu.add_global(e.name, e.cells);
  const int globals = static_cast<int>(trace.buffers.size());
  if (memory.values.empty()) {  // the launch's first block: the buffers as the launch gives them
    if (b.in_place) emu.set_global(1, b.meta.input, std::vector<std::uint8_t>(b.meta.input.size(), 1));
    for (std::size_t x = 0; x < b.extras.size(); ++x)
      if (b.extras[x].zeroed) {
        const auto cells = static_cast<std::size_t>(b.extras[x].cells);
        emu.set_global(static_cast<int>(2 + x), std::vector<Payload>(cells, fill_value(b.bind.run_type, b.extras[x].fill)),
                       std::vector<std::uint8_t>(cells, 1));
      }
  }
  for (int g = 0; g < globals && !memory.values.empty(); ++g)
    emu.set_global(g, memory.values[static_cast<std::size_t>(g)], memory.defined[static_cast<std::size_t>(g)]);
  std::vector<UninitializedRead> reads;
  const std::int64_t statements = interpret(emu, b.k, bind, trace, budget, &reads);
  for (const UninitializedRead& r : reads)
    if (std::none_of(uninitialized.begin(), uninitialized.end(), [&](const UninitializedRead& u) { return u.line == r.line; }))
      uninitialized.push_back(r);
  memory.values.resize(static_cast<std::size_t>(globals));
  memory.defined.resize(static_cast<std::size_t>(globals));
  for (int g = 0; g < globals; ++g) {
    memory.values[static_cast<std::size_t>(g)] = emu.buffer_values(g);
    memory.defined[static_cast<std::size_t>(g)] = emu.buffer_defined(g);
  }
  return statements;
}

// Appends one block's trace to the launch's: its events renumbered, its steps and snapshots after the others.
void append_block(Trace& launch, Trace&& block) {
  const std::uint64_t offset = launch.events.size();
  if (launch.buffers.empty()) launch.buffers = std::move(block.buffers);
  if (launch.events.empty() && launch.steps.empty() && launch.snapshots.empty()) {  // the first block: nothing to renumber
    launch.events = std::move(block.events);
    launch.steps = std::move(block.steps);
    launch.snapshots = std::move(block.snapshots);
    return;
  }
  const auto shift = [offset](Origin& o) {
    if (o.kind == Origin::OpResult) o.index += static_cast<std::int64_t>(offset);
  };
  std::size_t copied = 0;
  for (Event& e : block.events) {
    if (++copied % kPauseEvery == 0) pause_point();  // a later block of a 1024-thread launch is many events
    e.seq += offset;
    shift(e.a);
    shift(e.b);
    launch.events.push_back(e);
  }
  for (Step s : block.steps) {
    s.first_event += offset;
    s.end_event += offset;
    launch.steps.push_back(s);
  }
  for (auto& snapshot : block.snapshots) launch.snapshots.push_back(std::move(snapshot));
}

void note_printed(Trace& t, const std::vector<std::string>& printed) {
  constexpr std::size_t kKept = 20;
  std::string lines;
  for (std::size_t i = 0; i < printed.size() && i < kKept; ++i) lines += (i ? "\n" : "") + printed[i];
  if (!lines.empty()) t.meta.options["printf"] = lines;
}

// The whole input's scan when the output is that, else each block's section scanned on its own.
void judge_launch(Trace& t, std::vector<Payload> output) {
  TraceMeta& m = t.meta;
  const std::vector<Payload> whole = reference_scan(m.op, m.type, m.input, m.exclusive);
  if (m.grid > 1 && !mismatches(m.op, m.type, m.input, m.exclusive, whole, output).empty()) m.options["scan"] = std::string(kBlockSections);
  const std::vector<std::uint8_t> heads = judged_heads(m);
  t.result.reference = reference_scan(m.op, m.type, m.input, m.exclusive, heads);
  t.result.outcome = mismatches(m.op, m.type, m.input, m.exclusive, t.result.reference, output, heads).empty() ? Outcome::Correct : Outcome::Wrong;
  t.result.output = std::move(output);
}

}  // namespace detail

KernelRun run_kernel(const KernelRunConfig& c) {
  if (c.launch && c.launch->host) return record_kernel_launch(c);  // the host's launches, all of them
  const std::int32_t grid = std::max(c.grid, 1);
  if (c.block_id < 0 || c.block_id >= grid) throw std::invalid_argument("block " + std::to_string(c.block_id) + " of a grid of " + std::to_string(grid));
  check_n(c);
  Launch l;
  if (c.launch) {
    l = launch_at(c);
    l.grid = grid;
  } else {
    l.threads = infer_block(c);
    l.grid = grid;
    l.capacity = elements_per_block(parse_run_kernel(c, block_override(c, l.threads)), l.threads);
  }
  Bound b = bind_launch(c, l);
  KernelRun run;
  b.bind.printed = &run.printed;
  run.trace.meta = b.meta;
  GlobalMemory memory;
  run_block(c, b, c.block_id, run.trace, memory, c.budget, run.uninitialized);
  note_printed(run.trace, run.printed);
  run.output_written = memory.defined[1];
  finish_block_trace(run.trace, memory.values[1]);
  return run;
}

Launch launch_at(const KernelRunConfig& c) {
  if (!c.launch) return infer_launch(c);
  constexpr std::int64_t kMaxGrid = 65535;
  const LaunchSpec& s = *c.launch;
  Launch l;
  if (s.host) {  // the host function launches: one section, the whole input
    l.capacity = c.n;
    return l;
  }
  const std::int64_t threads = eval_launch_expr(s.block, c.n), grid = eval_launch_expr(s.grid, c.n);
  const std::int64_t bytes = s.shared.empty() ? 0 : eval_launch_expr(s.shared, c.n);
  const std::string at = " at n = " + std::to_string(c.n);
  if (threads < 1 || threads > 1024) throw LaunchError("the launch's block is " + std::to_string(threads) + " threads" + at + ": a block has 1 to 1024");
  if (grid < 1 || grid > kMaxGrid) throw LaunchError("the launch's grid is " + std::to_string(grid) + " blocks" + at + ": 1 to " + std::to_string(kMaxGrid) + " here");
  if (bytes < 0) throw LaunchError("the launch gives " + std::to_string(bytes) + " bytes of shared memory" + at);
  l.threads = static_cast<std::int32_t>(threads);
  l.grid = static_cast<std::int32_t>(grid);
  l.shared_bytes = bytes;
  // The elements a block scans: n shared out over the grid, in whole multiples of the block.
  const std::int64_t share = (c.n + grid - 1) / grid;
  l.capacity = (share + threads - 1) / threads * threads;
  return l;
}

Launch infer_launch(const KernelRunConfig& c) {
  constexpr std::int32_t kMaxGrid = 65535;
  if (c.grid < 0 || c.grid > kMaxGrid) throw std::invalid_argument("--grid " + std::to_string(c.grid) + " is outside 1.." + std::to_string(kMaxGrid));
  check_n(c);
  Launch l;
  KernelRunConfig per_block = c;
  if (c.block == 0 && c.grid > 1) per_block.n = (c.n + c.grid - 1) / c.grid;  // a block holds its share of n
  l.threads = infer_block(per_block);
  l.capacity = elements_per_block(parse_run_kernel(c, block_override(c, l.threads)), l.threads);
  const std::int64_t needed = (c.n + l.capacity - 1) / l.capacity;
  l.grid = c.grid ? c.grid : static_cast<std::int32_t>(std::min<std::int64_t>(needed, kMaxGrid));
  const std::string blocks = std::to_string(l.grid) + (l.grid == 1 ? " block" : " blocks") + " of " + std::to_string(l.capacity) + " elements";
  if (l.grid * l.capacity < c.n)
    throw std::invalid_argument(blocks + " hold " + std::to_string(l.grid * l.capacity) + ", fewer than n = " + std::to_string(c.n) +
                                ": give --grid " + std::to_string(needed) + " (or more threads a block)");
  if (l.grid > needed)
    throw std::invalid_argument(blocks + " for n = " + std::to_string(c.n) + ": block " + std::to_string(needed) + " on would get no element; give --grid " +
                                std::to_string(needed));
  return l;
}

KernelRun record_kernel_launch(const KernelRunConfig& c) {
  check_n(c);
  if (c.launch && c.launch->host) return record_host_run(c);
  const Launch l = launch_at(c);
  Bound b = bind_launch(c, l);
  KernelRun run;
  b.bind.printed = &run.printed;
  Trace& launch = run.trace;
  launch.meta = b.meta;
  GlobalMemory memory;
  std::int64_t statements = 0;
  for (std::int32_t block = 0; block < l.grid; ++block) {
    Trace part;
    part.meta = b.meta;
    // What the earlier blocks left of the launch's budgets (the barriers are each thread's own).
    Budget left = c.budget;
    left.statements -= statements;
    left.events -= static_cast<std::int64_t>(launch.events.size());
    std::int64_t cells = 0;
    for (const BufferInfo& buffer : launch.buffers) cells += buffer.length;
    left.snapshot_cells -= static_cast<std::int64_t>(launch.snapshots.size()) * cells;
    if (block > 0 && (left.statements <= 0 || left.events <= 0 || left.snapshot_cells < 2 * cells)) {
      const SrcPos at = b.k.pos;
      throw EmulationError(c.file + ":" + std::to_string(at.line) + ":" + std::to_string(at.col) + ": error: the first " + std::to_string(block) +
                               " of " + std::to_string(l.grid) + " blocks spent the launch's budget (" +
                               (left.statements <= 0 ? "statements" : left.events <= 0 ? "trace events" : "snapshot cells: every buffer at every step") +
                               ", docs/kernel-subset.md): use a smaller n or fewer blocks",
                           "budget", at.line, at.col);
    }
    try {
      statements += run_block(c, b, block, part, memory, left, run.uninitialized);
    } catch (const EmulationError& e) {
      if (l.grid == 1) throw;
      throw EmulationError(std::string(e.what()) + " (block " + std::to_string(block) + " of " + std::to_string(l.grid) +
                               (e.kind == "budget" ? ": the budgets are the launch's, all blocks together)" : ")"),
                           e.kind, e.line, e.column);
    }
    append_block(launch, std::move(part));
  }
  run.output_written = memory.defined[1];
  judge_launch(launch, memory.values[1]);
  note_printed(launch, run.printed);
  return run;
}

Trace record_kernel_trace(const KernelRunConfig& config) { return run_kernel(config).trace; }

}  // namespace sv::cuda
