// A host function run with its launches (cuda_subset/host_run.hpp).
#include "cuda_subset/host_run.hpp"

#include <algorithm>
#include <map>

#include "cuda_subset/parser.hpp"
#include "cuda_subset/record_parts.hpp"
#include "emulator/block_emulator.hpp"

namespace sv::cuda {

namespace {

using namespace detail;

constexpr std::int64_t kMaxGrid = 65535;

class HostRunner final : public HostCalls {
 public:
  HostRunner(const KernelRunConfig& c, Launch* first) : c_(c), first_(first) {}

  KernelRun run() {
    Launch l;
    l.capacity = c_.n;
    host_ = bind_launch(c_, l);  // the host function, its parameters bound to the launch's in, out, io, ...
    host_.bind.host = this;
    host_.bind.printed = &run_.printed;  // the launches' bindings are copies of the host's
    TraceMeta& m = run_.trace.meta;
    m = host_.meta;
    m.options["entry"] = "host";
    m.capacity = m.items_per_thread = 1;  // until the first launch says its block
    Trace host_trace;  // the host thread's own accesses (copies, loops over host arrays) are not drawn
    host_trace.meta = host_.meta;
    host_trace_ = &host_trace;
    GlobalMemory memory;
    run_block(c_, host_, 0, host_trace, memory, c_.budget, run_.uninitialized);
    if (launches_ == 0) m.options["launches"] = "0";
    finish();
    run_.output_written = memory.defined[1];
    judge_launch(run_.trace, memory.values[1]);
    note_printed(run_.trace, run_.printed);
    m.grid = static_cast<std::int32_t>(std::max<std::uint32_t>(1, block_base_));
    return std::move(run_);
  }

  int allocate(BlockEmulator& host, const std::string& name, std::int64_t cells, SrcPos at) override {
    if (host_globals(host) >= 16)
      throw EmulationError(where(at) + "more than 14 buffers allocated in one run (docs/kernel-subset.md): does a loop or a recursion end?", "budget", at.line, at.col);
    return host.add_global(name, cells);
  }

  void call(BlockEmulator& host, const std::string& function, const Expr& e, const std::vector<HostValue>& args) override {
    constexpr int kMaxDepth = 24;
    if (depth_ >= kMaxDepth)
      throw EmulationError(where(e.pos) + "'" + function + "' calls itself more than " + std::to_string(kMaxDepth) +
                               " deep: does its recursion end?", "budget", e.pos.line, e.pos.col);
    auto it = hosts_.find(function);
    if (it == hosts_.end()) it = hosts_.emplace(function, parse_kernel(c_.source, c_.file, {}, function, c_.include)).first;
    const Kernel& k = it->second;
    Binding bind = host_.bind;
    bind_arguments(k, args, 0, bind);
    Budget left = c_.budget;
    left.statements -= statements_;
    ++depth_;
    std::vector<UninitializedRead> reads;
    statements_ += interpret(host, k, bind, *host_trace_, left, &reads);
    --depth_;
  }

