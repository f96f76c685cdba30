// The report card of a kernel of the user's own: runs it over sizes, inputs, schedules and lockstep
// widths (cuda_subset/check.hpp) and gathers verdicts, hazards, faults, work and steps.
#include "cuda_subset/check.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <set>

#include "algorithms.hpp"
#include "analysis/analysis.hpp"
#include "core/values.hpp"
#include "cuda_subset/float_judge.hpp"
#include "analysis/block_races.hpp"
#include "cuda_subset/host_run.hpp"
#include "cuda_subset/parser.hpp"
#include "cuda_subset/record_kernel.hpp"
#include "emulator/time_slice.hpp"

namespace sv::cuda {

namespace {

const std::vector<std::string> kSchedules = {"in-order", "reverse", "round-robin", "random:1", "random:2"};
const std::vector<std::int32_t> kWarps = {32, 4, 1};
// A block of more than 64 threads runs every case in proportion to its threads: two schedules (the
// threads in order, and a random interleaving) and lockstep 32 and 1 (a GPU's warps, and every thread
// on its own, where a missing barrier shows) keep a 1024-thread check within seconds; the card says so.
constexpr std::int32_t kLargeBlock = 64;
const std::vector<std::string> kLargeSchedules = {"in-order", "random:1"};
const std::vector<std::int32_t> kLargeWarps = {32, 1};

struct Outcome {
  bool faulted = false;
  bool ok = true;
  std::int64_t first_wrong = -1;
  std::string detail;
  std::vector<Trace> traces;  // the launch's
  std::vector<UninitializedRead> uninitialized;  // reads of cells never written that reached nothing
  std::vector<std::string> printed;
};

// Random integers over the type's whole range.
std::vector<Payload> full_range_input(ValueType type, std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Payload> v(static_cast<std::size_t>(n));
  for (Payload& p : v) p = type == ValueType::I64 ? Payload::of(static_cast<std::int64_t>(rng())) : Payload::of(static_cast<std::int32_t>(rng()));
  return v;
}

std::vector<Payload> float_input(ValueType type, std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);  // random floats in [-1, 1): judged with a tolerance
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Payload> v(static_cast<std::size_t>(n));
  for (Payload& p : v) p = type == ValueType::F32 ? Payload::of(static_cast<float>(u(rng))) : Payload::of(u(rng));
  return v;
}

// The expected output: each block's segment scanned on its own (a block-level kernel scans its
// block's elements; the partial sums join the blocks in a second launch).
std::vector<Payload> expected_output(const KernelRunConfig& c, ValueType type, std::int64_t capacity) {
  std::vector<Payload> out;
  const OpKind op = c.symbolic ? OpKind::Interval : OpKind::Sum;
  for (std::int64_t lo = 0; lo < c.n; lo += capacity) {
    const std::int64_t hi = std::min(c.n, lo + capacity);
    const std::vector<Payload> part(c.input.begin() + lo, c.input.begin() + hi);
    const std::vector<Payload> scanned = reference_scan(op, type, part, c.exclusive);
    out.insert(out.end(), scanned.begin(), scanned.end());
  }
  return out;
}

// Runs the launch, its blocks one after another on one global memory (record_kernel_launch); faults
// propagate. Judged as the trace is: against the whole input's scan when the output is that (a kernel
// that carries the earlier blocks' sums), else against each block's section on its own. Float outputs
// are judged against the float64 scan (float_judge.hpp), `factor` times the bound of their additions.
Outcome run_launch(KernelRunConfig c, ValueType type, std::int64_t capacity, double factor) {
  Outcome o;
  if (c.launch) capacity = launch_at(c).capacity;  // the launch's own sections at this n
  c.grid = static_cast<std::int32_t>((c.n + capacity - 1) / capacity);
  KernelRun run = record_kernel_launch(c);
  pause_point();  // a check in the page gives the frame back between its parts (emulator/time_slice.hpp)
  o.uninitialized = run.uninitialized;
  o.printed = run.printed;
  const std::vector<Payload> output = run.trace.result.output;
  const std::vector<std::uint8_t> written = run.output_written;
  const bool whole = run.trace.meta.grid > 1 && judged_heads(run.trace.meta).empty();
  o.traces.push_back(std::move(run.trace));
  const std::int64_t section = whole && !c.symbolic ? c.n : capacity;
  const bool floats = !c.symbolic && (type == ValueType::F32 || type == ValueType::F64);
  const std::vector<Payload> expected = expected_output(c, type, section);
  const std::vector<FloatExpected> expected64 = floats ? float64_scan(type, c.input, section, c.exclusive) : std::vector<FloatExpected>{};
  for (std::size_t i = 0; i < output.size(); ++i) {
    const bool good = written[i] && (floats ? float_output_ok(type, expected64[i], output[i], factor) : values_match(type, expected[i], output[i], 1));
    if (good) continue;
    o.ok = false;
    o.first_wrong = static_cast<std::int64_t>(i);
    std::string want = format_value(type, expected[i]);
    if (floats && expected64[i].value != std::round(expected64[i].value)) {  // integer inputs add up exactly: no tolerance to say
      char text[96];
      std::snprintf(text, sizeof text, "%.9g (float64; off by at most %.3g after %lld additions)", expected64[i].value,
                    float_tolerance(type, expected64[i], factor), static_cast<long long>(expected64[i].additions));
      want = text;
    }
    o.detail = written[i] ? "output[" + std::to_string(i) + "] = " + format_value(type, output[i]) + ", expected " + want
                          : "output[" + std::to_string(i) + "] is never written";
    break;
  }
  return o;
}

std::string schedule_text(const KernelRunConfig& c) { return c.schedule.name(); }

class Checker {
 public:
  Checker(const std::string& file, const std::string& source, const CheckOptions& opt) : opt_(opt) {
    r_.file = file;
    base_.file = file;
    base_.source = source;
    base_.block = opt.block;
    base_.launch = opt.launch;
    base_.include = opt.include;
  }

