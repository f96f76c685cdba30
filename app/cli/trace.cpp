// `scanviz trace` (trace.hpp): a built-in algorithm on the GPU or the emulator, or a kernel of the
// user's own on the emulator, recorded and written as a trace.
#include "cli/trace.hpp"

#include <iostream>
#include <memory>
#include <string>

#include "cli/kernel_command.hpp"
#include "cli/output_options.hpp"
#include "core/files.hpp"
#include "core/values.hpp"
#include "cuda_subset/record_kernel.hpp"
#include "emulator/schedule.hpp"
#include "entry/record.hpp"
#include "entry/own_run.hpp"
#include "kernel_run.hpp"
#include "run/prepare.hpp"
#include "trace/trace_json.hpp"

namespace sv::cli {

namespace {

struct TraceState {
  TraceOptions options;
  std::string kernel_file;  // not a request field: the page's links and a trace's meta have no file to read
  std::int32_t kernel_grid = 0;  // with --kernel only: the launch's blocks (gridDim.x)
};

int record_built_in(const TraceOptions& o, const RunRequest& request) {
  RecordOptions options;
  options.trace_capacity = o.trace_capacity;
  const Recording run = record(request, options);
  const Trace& trace = run.trace;
  const bool device = is_device_algorithm(trace.meta.algorithm);
  save_trace(o.out, trace);
  std::ostream& say = messages_for(o.out);
  say << "wrote " << output_name(o.out) << ": " << trace.meta.algorithm << ", n = " << trace.meta.n << ", "
      << op_name(trace.meta.op) << ", ";
  if (run.gpu)
    say << "GPU " << trace.meta.executor.device << " (sm_" << trace.meta.executor.compute_capability << ")";
  else
    say << "CPU emulator ("
        << (device ? "launch order " + trace.meta.executor.schedule
                   : "schedule " + Schedule::parse(request.schedule.empty() ? "in-order" : request.schedule, request.seed)->name())
        << (run.why.empty() ? "" : "; " + request_error_text(RequestError("", run.why), "--")) << ")";
  if (device)
    say << ", " << trace.meta.grid << " tiles of " << trace.meta.capacity << ", " << trace.tile_events.size()
        << " tile events, " << trace.steps.size() << " launches, outcome " << outcome_name(trace.result.outcome);
  else
    say << ", " << trace.events.size() << " events, " << trace.steps.size() << " steps, outcome "
        << outcome_name(trace.result.outcome);
  if (trace.result.outcome == Outcome::Deadlock) {
    say << " (waiting tiles:";
    for (std::int64_t t : trace.result.waiting) say << " " << t;
    say << ")";
  }
  say << "\n";
  return 0;
}

// The kernel in `file` recorded on the emulator, run as `request` says, the trace written to `out`;
// `grid`: the launch's blocks (0: as many as n needs), run one after another (docs/cli.md).
int record_own_kernel(const std::string& file, const RunRequest& request, const std::string& out, std::int32_t grid) {
  return kernel_command(file, [&] {
    if (const auto no = kernel_refusal(request)) throw std::invalid_argument(kernel_refusal_line(*no));
    if (grid < 0) throw std::invalid_argument("--grid " + std::to_string(grid) + " is not a number of blocks");
    if (grid != 0 && !request.launch.empty()) throw std::invalid_argument("--grid and --launch: the launch says the grid");
    RecordOptions options;
    options.own = OwnSource{file, read_kernel_source(file), kernel_include_reader(file), grid};
    const Trace trace = record(request, options).trace;
    const std::string schedule = Schedule::parse(request.schedule.empty() ? "in-order" : request.schedule, request.seed)->name();
    save_trace(out, trace);
    std::ostream& say = stream_named(out) == 1 ? std::cerr : std::cout;
    const bool sections = judged_heads(trace.meta) != trace.meta.flags;
    say << "wrote " << output_name(out) << ": " << trace.meta.algorithm << " from " << file << ", n = " << trace.meta.n
        << ", block " << trace.meta.block;
    if (trace.meta.grid > 1) say << ", " << trace.meta.grid << " blocks one after another";
    say << ", CPU emulator (schedule " << schedule << "), " << trace.events.size() << " events, " << trace.steps.size()
        << " steps, outcome " << outcome_name(trace.result.outcome) << (sections ? " (each block's section scanned on its own)" : "") << "\n";
    return 0;
  });
}

}  // namespace

Command add_trace(CLI::App& app) {
  auto s = std::make_shared<TraceState>();
  auto* trace = app.add_subcommand("trace", "run a scan (GPU when usable, else the CPU emulator) and record its trace");
  add_run_flags(*trace, s->options.flags, {
      {"algo", "algorithm (scanviz algos lists them)"},
      {"n", "number of elements (default 8, or the length of --input)"},
      {"op", op_names_text()},
      {"type", "int32, int64, float or double (interval for --op interval; and, or, bit*: int32 or int64)"},
      {"exclusive", "exclusive scan (default inclusive)"},
      {"input", "comma-separated values (\"3,6,7,4\", \"x0,x1\"), slides (the slides' values), @FILE, or with "
                "--type float or double: scaled, uniform, mixed or cancel (the float lesson's inputs)"},
      {"block", "threads per block (default: the smallest that holds n; for device-wide algorithms the tile's 256)"},
      {"warp", "warp width of the warp-level algorithms (warp-*): a power of two from 2 to 32, at most the block "
               "(default 32, or the block when smaller; Merrill and Garland's Fig. 2 uses 4); for the other "
               "block algorithms the threads the emulator runs in lockstep, 1 to 32 (1: each thread on its own, "
               "as the slides draw it; default 32, a GPU's warp)"},
      {"executor", "auto (the GPU when usable), gpu or emulator"},
      {"schedule", "emulator warp schedule: in-order, reverse, round-robin, random[:SEED]"},
      {"seed", "seed of the random input and of a random schedule without its own (1 or more)"},
      {"amplify", "GPU: race amplifier seed (warps sleep seeded delays each step)"},
      {"option", "device-wide algorithms: a switch key=value, repeatable (scanviz algos lists them)"},
      {"flags", "segmented scan: segment heads, one 0 or 1 per element (\"1,0,0,1,0\"), or random:P (each a head "
                "with probability P, seeded by --seed)"},
      {"app", "an application of the scan: compact (keep the elements passing --predicate) or allocate (offsets "
              "of the requests in --input); the scan is then the exclusive sum"},
      {"predicate", "with --app compact: e.g. \"x > 0\", \"x % 2 == 0\", \"x > 0 && x < 5\""},
      {"launch", "with --kernel: the launch as CUDA says it, 'NAME<<<GRID, BLOCK, SHARED_BYTES>>>(ARGS)', GRID, BLOCK and "
                 "SHARED_BYTES expressions in n, ARGS in, out, io, sums, zeros(K), buf(K), n or numbers (docs/cli.md)"},
  });
  trace->add_option("--kernel", s->kernel_file, "a scan kernel of your own (.cu, docs/kernel-subset.md) instead of --algo; "
                                                   "it runs on the emulator");
  trace->add_option("--grid", s->kernel_grid, "with --kernel: blocks of the launch, run one after another on shared global "
                                                 "memory (default: as many as n needs)");
  trace->add_option("--trace-capacity", s->options.trace_capacity, "GPU: events the device trace buffer holds");
  trace->add_option("--out", s->options.out, "trace file to write (JSON); - for standard output")->required();

  return {trace, [s, trace] {
    if (s->kernel_file.empty() && !trace->count("--algo")) throw UsageError("trace: --algo or --kernel is required");
    if (s->kernel_file.empty() && trace->count("--grid")) throw UsageError("trace: --grid is for --kernel (a built-in algorithm's tiles follow n and --block)");
    if (s->kernel_file.empty() && trace->count("--launch")) throw UsageError("trace: --launch is for --kernel (a built-in algorithm's launch follows n and --block)");
    const RunRequest request = request_of(*trace, s->options.flags);
    if (!s->kernel_file.empty()) return record_own_kernel(s->kernel_file, request, s->options.out, s->kernel_grid);
    return record_built_in(s->options, request);
  }};
}

}  // namespace sv::cli
