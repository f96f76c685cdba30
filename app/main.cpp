// scanviz: the command line (docs/cli.md). With no subcommand it opens the window; errors are one
// line on stderr and exit code 2 (1 when a kernel fails inside the emulator or a bench row is wrong).
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>

#include "algorithms.hpp"
#include "core/files.hpp"
#include "core/float_inputs.hpp"
#include "core/values.hpp"
#include "device/device_options.hpp"
#include "emulator/block_emulator.hpp"
#include "emulator/record.hpp"
#include "entry/record.hpp"
#include "run/prepare.hpp"
#include "run/request.hpp"
#include "gpu/bench.hpp"
#include "gpu/executor.hpp"
#include "analysis/application.hpp"
#include "float_error_runs.hpp"
#include "work_steps_runs.hpp"
#include "core/segments.hpp"
#include "chart.hpp"
#include "cmd_export.hpp"
#include "cmd_kernel.hpp"
#include "cmd_lesson.hpp"
#include "cmd_repeat.hpp"
#include "run_flags.hpp"
#include "standard_output.hpp"
#include "text_view.hpp"
#ifdef SCANVIZ_HAVE_GUI
#include "gui/app.hpp"
#include "gui/draw/render.hpp"
#include "gui/platform/desktop.hpp"
#include "gui/kernel_refusal.hpp"
#endif
#include "trace/trace_json.hpp"