  CheckReport run() {
    while (step()) {
    }
    return finish();
  }

  // One part of the check: the preparation (the parse, the launch's probes, inclusive or exclusive,
  // work and steps) and the cases' plan, then one case a call; false once nothing is left.
  bool step() {
    try {
      if (!prepared_) {
        prepared_ = true;
        prepare();
        plan();
      } else if (next_ < plan_.size()) {
        const PlannedCase& p = plan_[next_++];
        one_case(p.n, p.schedule, p.warp, p.input);
      }
    } catch (const KernelError& e) {
      r_.errors.push_back({e.kind, e.pos.line, e.pos.col, e.message, "error"});
      for (const KernelError& m : e.more) r_.errors.push_back({m.kind, m.pos.line, m.pos.col, m.message, "error"});
      next_ = plan_.size();
    } catch (const LaunchError& e) {
      r_.errors.push_back({"launch", 0, 0, e.what(), "error"});
      next_ = plan_.size();
    } catch (const std::invalid_argument& e) {
      r_.errors.push_back({"unsupported", 0, 0, e.what(), "error"});
      next_ = plan_.size();
    }
    return next_ < plan_.size();
  }

  std::size_t cases_run() const { return next_; }
  std::size_t cases_planned() const { return plan_.size(); }
  const CheckReport& partial() const { return r_; }

  CheckReport finish() {
    // error: the file cannot be run as asked (its source refused, a launch that cannot be bound);
    // every bug found by running it (a wrong output, a race, a fault) makes it wrong.
    const bool wrong = std::any_of(r_.cases.begin(), r_.cases.end(), [](const CheckCase& c) { return c.outcome != "correct"; });
    const bool refused = std::any_of(r_.errors.begin(), r_.errors.end(), [](const CheckError& e) {
      return e.kind == "syntax" || e.kind == "unsupported" || e.kind == "limit" || e.kind == "launch";
    });
    r_.verdict = refused ? "error" : (wrong || !r_.hazards.empty()) ? "wrong" : "correct";
    return std::move(r_);
  }

