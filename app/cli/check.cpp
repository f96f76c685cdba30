// `scanviz check FILE.cu` (check.hpp): a student's kernel graded, or a class of them.
#include "cli/check.hpp"

#include <memory>
#include <string>

#include "cli/kernel_command.hpp"
#include "grade/check_options.hpp"
#include "grade/class_run.hpp"
#include "grade/graded_check.hpp"

namespace sv::cli {

Command add_check(CLI::App& app) {
  auto options = std::make_shared<CheckOptions>();
  CheckOptions& o = *options;
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
  return {check, [options] {
    const CheckOptions& o = *options;
    const std::string& first = o.files.empty() ? std::string() : o.files.front();
    return kernel_command(first, [&] { return is_class(o) ? grade_class(o) : graded_check(o); });
  }};
}

}  // namespace sv::cli
