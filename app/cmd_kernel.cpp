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

int trace_kernel(const std::string& file, const RunRequest& request, const std::string& out) {
  return kernel_command(file, [&] {
    const cuda::KernelRunConfig c = kernel_run_config(file, read_kernel_source(file), request);
    const Trace trace = cuda::record_kernel_trace(c);
    save_trace(out, trace);
    std::ostream& say = stream_named(out) == 1 ? std::cerr : std::cout;
    say << "wrote " << output_name(out) << ": " << trace.meta.algorithm << " from " << file << ", n = " << trace.meta.n
        << ", block " << trace.meta.block << ", CPU emulator (schedule " << c.schedule.name() << "), "
        << trace.events.size() << " events, " << trace.steps.size() << " steps, outcome "
        << outcome_name(trace.result.outcome) << "\n";
    return 0;
  });
}

CLI::App* add_check_command(CLI::App& app, CheckOptions& o) {
  auto* check = app.add_subcommand("check", "the report card of a scan kernel of your own (.cu)");
  check->add_option("FILE", o.kernel, "the kernel (.cu, the CUDA subset of docs/kernel-subset.md)")->required();
  check->add_flag("--json", o.json, "print the report as one JSON object");
  check->add_flag("--exclusive", o.exclusive, "judge it as an exclusive scan (default: told from its outputs)");
  check->add_option("--block", o.block, "threads per block, the value of its BLOCK_DIM (default 8; 64 for a kernel with warp shuffles)");
  return check;
}

int check_kernel(const CheckOptions& o) {
  return kernel_command(o.kernel, [&] { return check_command(o.kernel, read_kernel_source(o.kernel), o.block, o.exclusive, o.json); });
}

}  // namespace sv
