// `scanviz trace --kernel FILE.cu` and `scanviz check FILE.cu`: a student's kernel recorded or graded.
#include "cmd_kernel.hpp"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <string>

#include "check_report.hpp"
#include "core/files.hpp"
#include "core/values.hpp"
#include "core/ops.hpp"
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

// A request field a kernel of your own cannot honour: set means refused, naming the field as a flag.
void refuse_built_in_fields(const RunRequest& r) {
  const RunRequest d;
  const auto refuse = [](const std::string& flag, const std::string& why) {
    throw std::invalid_argument("--kernel with " + flag + ": " + why);
  };
  if (!r.algorithm.empty()) refuse("--algo", "choose one (a built-in algorithm or a kernel of your own)");
  if (!r.options.empty()) refuse("--option", "switches belong to the built-in device-wide algorithms");
  if (!r.flags.empty() || !r.app.empty() || !r.predicate.empty())
    refuse(!r.flags.empty() ? "--flags" : !r.app.empty() ? "--app" : "--predicate",
           "segmented scans and applications run the built-in algorithms");
  if (r.executor == "gpu") refuse("--executor gpu", "a kernel of your own runs on the CPU emulator only");
  if (r.amplify != d.amplify) refuse("--amplify", "the race amplifier is the GPU executor's");
  if (r.input == "slides") refuse("--input slides", "give the values (--input 3,1,7,0,4,1,6,3)");
}

// The request (its flags already checked by set_field) as a run of the kernel in `file`.
cuda::KernelRunConfig kernel_config(const std::string& file, const RunRequest& r) {
  refuse_built_in_fields(r);
  cuda::KernelRunConfig c;
  c.file = file;
  c.source = read_kernel_source(file);
  const OpKind op = r.op.value_or(OpKind::Sum);
  if (op != OpKind::Sum && op != OpKind::Interval)
    throw std::invalid_argument("--op " + std::string(op_name(op)) +
                                ": a kernel of your own scans with its + (sum), or runs symbolically (interval)");
  c.symbolic = op == OpKind::Interval;
  c.exclusive = r.exclusive;
  c.block = r.block;
  c.warp = r.warp.value_or(32);
  if (c.warp < 1 || c.warp > 32 || (c.warp & (c.warp - 1)) != 0)
    throw std::invalid_argument("--warp " + std::to_string(c.warp) + " is not a power of two from 1 to 32");
  c.schedule = *Schedule::parse(r.schedule.empty() ? "in-order" : r.schedule, r.seed);
  c.input_seed = r.seed;
  c.n = r.n.value_or(8);
  if (!r.input.empty() || r.type) {
    const ValueType type = cuda::run_type_of(cuda::parse_kernel(c.source, c.file), c.symbolic);
    if (r.type && *r.type != type)
      throw std::invalid_argument("--type " + std::string(type_name(*r.type)) + ": this kernel scans " +
                                  std::string(type_name(type)) + " (the type its pointer parameters point to)");
    if (!r.input.empty()) {
      try {
        c.input = parse_value_list(r.input, type);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("--input: ") + e.what());
      }
      if (!r.n) c.n = static_cast<std::int64_t>(c.input.size());
    }
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

// Runs one of the commands, its errors as one line: exit 2 for the source or the request, 1 for a
// fault of the kernel as it runs.
template <class F>
int kernel_command(const std::string& file, F&& f) {
  try {
    return f();
  } catch (const cuda::KernelError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const EmulationError& e) {
    std::cerr << fault_line(e, file) << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "scanviz: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

int trace_kernel(const std::string& file, const RunRequest& request, const std::string& out, std::int32_t grid) {
  return kernel_command(file, [&] {
    cuda::KernelRunConfig c = kernel_config(file, request);
    if (grid < 0) throw std::invalid_argument("--grid " + std::to_string(grid) + " is not a number of blocks");
    c.grid = grid;
    const Trace trace = cuda::record_kernel_launch(c).trace;
    save_trace(out, trace);
    std::ostream& say = stream_named(out) == 1 ? std::cerr : std::cout;
    const bool sections = judged_heads(trace.meta) != trace.meta.flags;
    say << "wrote " << output_name(out) << ": " << trace.meta.algorithm << " from " << file << ", n = " << trace.meta.n
        << ", block " << trace.meta.block;
    if (trace.meta.grid > 1) say << ", " << trace.meta.grid << " blocks one after another";
    say << ", CPU emulator (schedule " << c.schedule.name() << "), " << trace.events.size() << " events, " << trace.steps.size()
        << " steps, outcome " << outcome_name(trace.result.outcome) << (sections ? " (each block's section scanned on its own)" : "") << "\n";
    return 0;
  });
}

CLI::App* add_check_command(CLI::App& app, CheckOptions& o) {
  auto* check = app.add_subcommand("check", "the report card of a scan kernel of your own (.cu)");
  check->add_option("FILE", o.kernel, "the kernel (.cu, the CUDA subset of docs/kernel-subset.md)")->required();
  check->add_flag("--json", o.json, "print the report as one JSON object");
  check->add_flag("--exclusive", o.exclusive, "judge it as an exclusive scan (default: told from its outputs)");
  check->add_flag("--gpu", o.gpu, "also compile it with nvcc, run it on the GPU on the same sizes and inputs, and time it against CUB and a copy");
  check->add_option("--block", o.block, "threads per block, the value of its BLOCK_DIM (default 8; 64 for a kernel with warp shuffles)");
  return check;
}

int check_kernel(const CheckOptions& o) {
  return kernel_command(o.kernel, [&] { return check_command(o.kernel, read_kernel_source(o.kernel), o.block, o.exclusive, o.json, o.gpu); });
}

}  // namespace sv