  void launch(BlockEmulator& host, const std::string& name, const Expr& e, const std::vector<HostValue>& args) override {
    Bound& b = bound(name);
    const Kernel& k = b.k;
    const std::int64_t grid = args[0].i, threads = args[1].i, bytes = args[2].i;
    const std::string what = "the launch of '" + name + "' on line " + std::to_string(e.pos.line);
    if (threads < 1 || threads > 1024)
      throw EmulationError(where(e.pos) + what + " asks for blocks of " + std::to_string(threads) +
                               " threads (1 to 1024): on a GPU it fails, and the kernel never runs", "runtime", e.pos.line, e.pos.col);
    if (grid < 1 || grid > kMaxGrid)
      throw EmulationError(where(e.pos) + what + " asks for " + std::to_string(grid) + " blocks (1 to " + std::to_string(kMaxGrid) + " here)",
                           grid < 1 ? "runtime" : "limit", e.pos.line, e.pos.col);
    Binding& bind = b.bind;
    bind_arguments(k, args, 3, bind);
    bind.threads = static_cast<std::int32_t>(threads);
    bind.grid = static_cast<std::int32_t>(grid);
    bind.dynamic_cells = 0;
    if (const auto elem = dynamic_element(k)) {
      bind.dynamic_cells = bytes / cell_bytes(*elem);
      if (bind.dynamic_cells < 1)
        throw EmulationError(where(e.pos) + what + " gives its extern __shared__ memory " + std::to_string(bytes) +
                                 " bytes: give SHARED_BYTES, the third value in <<<GRID, BLOCK, SHARED_BYTES>>>", "runtime", e.pos.line, e.pos.col);
    }
    check_shared_size(k, bind.dynamic_cells ? bytes : 0);

    // The kernel's global buffers are the host's, then its __device__ variables (zeroed at every launch).
    const int globals = host_globals(host);
    GlobalMemory memory;
    b.extras.clear();
    for (int g = 0; g < globals; ++g) {
      memory.values.push_back(host.buffer_values(g));
      memory.defined.push_back(host.buffer_defined(g));
      if (g >= 2) b.extras.push_back({host_trace_name(g), static_cast<std::int64_t>(host.buffer_values(g).size()), false});
    }
    bind.device_buffer.assign(k.shared.size(), -1);
    for (std::size_t s = 0; s < k.shared.size(); ++s)
      if (k.shared[s].device) {
        bind.device_buffer[s] = static_cast<std::int32_t>(2 + b.extras.size());
        b.extras.push_back({k.shared[s].name, k.shared[s].length, true, k.shared[s].init});
        memory.values.emplace_back(static_cast<std::size_t>(k.shared[s].length), fill_value(bind.run_type, k.shared[s].init));
        memory.defined.emplace_back(static_cast<std::size_t>(k.shared[s].length), 1);
      }
    b.meta.block = bind.threads;
    b.meta.grid = bind.grid;
    if (launches_ == 0) {
      TraceMeta& m = run_.trace.meta;
      m.block = bind.threads;
      m.capacity = elements_per_block(k, bind.threads);
      m.items_per_thread = static_cast<std::int32_t>(std::max<std::int64_t>(1, m.capacity / m.block));
      m.capacity = std::int64_t{m.items_per_thread} * m.block;
      if (first_) *first_ = Launch{bind.threads, bind.grid, m.capacity, bytes};
    }
    // Where this launch's blocks start: blocks of two launches never race (analysis/block_races.hpp).
    launch_blocks_ += (launches_ ? "," : "") + std::to_string(block_base_);
    run_.trace.meta.options["launch_blocks"] = launch_blocks_;
    for (std::int32_t block = 0; block < bind.grid; ++block) {
      Trace part;
      part.meta = b.meta;
      try {
        statements_ += run_block(c_, b, block, part, memory, left(e.pos), run_.uninitialized);
      } catch (const EmulationError& x) {
        throw EmulationError(std::string(x.what()) + " (block " + std::to_string(block) + " of " + std::to_string(grid) + " in " + what + ")",
                             x.kind, x.line, x.column);
      }
      merge(part, name, globals);
      block_base_ += 1;
    }
    for (int g = 0; g < globals; ++g) host.set_global(g, memory.values[static_cast<std::size_t>(g)], memory.defined[static_cast<std::size_t>(g)]);
    ++launches_;
    run_.trace.meta.options["launches"] = std::to_string(launches_);
  }

 private:
  std::string where(SrcPos at) const { return c_.file + ":" + std::to_string(at.line) + ":" + std::to_string(at.col) + ": error: "; }

  // The parameters of `k` bound to the values from args[first] on.
  static void bind_arguments(const Kernel& k, const std::vector<HostValue>& args, std::size_t first, Binding& bind) {
    bind.param_buffer.assign(k.params.size(), -1);
    bind.param_offset.assign(k.params.size(), 0);
    bind.param_value.assign(k.params.size(), 0);
    bind.param_number.assign(k.params.size(), 0);
    for (std::size_t p = 0; p < k.params.size(); ++p) {
      const HostValue& v = args[first + p];
      if (k.params[p].type.pointer) {
        bind.param_buffer[p] = v.buf;
        bind.param_offset[p] = v.i;
      } else {
        bind.param_value[p] = v.i;
        bind.param_number[p] = is_floating(k.params[p].type.base) ? v.f : static_cast<double>(v.i);
      }
    }
  }

  // The host thread's emulator holds only global buffers: every buffer it has.
  static int host_globals(const BlockEmulator& host) { return host.buffers(); }

  std::string host_trace_name(int g) const { return host_trace_->buffers.at(static_cast<std::size_t>(g)).name; }

  // The kernel `name` parsed and bound once; each launch sets its binding.
  Bound& bound(const std::string& name) {
    auto it = bounds_.find(name);
    if (it != bounds_.end()) return it->second;
    Bound b;
    b.k = parse_kernel(c_.source, c_.file, {}, name, c_.include);
    b.bind = host_.bind;
    b.bind.host = nullptr;
    b.meta = host_.meta;
    b.meta.algorithm = own_kernel_algorithm(name.substr(0, name.find('<')));
    return bounds_.emplace(name, std::move(b)).first->second;
  }

