// `scanviz trace --kernel FILE.cu` and `scanviz check FILE.cu`: a student's kernel recorded or graded.
#include "cmd_kernel.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <string>

#include "grade/class_run.hpp"
#include "grade/graded_check.hpp"
#include "core/files.hpp"
#include "cuda_subset/record_kernel.hpp"
#include "entry/record.hpp"
#include "kernel_run.hpp"
#include "run_flags.hpp"
#include "run/launch.hpp"
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
  } catch (const RequestError& e) {
    std::cerr << "scanviz: " << request_error_text(e, "--") << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "scanviz: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

int trace_kernel(const std::string& file, const RunRequest& request, const std::string& out, std::int32_t grid) {
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

CLI::App* add_check_command(CLI::App& app, CheckOptions& o) {
  auto* check = app.add_subcommand("check", "the report card of a scan kernel of your own (.cu), or of a class of them");
  check->add_option("FILES", o.files, "the kernel (.cu, the CUDA subset of docs/kernel-subset.md); several files or folders: a class, "
                                      "each graded in a process of its own")->required();
  check->add_option("--format", o.format, "text (default), json, gradescope (Gradescope's results.json) or junit (JUnit XML)");
  check->add_flag("--json", o.json, "print the report as one JSON object (--format json)");
  check->add_option("--rubric", o.rubric, "the rubric (JSON, docs/grading.md) that turns the card into points (default: the built-in one)");
  check->add_option("--only", o.only, "one rubric item: its result alone, and the exit code 0 when it passes, 1 when not");
  check->add_option("--out", o.out, "write the card to FILE, whole (default: standard output)");
  check->add_flag("--exclusive", o.exclusive, "judge it as an exclusive scan (default: told from its outputs)");
  check->add_flag("--gpu", o.gpu, "also compile it with nvcc, run it on the GPU on the same sizes and inputs, and time it against CUB and a copy");
  check->add_option("--block", o.block, "threads per block, the value of its BLOCK_DIM (default 8; 64 for a kernel with warp shuffles)");
  check->add_option("--launch", o.launch, "the launch as CUDA says it: 'NAME<<<GRID, BLOCK, SHARED_BYTES>>>(ARGS)', GRID, BLOCK and "
                                          "SHARED_BYTES expressions in n, ARGS in, out, io, sums, zeros(K), buf(K), n or numbers");
  check->add_option("--sizes", o.sizes, "the cases' sizes, e.g. 1,7,1024,2^12 (default: around the block's elements)");
  check->add_option("--jobs", o.jobs, "a class: submissions graded at once (default: one a core)");
  check->add_option("--timeout", o.timeout, "a class: seconds a submission may take before it is stopped (default 600)");
  check->add_option("--summary", o.summary, "a class: write the class table to FILE.csv or FILE.md");
  return check;
}

int check_kernel(const CheckOptions& o) {
  const std::string& first = o.files.empty() ? std::string() : o.files.front();
  return kernel_command(first, [&] { return is_class(o) ? grade_class(o) : graded_check(o); });
}

}  // namespace sv
