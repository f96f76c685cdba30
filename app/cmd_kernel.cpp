// `scanviz trace --kernel FILE.cu` and `scanviz check FILE.cu`: a student's kernel recorded or graded.
#include "cmd_kernel.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <string>

#include "check_report.hpp"
#include "core/files.hpp"
#include "cuda_subset/record_kernel.hpp"
#include "kernel_run.hpp"
#include "trace/trace_json.hpp"

namespace sv {

namespace {

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
    std::cerr << kernel_fault_line(e, file) << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "scanviz: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

int trace_kernel(const std::string& file, const RunRequest& request, const std::string& out, std::int32_t grid) {
  return kernel_command(file, [&] {
    cuda::KernelRunConfig c = kernel_run_config(file, read_kernel_source(file), request);
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