 private:
  void prepare() {
    // Each parse of a long file takes a good part of a frame in the page: pause_point() between them.
    if (!base_.launch) {  // a file of several kernels runs as its own host function launches them, where it has one
      const std::vector<std::string> hosts = host_launches(base_.source, base_.file, base_.include);
      pause_point();
      try {
        (void)parse_run_kernel(base_);
      } catch (const KernelError& e) {
        if (hosts.size() != 1 || std::string(e.what()).find(" kernels (") == std::string::npos) throw;
        base_.launch = parse_launch(hosts.front());
      }
      pause_point();
    }
    const Kernel whole = parse_run_kernel(base_);
    pause_point();
    r_.kernels = whole.kernels;
    warp_level_ = whole.uses_warp_intrinsics;
    if (base_.launch) {
      launch_capacity();
    } else {
      // Blocks of 8 threads, small enough to try every schedule; two warps for a kernel with warp intrinsics.
      if (!base_.block) base_.block = warp_level_ ? 64 : 8;
      r_.block = base_.block;
      const std::string macro = block_macro(base_.source, base_.file, base_.include);
      std::map<std::string, std::string> over;
      if (!macro.empty()) over[macro] = std::to_string(base_.block);
      const Kernel k = parse_run_kernel(base_, over);
      pause_point();
      capacity_ = elements_per_block(k, base_.block);
      r_.launch = inferred_launch(k, base_.block, capacity_);
    }
    r_.kernel = whole.name;
    type_ = kernel_run_type(base_);
    symbolic_ok_ = type_ == ValueType::F32 || type_ == ValueType::F64;
    if (symbolic_ok_) r_.float_judge = float_tolerance_text(type_, opt_.float_tolerance);
    r_.capacity = capacity_;
    // Inclusive or exclusive, told from the outputs at a full block (unless said).
    KernelRunConfig c = base_;
    c.n = capacity_;
    c.input = random_input(OpKind::Sum, type_, static_cast<std::size_t>(c.n), 7);
    r_.exclusive = opt_.exclusive;
    if (!opt_.exclusive) {
      try {
        c.exclusive = false;
        const bool inclusive = run_launch(c, type_, capacity_, opt_.float_tolerance).ok;
        c.exclusive = true;
        const bool exclusive = !inclusive && run_launch(c, type_, capacity_, opt_.float_tolerance).ok;
        r_.exclusive = exclusive;
        r_.exclusive_told = true;
      } catch (const EmulationError&) {
        r_.exclusive_told = true;  // the sweep reports the fault
      }
    }
    measure(c);
  }

  void measure(KernelRunConfig c) {
    c.exclusive = r_.exclusive;
    if (!std::has_single_bit(static_cast<std::uint64_t>(capacity_)) || capacity_ < 2) return;
    try {
      const Outcome o = run_launch(c, type_, capacity_, opt_.float_tolerance);
      const Metrics m = compute_metrics(o.traces.front());
      pause_point();
      r_.work = m.operations;
      r_.steps = operation_depth(o.traces.front());  // the dataflow's depth, whatever the barriers
      r_.work_n = capacity_;
      for (const AlgorithmInfo& a : block_algorithms()) {
        if (a.racy) continue;
        const auto form = closed_form(a.name, capacity_, r_.exclusive, a.warp_level ? std::min<std::int64_t>(32, capacity_) : 0);
        if (form && form->operations == *r_.work && form->steps == *r_.steps) {
          r_.matches = std::string(a.twin.family.empty() ? a.name : a.twin.family);  // twins share their forms
          break;
        }
      }
    } catch (const EmulationError&) {
    }
  }

