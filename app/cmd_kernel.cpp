// `scanviz trace --kernel FILE.cu` and `scanviz check FILE.cu`: a student's kernel recorded or graded.
#include "cmd_kernel.hpp"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <string>

#include "check_report.hpp"
#include "core/files.hpp"
#include "core/values.hpp"
#include "cuda_subset/lexer.hpp"
#include "cuda_subset/parser.hpp"
#include "cuda_subset/record_kernel.hpp"
#include "trace/trace_json.hpp"

namespace sv {

namespace {

// The kernel's text, refused past the front end's size limit without reading on (a FIFO or /dev/zero
// must not fill the memory).
std::string read_kernel_source(const std::string& path) {
  if (std::filesystem::is_directory(path)) throw std::invalid_argument(path + " is a directory, not a kernel source");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read the kernel " + path);
  std::string text(cuda::kMaxSourceBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > cuda::kMaxSourceBytes)
    throw std::invalid_argument(path + ": more than " + std::to_string(cuda::kMaxSourceBytes) + " bytes: a kernel this long is refused");
  return text;
}

std::vector<Payload> parse_kernel_input(const std::string& arg, ValueType type) {
  std::string text = arg;
  if (!arg.empty() && arg.front() == '@') {
    const std::optional<std::string> file = read_whole_file(arg.substr(1));
    if (!file) throw std::invalid_argument("--input: cannot read " + arg.substr(1));
    text.clear();
    std::istringstream lines(*file);
    for (std::string line; std::getline(lines, line);) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (!line.empty() && line.front() != '#') text += (text.empty() ? "" : ",") + line;
    }
  }
  try {
    return parse_value_list(text, type);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--input: ") + e.what());
  }
}

struct KernelOptions {
  std::string kernel, out, op = "sum", type, input, schedule = "in-order";
  std::int64_t n = 8;
  std::int32_t block = 0, warp = 32, grid = 1;
  std::uint64_t seed = 1;
  bool exclusive = false, json = false;
};

cuda::KernelRunConfig kernel_config(const KernelOptions& o, bool n_given) {
  cuda::KernelRunConfig c;
  c.file = o.kernel;
  c.source = read_kernel_source(o.kernel);
  if (o.op != "sum" && o.op != "interval")
    throw std::invalid_argument("--op " + o.op + ": a kernel of your own scans with its + (sum), or runs symbolically (interval)");
  c.symbolic = o.op == "interval";
  c.exclusive = o.exclusive;
  c.block = o.block;
  c.warp = o.warp;
  if (o.warp < 1 || o.warp > 32 || (o.warp & (o.warp - 1)) != 0)
    throw std::invalid_argument("--warp " + std::to_string(o.warp) + " is not a power of two from 1 to 32");
  if (o.grid != 1) throw std::invalid_argument("--grid " + std::to_string(o.grid) + ": kernels of your own run one block for now");
  const auto schedule = Schedule::parse(o.schedule, o.seed);
  if (!schedule) throw std::invalid_argument("--schedule: unknown schedule '" + o.schedule + "' (in-order, reverse, round-robin, random[:SEED])");
  c.schedule = *schedule;
  c.input_seed = o.seed;
  c.n = o.n;
  if (!o.input.empty()) {
    const cuda::Kernel k = cuda::parse_kernel(c.source, c.file);
    const ValueType type = cuda::run_type_of(k, c.symbolic);
    c.input = parse_kernel_input(o.input, type);
    if (!n_given) c.n = static_cast<std::int64_t>(c.input.size());
  }
  if (!o.type.empty()) {
    const cuda::Kernel k = cuda::parse_kernel(c.source, c.file);
    const std::string kernel_type(type_name(cuda::run_type_of(k, c.symbolic)));
    if (o.type != kernel_type)
      throw std::invalid_argument("--type " + o.type + ": this kernel scans " + kernel_type + " (the type its pointer parameters point to)");
  }
  return c;
}

// The one line a kernel's fault ends in: FILE:LINE:COL: error: ... (the emulator's own faults name
// only the line).
std::string fault_line(const EmulationError& e, const std::string& file) {
  const std::string what = e.what();
  if (what.rfind(file + ":", 0) == 0 || e.line == 0) return what;
  return file + ":" + std::to_string(e.line) + ":1: error: " + what;
}

int cmd_trace_kernel(const KernelOptions& o, bool n_given) {
  const cuda::KernelRunConfig c = kernel_config(o, n_given);
  const Trace trace = cuda::record_kernel_trace(c);
  save_trace(o.out, trace);
  std::ostream& say = stream_named(o.out) == 1 ? std::cerr : std::cout;
  say << "wrote " << output_name(o.out) << ": " << trace.meta.algorithm << " from " << o.kernel << ", n = " << trace.meta.n
      << ", block " << trace.meta.block << ", CPU emulator (schedule " << c.schedule.name() << "), " << trace.events.size()
      << " events, " << trace.steps.size() << " steps, outcome " << outcome_name(trace.result.outcome) << "\n";
  return 0;
}

}  // namespace