namespace {

using namespace sv;

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// trace and race: the run request's flags, and what only the command line adds.
struct TraceOptions {
  cli::RunFlags flags;
  std::string out;
  std::uint64_t trace_capacity = GpuOptions{}.trace_capacity;
  int runs = 1000;
};

// "a,b,c" -> {"a", "b", "c"} (an empty string: none).
std::vector<std::string> comma_list(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

int cmd_algos() {
  std::cout << "Block-level algorithms (one thread block; n up to the block's capacity):\n\n";
  for (const AlgorithmInfo& a : block_algorithms()) {
    std::cout << "  " << a.name << "\n      " << a.summary << "\n      elements per thread: " << a.items_per_thread
              << ", n up to " << kMaxBlockThreads * a.items_per_thread << "; ";
    if (a.power_of_two)
      std::cout << "capacity padded to a power of two with the identity (block = capacity"
                << (a.items_per_thread == 1 ? "" : " / " + std::to_string(a.items_per_thread)) << " threads)";
    else
      std::cout << "any n (block = n threads unless --block is larger; extra threads hold the identity)";
    std::cout << "\n      steps " << a.steps << ", operations " << a.work << " (n = 2^k";
    if (a.warp_level) {
      const ClosedForm fig = *closed_form(a.name, 16, false, 4);
      std::cout << ", W = --warp: a power of two from 2 to 32, at most the block; default 32, or the block when "
                   "smaller)\n      Fig. 2 (n = 16, --warp 4): "
                << fig.steps << " levels, " << fig.operations << " operators";
    } else {
      std::cout << ")";
    }
    if (a.racy) std::cout << "\n      RACY by design: shows hazards under every schedule, wrong results under some";
    std::cout << "\n";
  }
  std::cout << "\nCounting (stats' steps and operations, for every algorithm): an operator is one application of\n"
               "the scan operator, a node of the seeds' figures (Merrill and Garland count 37, 29 and 36 in Fig. 2);\n"
               "loads, stores, copies and warp shuffles are not operators. A step (level) is a round that applies\n"
               "the operator at least once: each shuffle offset of a warp scan, each serial item of a raking lane,\n"
               "each fan or span. Warp-level steps have no barrier of the kernel's own; the recorders align the\n"
               "threads there so each step holds its level.\n";
  std::cout << "\nDevice-wide algorithms (any n; tiles of --block threads x items per thread):\n\n";
  for (const DeviceAlgorithmInfo& a : device_algorithms()) {
    std::cout << "  " << a.name << "\n      " << a.summary << "\n      switches:";
    for (const SwitchInfo& s : device_switches())
      if (s.algorithms == "all" ? !s.emulator_only : s.algorithms.find(a.name) != std::string_view::npos)
        std::cout << " " << s.key;
    std::cout << "\n";
  }
  std::cout << "\nSwitches (--option key=value, repeatable; default in brackets):\n";
  for (const SwitchInfo& s : device_switches())
    std::cout << "  " << s.key << " [" << s.fallback << "]" << (s.emulator_only ? " (emulator's machine, all algorithms)" : "")
              << "\n      " << s.help << (s.emulator_only ? "" : "\n      for: " + std::string(s.algorithms)) << "\n";
  std::cout << "\nOperators (--op, --type; the first type is the default):\n"
               "  sum, product, min, max    int32, int64, float, double\n"
               "  and, or                   int32, int64: logical, on truth values 0 and 1 (identity 1 and 0)\n"
               "  bitand, bitor, bitxor     int32, int64: bitwise (identity all ones, 0, 0)\n"
               "  interval                  interval: symbolic ranges x0..x3; joins only adjacent ranges\n"
               "Schedules: in-order, reverse, round-robin, random:SEED.\n"
               "\nSegmented scan (--flags 1,0,0,1,... or random:P; every operator, inclusive):\n"
               "  every block algorithm above, and decoupled-lookback device-wide, scan (flag, value) pairs with\n"
               "  the segmented operator (f1,v1) (+)s (f2,v2) = (f1|f2, f2 ? v2 : v1 (+) v2), associative for every\n"
               "  associative (+): the same kernels; a set flag starts a segment, where the scan restarts.\n"
               "  The GPU runs it for int32 and interval values; the emulator for every type.\n"
               "\nApplications (--app; the scan is the exclusive sum, by any algorithm above):\n"
               "  compact   stream compaction: --predicate \"x > 0\" (x % K, < <= > >= == !=, &&, ||, !);\n"
               "            the exclusive sum of the predicate is each kept element's output slot\n"
               "  allocate  allocation: the exclusive sum of the requests is each one's offset\n"
               "            ([8,6,7,5,3,0,9] -> [0,8,14,21,26,29,29])\n";
  return 0;
}

// Where a command's own messages go: stderr when its output is standard output, which stays clean.
std::ostream& messages_for(const std::string& out) {
  if (stream_named(out) == 1) return std::cerr;
  mark_status_only();
  return std::cout;
}

// An output's format: --format when given, else the extension of --out. "-" and names without one
// of `formats` as extension (/dev/null, a FIFO) need --format; an extension that disagrees is refused.
std::string output_format(const std::string& out, const std::string& format, const std::vector<std::string>& formats) {
  std::string listed;
  for (const std::string& f : formats) listed += (listed.empty() ? "" : ", ") + f;
  const auto known = [&](const std::string& f) { return std::find(formats.begin(), formats.end(), f) != formats.end(); };
  std::string ext = std::filesystem::path(out).extension().string();
  if (!ext.empty()) ext.erase(0, 1);
  if (!format.empty()) {
    if (!known(format)) throw UsageError("--format: unknown format '" + format + "' (" + listed + ")");
    if (known(ext) && ext != format) throw UsageError("--format " + format + " does not match --out " + out);
    return format;
  }
  if (!known(ext)) throw UsageError("--out " + out + ": the name does not say the format; add --format (" + listed + ")");
  return ext;
}

// PNG and GIF bytes go to a file or a pipe; on a terminal they would only be garbage.
void refuse_binary_on_terminal(const std::string& option, const std::string& out, const std::string& format) {
  const std::optional<int> fd = stream_named(out);
  if ((format == "png" || format == "gif") && fd && ::isatty(*fd))
    throw UsageError(option + " " + out + " is a terminal: a " + format + " image goes to a file or a pipe (" + option + " FILE." +
                     format + ", or " + option + " - | ...)");
}

int cmd_trace(const TraceOptions& o, const RunRequest& request) {
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

// Counts wrong outputs over repeated untraced GPU runs, without and with the race amplifier.
int cmd_race(const TraceOptions& o, const RunRequest& request) {
  const BlockRunConfig config = run_config(request);
  if (o.runs < 1) throw UsageError("--runs must be at least 1");
  const GpuStatus gpu = probe_gpu();
  if (!gpu.usable) throw UsageError("race needs a CUDA device (" + gpu.error + ")");
  std::cout << config.algorithm << ", n = " << config.n << ", " << op_name(config.op) << " (" << type_name(config.type)
            << "), untraced on " << gpu.name << ", " << o.runs << " runs each\n";
  for (std::uint64_t seed : {std::uint64_t{0}, request.amplify ? request.amplify : std::uint64_t{1}}) {
    const WrongCount c = count_wrong_outputs_gpu(config, o.runs, seed);
    std::cout << (seed ? "amplifier on (seed " + std::to_string(seed) + "+run)" : std::string("amplifier off")) << ": "
              << c.wrong << " of " << c.runs << " outputs wrong (" << 100.0 * c.wrong / c.runs
              << "%), median kernel time " << c.median_kernel_us << " us\n";
  }
  return 0;
}

int cmd_bench(const std::string& sizes, int runs, int rounds, const std::string& json_path, const std::string& algorithms,
              const std::string& type) {
  BenchOptions options;
  const auto parsed_type = parse_type_name(type);
  if (!parsed_type || *parsed_type == ValueType::Interval)
    throw UsageError("--type: '" + type + "' is not a type bench times (int32, int64, float or double)");
  options.type = *parsed_type;
  if (!sizes.empty()) options.sizes = cli::parse_sizes(sizes, 30);
  if (runs < 1) throw UsageError("--runs must be at least 1");
  options.runs = runs;
  if (rounds < 1 || rounds > 100) throw UsageError("--rounds must be from 1 to 100");
  options.rounds = rounds;
  options.algorithms = comma_list(algorithms);
  check_bench_options(options);  // before the device: a bad name is reported the same with or without one
  const GpuStatus gpu = probe_gpu();
  if (!gpu.usable) throw UsageError("bench needs a usable CUDA device (" + gpu.error + ")");
  const BenchResult r = run_bench(options, [](const std::string& line) { std::cerr << line << "\n"; });
  std::FILE* table = stream_named(json_path) == 1 ? stderr : stdout;  // --json -: the JSON alone on stdout
  std::fputs(bench_table_text(r).c_str(), table);
  if (!json_path.empty()) write_file_atomically(json_path, bench_to_json(r));
  for (const BenchRow& row : r.rows)
    if (!row.verified) return 1;
  return 0;
}

// A chart's data as CSV, or its charts as SVG or PNG.
void write_charts(const std::string& out, const std::string& format, const std::string& csv,
                  const std::function<std::vector<chart::Chart>()>& charts) {
  if (format == "csv") {
    write_file_atomically(out, csv);
  } else if (format == "svg") {
    write_file_atomically(out, chart::charts_svg(charts(), 1000, 380));
  } else {
#ifdef SCANVIZ_HAVE_GUI
    gui::render_charts_png(charts(), out, 1000, 380);
#else
    throw UsageError("--out FILE.png needs the GUI libraries, which this build lacks; use .svg or .csv");
#endif
  }
}

struct ChartOptions {
  std::string kind, out, format, algos;
  std::int64_t depth_n = 1024;
  bool log_steps = false;
  std::string type = "float", input = "uniform";  // chart floats
  std::uint64_t seed = 1;
};

// scanviz chart floats: the largest and mean ULP error against n, each race-free algorithm and the loop.
int cmd_float_chart(const ChartOptions& o, const std::string& format, const std::vector<std::string>& only) {
  const auto type = parse_type_name(o.type);
  if (!type || (*type != ValueType::F32 && *type != ValueType::F64))
    throw UsageError("--type: the float chart sums float or double, not '" + o.type + "'");
  if (!is_float_input_name(o.input))
    throw UsageError("--input: '" + o.input + "' is not a float input (" + std::string(float_input_names_text()) + ")");
  if (o.seed == 0) throw UsageError("--seed must be at least 1");
  const auto points = measure_float_errors(*type, o.input, o.seed, default_float_error_sizes(), only);
  const std::string what = o.type + " inclusive sum, input " + o.input + (o.input == "uniform" ? " seed " + std::to_string(o.seed) : "");
  write_charts(o.out, format, float_error_csv(points), [&] { return chart::float_error_charts(points, what); });
  messages_for(o.out) << "wrote " << output_name(o.out) << ": " << points.size() << " measured points\n";
  return 0;
}

int cmd_chart(const ChartOptions& o) {
  if (o.kind != "work-steps" && o.kind != "floats") throw UsageError("chart: unknown chart '" + o.kind + "' (work-steps, floats)");
  const std::string format = output_format(o.out, o.format, {"csv", "svg", "png"});
  refuse_binary_on_terminal("--out", o.out, format);
  const std::vector<std::string> only = comma_list(o.algos);
  for (const std::string& name : only)  // before the measurement: the algorithms it records
    if (const AlgorithmInfo* info = find_algorithm(name); !info || info->racy)
      throw UsageError("--algos: '" + name + "' is not a race-free block algorithm (scanviz algos lists them)");
  if (o.kind == "floats") return cmd_float_chart(o, format, only);
  if (o.depth_n < 2 || o.depth_n > 2048 || (o.depth_n & (o.depth_n - 1)) != 0)
    throw UsageError("--n must be a power of two from 2 to 2048 (the work-depth chart's n)");
  auto points = measure_work_steps();
  if (!only.empty())
    std::erase_if(points, [&](const WorkStepsPoint& p) { return std::find(only.begin(), only.end(), p.algorithm) == only.end(); });
  write_charts(o.out, format, work_steps_csv(points), [&] { return chart::work_steps_charts(points, o.depth_n, only, o.log_steps); });
  messages_for(o.out) << "wrote " << output_name(o.out) << ": " << points.size() << " measured points\n";
  return 0;
}

int cmd_demo() {
  const GpuStatus gpu = probe_gpu();
  std::cout << "scanviz demo: Kogge-Stone (double buffered) on the slides' input, step by step.\n"
               "Executor: the CPU emulator, which runs the same kernel source that nvcc builds for the GPU ("
            << (gpu.usable ? "GPU present: " + gpu.name + "; scanviz trace uses it" : "no usable GPU: " + gpu.error)
            << ").\n\n";
  for (OpKind op : {OpKind::Sum, OpKind::Interval}) {
    BlockRunConfig c;
    c.algorithm = "kogge-stone-double-buffer";
    c.n = 8;
    c.op = op;
    c.type = default_type_for(op);
    c.input = slides_input(op, c.type, 8);
    print_steps(std::cout, record_block_scan(c));
    std::cout << "\n";
  }
  std::cout << "Next: scanviz algos | scanviz trace --algo kogge-stone-racy --n 64 --op interval --out t.json\n"
               "      scanviz show t.json | scanviz stats t.json\n";
  return 0;
}

// The command line's work; main adds the check of standard output.
int run_command_line(int argc, char** argv) {
  CLI::App app{"scanviz: GPU parallel prefix sum (scan), made visible"};
  app.require_subcommand(0, 1);

  auto* algos = app.add_subcommand("algos", "list the algorithms and their switches");
  app.add_subcommand("demo", "print Kogge-Stone on the slides' input, step by step, in the terminal");

  TraceOptions to;
  auto* trace = app.add_subcommand("trace", "run a scan (GPU when usable, else the CPU emulator) and record its trace");
  cli::add_run_flags(*trace, to.flags, {
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
  std::string trace_kernel_file;  // not a request field: the page's links and a trace's meta have no file to read
  trace->add_option("--kernel", trace_kernel_file, "a scan kernel of your own (.cu, docs/kernel-subset.md) instead of --algo; "
                                                   "it runs on the emulator");
  std::int32_t trace_kernel_grid = 0;  // with --kernel only: the launch's blocks (gridDim.x)
  trace->add_option("--grid", trace_kernel_grid, "with --kernel: blocks of the launch, run one after another on shared global "
                                                 "memory (default: as many as n needs)");
  trace->add_option("--trace-capacity", to.trace_capacity, "GPU: events the device trace buffer holds");
  trace->add_option("--out", to.out, "trace file to write (JSON); - for standard output")->required();

  CheckOptions co;
  auto* check = add_check_command(app, co);
  const ExportCommand exporter = add_export_command(app);
  LessonOptions lo;
  auto* lesson = add_lesson_command(app, lo);

  TraceOptions ro;
  auto* race = app.add_subcommand("race", "GPU: count wrong outputs over repeated untraced runs, without and with the amplifier");
  cli::add_run_flags(*race, ro.flags, {
      {"algo", "algorithm (default kogge-stone-racy)"},
      {"n", "number of elements (default 1024)"},
      {"op", "operator (default sum)"},
      {"type", "value type"},
      {"amplify", "amplifier seed (default 1)"},
      {"seed", "seed of the random input"},
  });
  race->add_option("--runs", ro.runs, "runs in each mode (default 1000)");
  const RepeatCommand repeat = add_repeat_command(app);

  std::string bench_sizes, bench_json, bench_algorithms, bench_type = "int32";
  int bench_runs = 20, bench_rounds = 3;
  auto* bench = app.add_subcommand("bench", "GPU: time device-wide scans and block-level kernels against CUB and a copy");
  bench->add_option("--sizes", bench_sizes, "comma-separated sizes, e.g. 2^20,2^24 (default 2^10..2^28, even powers)");
  bench->add_option("--type", bench_type, "the sum's type: int32 (default), int64, float or double");
  bench->add_option("--runs", bench_runs, "timed single launches a round (default 20; the round's median is its latency)");
  bench->add_option("--rounds", bench_rounds, "rounds of both measures, for the spread min/median/max (default 3)");
  bench->add_option("--json", bench_json, "also write the table as JSON to FILE (-: standard output, the table then on stderr)");
  bench->add_option("--algorithms", bench_algorithms,
                    "comma-separated algorithms to time, e.g. decoupled-lookback,warp-raking: device-wide ones, and "
                    "block-level ones as 'block NAME' (each block scans its own tile of 1024; default all race-free "
                    "ones; CUB and the copy always run)");

  ChartOptions chart_o;
  auto* chart_cmd = app.add_subcommand("chart", "charts from traces: work-steps (steps and operations against n, work-depth), "
                                                "floats (the largest and mean error in ULPs against n)");
  chart_cmd->add_option("KIND", chart_o.kind, "work-steps or floats")->required();
  chart_cmd->add_option("--out", chart_o.out, "FILE.csv, FILE.svg or FILE.png; - for standard output (with --format)")->required();
  chart_cmd->add_option("--format", chart_o.format, "csv, svg or png (default: by the --out name)");
  chart_cmd->add_option("--n", chart_o.depth_n, "n of the work-depth chart (default 1024)");
  chart_cmd->add_option("--algos", chart_o.algos, "comma-separated algorithms to plot (default: every race-free one)");
  chart_cmd->add_option("--type", chart_o.type, "floats: float (default) or double");
  chart_cmd->add_option("--input", chart_o.input, "floats: uniform (default), scaled, mixed or cancel");
  chart_cmd->add_option("--seed", chart_o.seed, "floats: the seed of the uniform input (default 1)");
  chart_cmd->add_flag("--log", chart_o.log_steps, "the steps chart on a log2 axis (deep networks do not flatten the others)");

  std::string file;
  bool as_json = false;

#ifdef SCANVIZ_HAVE_GUI
  const std::vector<std::string> themes(gui::kThemes.begin(), gui::kThemes.end());
  gui::GuiOptions go;
  std::string size = "1600x900";
  auto* gui_cmd = app.add_subcommand("gui", "open the window (what scanviz with no arguments does)");
  gui_cmd->add_option("--trace", go.trace_path, "open this trace instead of recording the default lesson");
  cli::RunFlags gui_flags;  // the lesson: a run request over the default lesson (GuiOptions::lesson)
  cli::add_run_flags(*gui_cmd, gui_flags, {
      {"algo", "the lesson's algorithm"},
      {"n", "the lesson's n"},
      {"warp", "the lesson's warp width (warp-* algorithms; default 4, as Fig. 2), or for the other algorithms "
               "the threads the emulator runs in lockstep (default 1, each on its own, as the slides draw it)"},
      {"op", "the lesson's operator: " + op_names_text() + " (default interval)"},
      {"executor", "record the lesson on the emulator (default), the gpu, or auto (the GPU when usable)"},
      {"amplify", "with --executor gpu: the race amplifier's seed (0 = off)"},
      {"type", "the lesson's value type with a numeric operator: int32 (default), int64, float or double"},
      {"exclusive", "the lesson as an exclusive scan"},
      {"input", "the lesson's input: slides (the slides' values, the default up to n = 8), random:SEED (the default "
                "above, seed 1), values such as 3,6,7,4, @FILE, or with --type float or double scaled, uniform, mixed "
                "or cancel (the float lesson's inputs)"},
      {"scan", "plain (default), segmented[:DENSITY] (heads drawn with that chance, default 0.25), "
               "compact[:PREDICATE] (default x % 2 == 0) or allocate"},
      {"schedule", "the emulator's schedule for the lesson: in-order (default), reverse, round-robin or random[:SEED]"},
      {"block", "threads per block (default: as many as n needs; a kernel of your own: its BLOCK_DIM)"},
      {"launch", "with --kernel: the launch as CUDA says it, 'NAME<<<GRID, BLOCK, SHARED_BYTES>>>(ARGS)' (docs/cli.md)"},
  });
  std::string gui_measure;
  gui_cmd->add_option("--measure", gui_measure,
                      "GPU: measure the timing panel's algorithm, CUB and the copy at these sizes (2^10..2^28, e.g. "
                      "2^20,2^24) at start; with --frames, the frames count from when they are done");
  gui_cmd->add_option("--kernel", go.kernel_path,
                      "open the lesson on this scan kernel of your own (.cu, docs/kernel-subset.md) and follow the file as it "
                      "is saved (K opens it in the editor, with its report card)");
  gui_cmd->add_option("--step", go.step, "start at this step (default: the first, where a lecture starts)");
  gui_cmd->add_option("--theme", go.theme, "light, dark or high-contrast")
      ->check(CLI::IsMember(themes));
  gui_cmd->add_option("--font-scale", go.font_scale, "1 to 3");
  gui_cmd->add_flag("--side-by-side", go.side_by_side, "show the single-buffer kernel beside the lesson");
  gui_cmd->add_flag("--play", go.play, "start playing");
  gui_cmd->add_flag("--lecture", go.lecture, "start in lecture mode (fullscreen, large font, diagram only)");
  gui_cmd->add_flag("--charts", go.charts, "open the work-against-steps charts");
  gui_cmd->add_flag("--timing", go.timing, "open the GPU timing panel");
  gui_cmd->add_flag("--floats", go.floats, "open the float lesson: each output's error in ULPs and its addition tree (or U)");
  gui_cmd->add_option("--float-cell", go.float_cell, "with --floats: the output whose addition tree is shown (default: the last)");
  gui_cmd->add_flag("--divergence", go.divergence, "open the warp divergence window (active and idle lanes per step)");
  gui_cmd->add_option("--bench", go.bench_json, "show this scanviz bench --json table in the timing panel");
  gui_cmd->add_option("--lookback", go.lookback,
                      "open the look-back view with a preset: default, fig6 (the paper's snapshot), deadlock, stale, "
                      "torn (a 16-byte descriptor read in halves), stall, 10000-tiles or pipelined (how a scan reaches "
                      "the copy: the pipelined kernel's warp roles, a trace recorded on a GPU)");
  gui_cmd->add_option("--size", size, "window size WxH");
  gui_cmd->add_option("--frames", go.frames, "run this many frames and exit (0, the default: until the window is closed)");
  gui_cmd->add_option("--screenshot", go.screenshot, "with --frames: save the last frame as PNG (- for standard output)");
  gui_cmd->add_flag("--report-frames", go.report_frames, "print frame times and GL object counts");
  gui_cmd->add_flag("--report-source", go.report_source,
                    "print the kernel source pane's file and its lit lines (line, window rectangle, text) at the last frame");
  gui_cmd->add_flag("--report-kernel", go.report_kernel,
                    "print the Your kernel panel's state at the last frame: the editor, the error line, the report card's entries");
  gui_cmd->add_option("--report-layout", go.report_layout,
                      "with --frames: write the last frame's layout as JSON (each cell's rectangle and drawn text, "
                      "the row labels, the heat legend, the timeline and narration)");
  std::string mouse;
  gui_cmd->add_option("--mouse", mouse, "with --frames: hold the mouse pointer at X,Y (window pixels), e.g. to show a tooltip");
  gui_cmd->add_flag("--predict", go.predict, "start in predict-the-next-step mode (P toggles it)");
  gui_cmd->add_option("--keys", go.keys,
                      "scripted input fed as key presses from the third frame, two frames each: letters, digits, enter, "
                      "tab, shift+tab, escape, backspace, arrows, home, end, space, pageup, pagedown, text:CHARS, click:X,Y, drop:PATH (a file "
                      "dropped on the window), wait:N");

  gui::RenderOptions rop;
  std::string render_out;
  auto* render = app.add_subcommand("render", "draw a trace's step to PNG (offscreen OpenGL) or SVG, or every step to GIF");
  render->add_option("FILE", file, "trace file (- for standard input)")->required();
  render->add_option("--step", rop.step, "the step to draw (default: the last)");
  render->add_option("--out", render_out, "FILE.png or FILE.svg (one step), FILE.gif (every step); - for standard output (with --format)")
      ->required();
  render->add_option("--format", rop.format, "png, svg or gif (default: by the --out name)");
  render->add_option("--delay", rop.gif_delay_cs, "GIF: hundredths of a second per step (default 100)");
  render->add_option("--theme", rop.theme, "light (default), dark or high-contrast")
      ->check(CLI::IsMember(themes));
  render->add_option("--scale", rop.font_scale, "1 to 3: size of cells and text");
  render->add_flag("--lookback", rop.lookback, "a device-wide trace's look-back view (descriptors, arrows, SM lanes) instead of the diagram");
  render->add_option("--time", rop.time, "with --lookback: the moment to draw (default: the middle of the run)");
  render->add_option("--select", rop.select, "with --lookback: the tile whose inspections get arrows");
#endif
  auto* show = app.add_subcommand("show", "print a trace's steps like the slides");
  show->add_option("FILE", file, "trace file (- for standard input)")->required();
  auto* stats = app.add_subcommand("stats", "steps, operations, hazards and correctness of a trace");
  stats->add_option("FILE", file, "trace file (- for standard input)")->required();
  stats->add_flag("--json", as_json, "print one JSON object");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "scanviz: " << e.what() << " (scanviz --help for usage)\n";
    return 2;
  }

  try {
    if (*algos) return cmd_algos();
    if (*trace) {
      if (trace_kernel_file.empty() && !trace->count("--algo")) throw UsageError("trace: --algo or --kernel is required");
      if (trace_kernel_file.empty() && trace->count("--grid")) throw UsageError("trace: --grid is for --kernel (a built-in algorithm's tiles follow n and --block)");
      if (trace_kernel_file.empty() && trace->count("--launch")) throw UsageError("trace: --launch is for --kernel (a built-in algorithm's launch follows n and --block)");
      if (!trace_kernel_file.empty())
        return trace_kernel(trace_kernel_file, cli::request_of(*trace, to.flags), to.out, trace_kernel_grid);
      return cmd_trace(to, cli::request_of(*trace, to.flags));
    }
    if (*check) return check_kernel(co);
    if (*exporter.app) return exporter.run();
    if (*lesson) return run_lesson(*lesson, lo);
    if (*race) {
      RunRequest defaults;
      defaults.algorithm = "kogge-stone-racy";
      defaults.n = 1024;
      return cmd_race(ro, cli::request_of(*race, ro.flags, defaults));
    }
    if (*repeat.app) return repeat.run();
    if (*bench) return cmd_bench(bench_sizes, bench_runs, bench_rounds, bench_json, bench_algorithms, bench_type);
    if (*chart_cmd) return cmd_chart(chart_o);
    if (*show) {
      print_steps(std::cout, load_trace(file));
      return 0;
    }
    if (*stats) {
      const Trace t = load_trace(file);
      if (as_json) std::cout << stats_json(t).dump(2) << "\n";
      else print_stats(std::cout, t);
      return 0;
    }
#ifdef SCANVIZ_HAVE_GUI
    if (*render) {
      if (!(rop.font_scale >= 1 && rop.font_scale <= 3)) throw UsageError("--scale must be between 1 and 3");
      if (rop.gif_delay_cs < 1 || rop.gif_delay_cs > 6000) throw UsageError("--delay must be 1 to 6000 (hundredths of a second)");
      rop.format = output_format(render_out, rop.format, {"png", "svg", "gif"});
      refuse_binary_on_terminal("--out", render_out, rop.format);
      gui::render_to_file(load_trace(file), render_out, rop);
      messages_for(render_out) << "wrote " << output_name(render_out) << "\n";
      return 0;
    }
    if (*gui_cmd || app.get_subcommands().empty()) {
      if (std::sscanf(size.c_str(), "%dx%d", &go.width, &go.height) != 2 || go.width < 320 || go.height < 240 ||
          go.width > 8192 || go.height > 8192)
        throw UsageError("--size must be WxH between 320x240 and 8192x8192, not '" + size + "'");
      if (go.frames < 0) throw UsageError("--frames must not be negative (0, the default, runs until the window is closed)");
      if (gui_cmd->count("--step") && go.step < 0)
        throw UsageError("--step must be 0 or more (0 is the first step), not " + std::to_string(go.step));
      int used = 0;
      if (!mouse.empty() && (std::sscanf(mouse.c_str(), "%f,%f%n", &go.mouse_x, &go.mouse_y, &used) != 2 ||
                             used != static_cast<int>(mouse.size()) || go.mouse_x < 0 || go.mouse_y < 0 || go.frames == 0))
        throw UsageError("--mouse must be X,Y (non-negative window pixels) and comes with --frames, not '" + mouse + "'");
      if (go.font_scale != 0 && !(go.font_scale >= 1 && go.font_scale <= 3)) throw UsageError("--font-scale must be between 1 and 3");
      go.lesson = cli::request_of(*gui_cmd, gui_flags, default_lesson_request());  // checked by the window, once
      go.input_given = gui_cmd->count("--input") > 0;
      // The float lesson's inputs are sums of floats: without --op and --type, the lesson's own
      // interval operator gives way to a float sum.
      if (is_float_input_name(go.lesson.input) && gui_cmd->count("--op") == 0) go.lesson.op = OpKind::Sum;
      if (is_float_input_name(go.lesson.input) && gui_cmd->count("--type") == 0) go.lesson.type = ValueType::F32;
      if (!gui_measure.empty())
        for (std::int64_t n : cli::parse_sizes(gui_measure, 30)) {
          const int log2_n = std::countr_zero(static_cast<std::uint64_t>(n));
          if (std::popcount(static_cast<std::uint64_t>(n)) != 1 || log2_n < 10 || log2_n > 28)
            throw UsageError("--measure: the timing panel measures powers of two from 2^10 to 2^28, not " + std::to_string(n));
          go.measure_log2_n.push_back(log2_n);
        }
      if (!go.lookback.empty() && !go.trace_path.empty())
        throw UsageError("--lookback and --trace: choose one (a device-wide trace opens in the look-back view by itself)");
      if (!go.report_layout.empty() && go.frames == 0) throw UsageError("--report-layout comes with --frames");
      if (!go.kernel_path.empty()) {  // a kernel of your own in place of a built-in lesson
        if (go.lesson.executor == "auto") go.lesson.executor = "emulator";  // where a kernel of your own runs
        if (auto no = gui::window_kernel_refusal(go)) {
          if (no->key == "side") no->key = "side-by-side";  // the link's key, the command line's flag
          throw UsageError(kernel_refusal_line(*no));
        }
      }
      if (!go.screenshot.empty()) refuse_binary_on_terminal("--screenshot", go.screenshot, "png");
      gui::DesktopPlatform desktop(go.width, go.height);
      return gui::run_gui(go, desktop);
    }
#endif
    return cmd_demo();  // a build without the GUI prints the terminal demo
  } catch (const EmulationError& e) {
    std::cerr << "scanviz: the kernel failed in the emulator: " << e.what() << "\n";
    return 1;
  } catch (const RequestError& e) {  // a run request's field, said as its flag
    std::cerr << "scanviz: " << cli::flag_text(e) << "\n";
    return 2;
  } catch (const std::exception& e) {  // bad arguments (UsageError, invalid_argument) and files (TraceError)
    std::cerr << "scanviz: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

int main(int argc, char** argv) {
  sv::ignore_sigpipe();
  const int code = run_command_line(argc, argv);
  return code == 0 ? sv::checked_stdout(code) : code;
}