  // With a launch: its block (at n = 1) and the elements a block scans, where the grid has many
  // blocks at n = 64 blocks' threads. A launch of one block whatever n (<<<1, 1024>>>) scans what its
  // block holds: its largest __shared__ array of the scan's type, else one element a thread, and the
  // cases stay within that.
  void launch_capacity() {
    if (base_.launch->host) return host_capacity();
    KernelRunConfig c = base_;
    c.n = 1;
    const std::int32_t threads = launch_at(c).threads;
    c.n = std::int64_t{64} * threads;
    const Launch many = launch_at(c);
    single_block_ = many.grid == 1;
    pause_point();
    capacity_ = single_block_ ? elements_per_block(parse_run_kernel(base_), threads) : many.capacity;
    pause_point();
    base_.block = threads;
    r_.block = threads;
    r_.launch = launch_text(*base_.launch);
    r_.launch_said = true;
  }

  // A host function launches what it launches: its first launch at n = 1024 (else 1) says the block
  // and the elements a block scans (the sizes run around them, over several blocks), also where the
  // run then faults (the sweep reports it).
  void host_capacity() {
    Launch first;
    for (const std::int64_t n : {1024, 1}) {
      KernelRunConfig c = base_;
      c.n = n;
      c.input = random_input(OpKind::Sum, kernel_run_type(c), static_cast<std::size_t>(n), 7);
      try {
        (void)record_host_run(c, &first);
      } catch (const EmulationError&) {
      }
      if (first.threads > 1 || first.capacity > 1) break;
    }
    const std::int32_t threads = first.threads;
    capacity_ = std::max<std::int64_t>(1, first.capacity);
    single_block_ = false;
    base_.block = threads;
    r_.block = threads;
    r_.launch = launch_text(*base_.launch);
    r_.launch_said = true;
  }

  // The launch inferred for a kernel without one, as a --launch line to start from: the file's
  // kernel, a block of `threads`, as many blocks as n needs, its parameters bound as bind_params does.
  static std::string inferred_launch(const Kernel& k, std::int32_t threads, std::int64_t capacity) {
    std::string args;
    try {
      const ParamBinding p = bind_params(k, 1);
      static const char* buffers[] = {"in", "out", "sums"};
      for (std::size_t i = 0; i < k.params.size(); ++i)
        args += std::string(i ? ", " : "") + (p.buffer[i] >= 0 && p.buffer[i] < 3 ? buffers[p.buffer[i]] : "n");
    } catch (const KernelError&) {
      args = "...";
    }
    std::string shared;
    for (const SharedVar& v : k.shared)
      if (v.dynamic) shared = ", " + std::to_string(2 * threads) + " * sizeof(" + type_name(v.elem) + ")";
    const std::string grid = capacity == 1 ? "n" : "(n + " + std::to_string(capacity - 1) + ") / " + std::to_string(capacity);
    return k.name + "<<<" + grid + ", " + std::to_string(threads) + shared + ">>>(" + args + ")";
  }

  // The sizes the cases run: the ones asked for, else those around the block's elements, less those
  // the launch cannot run (a block of n threads past 1024).
  std::vector<std::int64_t> sizes() const {
    std::vector<std::int64_t> out;
    for (const std::int64_t n : opt_.sizes.empty() ? check_sizes(capacity_) : opt_.sizes) {
      KernelRunConfig c = base_;
      c.n = n;
      if (base_.launch) try {
          (void)launch_at(c);
        } catch (const LaunchError&) {
          if (!opt_.sizes.empty()) throw;
          continue;
        }
      if (single_block_ && n > capacity_ && opt_.sizes.empty()) continue;
      out.push_back(n);
    }
    return out;
  }

  const std::vector<std::string>& schedules() const { return base_.block > kLargeBlock ? kLargeSchedules : kSchedules; }
  const std::vector<std::int32_t>& warps() const { return base_.block > kLargeBlock ? kLargeWarps : kWarps; }