std::optional<int> run_kernel_command(int argc, char** argv) {
  if (argc < 2) return std::nullopt;
  const std::string command = argv[1];
  bool kernel_given = false;
  for (int i = 2; i < argc; ++i)
    if (std::string(argv[i]) == "--kernel" || std::string(argv[i]).rfind("--kernel=", 0) == 0) kernel_given = true;
  if (!(command == "check" || (command == "trace" && kernel_given))) return std::nullopt;

  KernelOptions o;
  CLI::App app{command == "check" ? "scanviz check: the report card of a scan kernel of your own"
                                  : "scanviz trace --kernel: record a scan kernel of your own on the emulator"};
  app.name("scanviz " + command);
  if (command == "check") {
    app.add_option("FILE", o.kernel, "the kernel (.cu, the CUDA subset of docs/kernel-subset.md)")->required();
    app.add_flag("--json", o.json, "print the report as one JSON object");
    app.add_flag("--exclusive", o.exclusive, "judge it as an exclusive scan (default: told from its outputs)");
    app.add_option("--block", o.block, "threads per block, the value of its BLOCK_DIM (default 8; 64 for a kernel with warp shuffles)");
  } else {
    app.add_option("--kernel", o.kernel, "the kernel (.cu, the CUDA subset of docs/kernel-subset.md)")->required();
    app.add_option("--n", o.n, "number of elements (default 8, or the length of --input)");
    app.add_option("--block", o.block, "threads per block (default: the smallest power of two whose BLOCK_DIM holds n)");
    app.add_option("--grid", o.grid, "blocks (1)");
    app.add_option("--input", o.input, "comma-separated values or @FILE (default: seeded random)");
    app.add_option("--op", o.op, "sum (the kernel's +) or interval (symbolic x0..x3 values)");
    app.add_option("--type", o.type, "the kernel's element type (float, double or int32), said only to check it");
    app.add_flag("--exclusive", o.exclusive, "judge the output as an exclusive scan");
    app.add_option("--schedule", o.schedule, "warp schedule: in-order, reverse, round-robin, random[:SEED]");
    app.add_option("--seed", o.seed, "seed of the random input and of a random schedule");
    app.add_option("--warp", o.warp, "threads the emulator runs in lockstep: 1 to 32 (default 32)");
    app.add_option("--out", o.out, "trace file to write (JSON); - for standard output")->required();
  }
  try {
    app.parse(argc - 1, argv + 1);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "scanviz: " << e.what() << " (scanviz " << command << " --help for usage)\n";
    return 2;
  }
  try {
    if (command == "check") return check_command(o.kernel, read_kernel_source(o.kernel), o.block, o.exclusive, o.json);
    return cmd_trace_kernel(o, app.count("--n") > 0);
  } catch (const cuda::KernelError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const EmulationError& e) {
    std::cerr << fault_line(e, o.kernel) << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "scanviz: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace sv