  // What the run so far left of the budgets (the barriers are each launch's own).
  Budget left(SrcPos at) const {
    Budget b = c_.budget;
    b.statements -= statements_;
    b.events -= static_cast<std::int64_t>(run_.trace.events.size());
    std::int64_t cells = 0;
    for (const BufferInfo& buffer : run_.trace.buffers) cells += buffer.length;
    b.snapshot_cells -= static_cast<std::int64_t>(run_.trace.snapshots.size()) * cells;
    if (b.statements <= 0 || b.events <= 0 || b.snapshot_cells <= 0)
      throw EmulationError(where(at) + "the launches before this one spent the run's budget (" +
                               (b.statements <= 0 ? "statements" : b.events <= 0 ? "trace events" : "snapshot cells") +
                               ", docs/kernel-subset.md): use a smaller n",
                           "budget", at.line, at.col);
    return b;
  }

  // The buffer of the whole run that `key` names, added the first time.
  std::uint8_t buffer_of(const std::string& key, const BufferInfo& info) {
    auto it = keys_.find(key);
    if (it == keys_.end()) {
      if (run_.trace.buffers.size() >= kNoBuffer) throw EmulationError("the run's launches use more than 254 buffers", "limit", 0);
      it = keys_.emplace(key, static_cast<std::uint8_t>(run_.trace.buffers.size())).first;
      run_.trace.buffers.push_back(info);
    }
    BufferInfo& b = run_.trace.buffers[it->second];
    b.length = std::max(b.length, info.length);
    return it->second;
  }

  // One block's trace appended to the run's: its buffers mapped to the run's (the globals by index,
  // a kernel's shared arrays and __device__ variables by the kernel and the name), its blocks after
  // the earlier launches'.
  void merge(Trace& part, const std::string& kernel, int globals) {
    std::vector<std::uint8_t> to(part.buffers.size());
    for (std::size_t i = 0; i < part.buffers.size(); ++i) {
      const bool global = static_cast<int>(i) < globals;
      to[i] = buffer_of(global ? "global " + std::to_string(i) : kernel + " " + part.buffers[i].name, part.buffers[i]);
    }
    const std::uint64_t offset = run_.trace.events.size();
    const auto remap = [&](Origin& o) {
      if (o.kind == Origin::Cell && o.buffer < to.size()) o.buffer = to[o.buffer];
      if (o.kind == Origin::OpResult) o.index += static_cast<std::int64_t>(offset);
    };
    for (Event& e : part.events) {
      e.seq += offset;
      e.block = block_base_;
      if (e.buffer < to.size()) e.buffer = to[e.buffer];
      remap(e.a);
      remap(e.b);
      run_.trace.events.push_back(e);
    }
    for (Step s : part.steps) {
      s.first_event += offset;
      s.end_event += offset;
      run_.trace.steps.push_back(s);
    }
    for (auto& snapshot : part.snapshots) {
      std::vector<BufferSnapshot> whole(run_.trace.buffers.size());
      for (std::size_t i = 0; i < snapshot.size() && i < to.size(); ++i) whole[to[i]] = std::move(snapshot[i]);
      run_.trace.snapshots.push_back(std::move(whole));
    }
  }

  // Every step's snapshot holds every buffer of the run, at its full length (cells a launch did not
  // have: never written).
  void finish() {
    TraceMeta& m = run_.trace.meta;
    m.grid = 1;  // judged as one scan of the whole input (judge_launch); then the blocks of every launch
    if (run_.trace.buffers.empty()) {  // no launch: the host's own input and output
      run_.trace.buffers = {{"input", Space::Global, c_.n}, {"output", Space::Global, c_.n}};
    }
    for (auto& snapshot : run_.trace.snapshots) {
      snapshot.resize(run_.trace.buffers.size());
      for (std::size_t b = 0; b < snapshot.size(); ++b) {
        const auto length = static_cast<std::size_t>(run_.trace.buffers[b].length);
        if (snapshot[b].values.size() < length) {
          snapshot[b].values.resize(length);
          snapshot[b].defined.resize(length, 0);
        }
      }
    }
  }

  const KernelRunConfig& c_;
  Launch* first_;
  Bound host_;
  KernelRun run_;
  std::map<std::string, Bound> bounds_;
  std::map<std::string, Kernel> hosts_;  // host functions called by recursion, parsed as entries
  int depth_ = 0;
  std::map<std::string, std::uint8_t> keys_;
  const Trace* host_trace_ = nullptr;  // the host thread's: its buffers are the run's global memory
  std::int64_t statements_ = 0;
  std::uint32_t block_base_ = 0;
  int launches_ = 0;
  std::string launch_blocks_;  // meta.options["launch_blocks"]: the first block of each launch
};

}  // namespace

KernelRun record_host_run(const KernelRunConfig& config, Launch* first) { return HostRunner(config, first).run(); }

}  // namespace sv::cuda