  // The cases, in the order they run: each size under every schedule and lockstep width, then the
  // float inputs.
  void plan() {
    for (const std::string& s : schedules()) r_.schedules.push_back(s);
    for (const std::int32_t w : warps()) r_.warps.push_back(w);
    for (std::int64_t n : sizes()) {
      for (const std::string& schedule : schedules())
        for (std::int32_t warp : warps())
          if (warp == 32 || !warp_level_) plan_.push_back({n, schedule, warp, kIntegers});  // shuffles need the warp of 32
      // Floats where the scan is of floats or doubles; else integers over their whole range, where
      // the sums wrap (and a float temporary loses digits), as the reference's do.
      const bool integer = type_ == ValueType::I32 || type_ == ValueType::I64;
      for (std::int32_t warp : {32, 1})
        if (warp == 32 || !warp_level_) plan_.push_back({n, "in-order", warp, integer ? kFullRange : kFloats});
    }
  }

  static constexpr const char* kIntegers = "integers";
  static constexpr const char* kFloats = "floats";
  static constexpr const char* kFullRange = "full-range integers";

  void one_case(std::int64_t n, const std::string& schedule, std::int32_t warp, const char* input = kIntegers) {
    const bool floats = input == kFloats;
    if (out_of_budget_) return;  // an endless loop is said once; the other cases would only repeat it
    KernelRunConfig c = base_;
    c.n = n;
    c.warp = warp;
    c.exclusive = r_.exclusive;
    c.schedule = *Schedule::parse(schedule);
    c.input = input == kFullRange ? full_range_input(type_, n, static_cast<std::uint64_t>(n) + 17) : check_input(type_, n, floats);
    CheckCase cc{n, static_cast<std::int32_t>((n + capacity_ - 1) / capacity_), warp, schedule_text(c), input, "correct", ""};
    try {
      const Outcome o = run_launch(c, type_, capacity_, opt_.float_tolerance);
      for (const Trace& t : o.traces) collect_hazards(t, cc);
      if (r_.printed.empty() && !o.printed.empty()) {
        r_.printed.assign(o.printed.begin(), o.printed.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(o.printed.size(), 20)));
        r_.printed_case = "n = " + std::to_string(n) + ", " + input + ", schedule " + cc.schedule + ", warp " + std::to_string(warp);
      }
      for (const UninitializedRead& u : o.uninitialized)
        add_error("uninitialized-read", u.line, u.column,
                  "thread " + std::to_string(u.thread) + " reads " + u.cell + " before anything was written to it; the value reaches no output, "
                  "address or branch (n = " + std::to_string(n) + ")", "warning");
      if (!o.ok) {
        cc.outcome = "wrong";
        cc.detail = o.detail;
        if (input == kIntegers) diagnose(c, o.first_wrong);
      }
    } catch (const EmulationError& e) {
      cc.outcome = "error";
      cc.detail = e.what();
      add_error(e.kind.empty() ? "runtime" : e.kind, e.line, e.column, e.what());
      out_of_budget_ |= e.kind == "budget";
    }
    r_.cases.push_back(std::move(cc));
  }

  void add_error(const std::string& kind, std::uint32_t line, std::uint32_t column, std::string message, const std::string& severity = "error") {
    for (CheckError& e : r_.errors)
      if (e.kind == kind && e.line == line) {
        if (severity == "error") e.severity = "error";  // a fault elsewhere outranks the warning
        return;
      }
    // The report names the kind and the line: keep the message after "FILE:LINE:COL: error: ".
    const std::string prefix = r_.file + ":";
    if (const auto at = message.find(": error: "); message.rfind(prefix, 0) == 0 && at != std::string::npos)
      message = message.substr(at + 9);
    r_.errors.push_back({kind, line, column, std::move(message), severity});
  }

  void collect_hazards(const Trace& t, const CheckCase& cc) {
    std::vector<Hazard> found = find_hazards(t, true);
    pause_point();
    for (Hazard& h : find_block_races(t)) found.push_back(h);
    pause_point();
    for (const Hazard& h : found) {
      CheckHazard ch;
      ch.kind = std::string(hazard_kind_name(h.kind));
      ch.buffer = t.buffers[static_cast<std::size_t>(h.buffer)].name;
      ch.memory = t.buffers[static_cast<std::size_t>(h.buffer)].space == Space::Shared ? "shared" : "global";
      ch.index = h.index;
      const HazardAccess& w = h.first.write ? h.first : h.second;
      const HazardAccess& other = h.first.write ? h.second : h.first;
      ch.line_write = w.line;
      ch.line_read = other.write ? 0 : other.line;
      ch.line_second = h.second.line;
      ch.thread_first = h.first.thread;
      ch.thread_second = h.second.thread;
      if (h.between_blocks) {
        ch.block_first = h.first.block;
        ch.block_second = h.second.block;
      }
      ch.step = h.step;
      ch.n = cc.n;
      ch.schedule = cc.schedule;
      ch.warp = cc.warp;
      const bool seen = std::any_of(r_.hazards.begin(), r_.hazards.end(), [&](const CheckHazard& o) {
        return o.kind == ch.kind && o.buffer == ch.buffer && o.line_write == ch.line_write && o.line_read == ch.line_read &&
               o.line_second == ch.line_second && (o.block_first < 0) == (ch.block_first < 0);
      });
      if (!seen && r_.hazards.size() < 64) r_.hazards.push_back(ch);
    }
  }

  // Where the value written to output[i] was last computed: the line of the operation its origin
  // chain ends in (through the cells it was copied from), else the store's line.
  static std::uint32_t computed_at(const Trace& t, std::int64_t index) {
    std::uint64_t at = t.events.size();
    for (std::uint64_t s = 0; s < t.events.size(); ++s)
      if (t.events[s].kind == EventKind::Write && t.events[s].buffer == 1 && t.events[s].index == index) at = s;
    if (at == t.events.size()) return 0;
    for (int hops = 0; hops < 64 && t.events[at].a.kind == Origin::Cell; ++hops) {  // back through copies
      const Origin o = t.events[at].a;
      std::uint64_t w = at;
      while (w-- > 0)
        if (t.events[w].kind == EventKind::Write && t.events[w].buffer == o.buffer && t.events[w].index == o.index) break;
      if (w >= at) break;  // a cell nothing wrote: the input
      at = w;
    }
    const Origin o = t.events[at].a;
    if (o.kind == Origin::OpResult && o.index >= 0 && static_cast<std::uint64_t>(o.index) < t.events.size())
      return t.events[static_cast<std::uint64_t>(o.index)].line;
    return t.events[at].line;
  }

  // A wrong output, explained by the same run on symbolic values: the first operation that combined
  // ranges that do not meet, or the range the wrong cell holds and the line that computed it.
  void diagnose(KernelRunConfig c, std::int64_t wrong) {
    if (!symbolic_ok_ || r_.diagnoses.size() >= 8) return;
    c.symbolic = true;
    c.input = random_input(OpKind::Interval, ValueType::Interval, static_cast<std::size_t>(c.n), 1);
    CheckError d{"wrong-value", 0, 0, ""};
    const std::string where = "n = " + std::to_string(c.n) + ", " + c.schedule.name() + ", lockstep " + std::to_string(c.warp) + ": ";
    try {
      const Outcome o = run_launch(c, ValueType::Interval, capacity_, opt_.float_tolerance);
      const Trace& t = o.traces.front();
      for (const Event& e : t.events)
        if (e.kind == EventKind::Op && e.value.as<Interval>().is_invalid()) {
          d.line = e.line;
          d.message = where + "thread " + std::to_string(e.thread) + " combines " + format_value(ValueType::Interval, e.value) +
                      ": ranges that do not meet (a value read before it was ready, or twice)";
          break;
        }
      if (d.message.empty()) {
        const std::vector<Payload> expected = expected_output(c, ValueType::Interval, capacity_);
        const auto w = static_cast<std::size_t>(wrong);
        d.line = computed_at(t, wrong);
        d.message = where + (d.line ? "output[" + std::to_string(wrong) + "] gets " + format_value(ValueType::Interval, t.result.output[w]) +
                                          " where " + format_value(ValueType::Interval, expected[w]) + " belongs"
                                    : "output[" + std::to_string(wrong) + "] is never written");
      }
    } catch (const EmulationError& e) {
      d.line = e.line;
      d.column = e.column;
      d.message = where + e.what();
    }
    for (const CheckError& seen : r_.diagnoses)
      if (seen.line == d.line) return;
    r_.diagnoses.push_back(std::move(d));
  }

  struct PlannedCase {
    std::int64_t n;
    std::string schedule;
    std::int32_t warp;
    const char* input;  // kIntegers, kFloats or kFullRange
  };

  CheckOptions opt_;
  CheckReport r_;
  std::vector<PlannedCase> plan_;
  std::size_t next_ = 0;  // the next case of plan_ to run
  bool prepared_ = false;
  KernelRunConfig base_;
  ValueType type_ = ValueType::F32;
  bool symbolic_ok_ = false;
  bool out_of_budget_ = false;
  bool warp_level_ = false;
  bool single_block_ = false;  // a launch of one block whatever n
  std::int64_t capacity_ = 1;
};

}  // namespace

std::vector<Payload> check_input(ValueType type, std::int64_t n, bool floats) {
  return floats ? float_input(type, n, static_cast<std::uint64_t>(n) + 11)
                : random_input(OpKind::Sum, type, static_cast<std::size_t>(n), static_cast<std::uint64_t>(n) + 3);
}

std::vector<std::int64_t> check_sizes(std::int64_t capacity) {
  std::set<std::int64_t> s = {1, 2, 3, capacity / 2 + 1, capacity - 1, capacity, capacity + 1, 2 * capacity + 3};
  std::vector<std::int64_t> out;
  for (std::int64_t n : s)
    if (n >= 1) out.push_back(n);
  return out;
}

std::string hazard_accesses(const CheckHazard& h) {
  const bool war = h.kind == "WAR", raw = h.kind == "RAW", blocks = h.block_first >= 0;
  const auto who = [&](std::uint32_t thread, std::int64_t block) {
    return "thread " + std::to_string(thread) + (blocks ? " of block " + std::to_string(block) : std::string());
  };
  return who(h.thread_first, h.block_first) + (war ? " read it" : " wrote it") + " (line " + std::to_string(war ? h.line_read : h.line_write) +
         "), " + who(h.thread_second, h.block_second) + (raw ? " read it" : " wrote it") + " (line " +
         std::to_string(raw ? h.line_read : h.line_second) + "), " +
         (blocks ? "no __threadfence() and flag between (blocks run at once, in any order)" : "no __syncthreads() between");
}

CheckReport check_kernel(const std::string& file, const std::string& source, const CheckOptions& options) {
  return Checker(file, source, options).run();
}

struct CheckRun::State {
  Checker checker;
};

CheckRun::CheckRun(const std::string& file, const std::string& source, const CheckOptions& options)
    : state_(std::make_unique<State>(State{Checker(file, source, options)})) {}
CheckRun::~CheckRun() = default;
CheckRun::CheckRun(CheckRun&&) noexcept = default;
CheckRun& CheckRun::operator=(CheckRun&&) noexcept = default;
bool CheckRun::step() { return state_->checker.step(); }
std::size_t CheckRun::cases_run() const { return state_->checker.cases_run(); }
std::size_t CheckRun::cases_planned() const { return state_->checker.cases_planned(); }
const CheckReport& CheckRun::partial() const { return state_->checker.partial(); }
CheckReport CheckRun::finish() { return state_->checker.finish(); }

}  // namespace sv::cuda
