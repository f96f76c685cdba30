// `scanviz check --gpu` for a launch the file's author says: the whole file compiled as written, run as
// the launch line says on the check's sizes (cuda_subset/gpu_launch_harness.hpp), its outputs compared
// with the sequential reference (app/check_gpu.hpp).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "check_gpu.hpp"
#include "core/files.hpp"
#include "core/values.hpp"
#include "cuda_subset/gpu_launch_harness.hpp"
#include "gpu_process.hpp"
#include "kernel_run.hpp"

namespace sv {

namespace fs = std::filesystem;

void check_launch_on_gpu(const std::string& file, const std::string& source, cuda::CheckReport& report, const GpuCheckOptions& options,
                         const std::string& nvcc) {
  cuda::CheckGpu& g = *report.gpu;
  const LaunchSpec launch = parse_launch(report.launch);
  const cuda::LaunchHarness h = cuda::make_launch_harness(file, source, launch, report.exclusive, kernel_include_reader(file));
  // The check's sizes, each with its integers and (for a float scan) its random floats.
  std::vector<std::int64_t> sizes;
  for (const cuda::CheckCase& c : report.cases)
    if (std::find(sizes.begin(), sizes.end(), c.n) == sizes.end()) sizes.push_back(c.n);
  std::vector<std::vector<Payload>> inputs;
  std::vector<std::string> kinds;
  for (std::int64_t n : sizes)
    for (bool floats : {false, true}) {
      if (floats && h.type == ValueType::I32) continue;
      inputs.push_back(cuda::check_input(h.type, n, floats));
      kinds.push_back(floats ? "floats" : "integers");
    }
  TempFolder dir;
  write_file_atomically(dir.path / "student.cu", h.student);
  write_file_atomically(dir.path / "harness.cu", h.main);
  write_file_atomically(dir.path / "cases.txt", cuda::harness_cases(h.type, inputs));
  const char* arch = std::getenv("SCANVIZ_NVCC_ARCH");
  const fs::path folder = fs::absolute(fs::path(file)).parent_path();  // the file's own #include "x.h"
  const int built = run_program({nvcc, "-O3", "-std=c++17", std::string("-arch=") + (arch && *arch ? arch : "native"), "-I" + folder.string(),
                                 "-o", "harness", "harness.cu"},
                                dir.path, "nvcc.log", options.timeout_s);
  if (built != 0) {
    g.note = "not run: nvcc could not compile the file with its launch: " + first_error(read_text(dir.path / "nvcc.log"));
    return;
  }
  int ran = 0;
  const auto result = run_harness({(dir.path / "harness").string(), "cases.txt", "outputs.txt", std::to_string(h.timed ? options.timed_n : 0)},
                                  dir.path, h.type, options.timeout_s, g, ran);
  if (!result) return;
  const cuda::HarnessResult& r = *result;
  g.cases = static_cast<std::int64_t>(inputs.size());
  for (std::size_t k = 0; k < r.outputs.size() && k < inputs.size(); ++k) {
    const std::vector<Payload>& in = inputs[k];
    const auto n = static_cast<std::int64_t>(in.size());
    // The whole input's scan; a kernel's launch of several blocks may give each block's section
    // scanned on its own (the first pass of a hierarchical scan), as the emulator's cases judge it.
    std::vector<std::uint8_t> heads;
    const std::vector<Payload> whole = reference_scan(OpKind::Sum, h.type, in, report.exclusive, heads);
    std::vector<std::int64_t> wrong = mismatches(OpKind::Sum, h.type, in, report.exclusive, whole, r.outputs[k], heads);
    std::vector<Payload> expected = whole;
    if (!wrong.empty() && !launch.host && report.capacity > 0 && report.capacity < n) {
      heads.assign(in.size(), 0);
      for (std::size_t i = 0; i < in.size(); i += static_cast<std::size_t>(report.capacity)) heads[i] = 1;
      std::vector<Payload> sections = reference_scan(OpKind::Sum, h.type, in, report.exclusive, heads);
      if (mismatches(OpKind::Sum, h.type, in, report.exclusive, sections, r.outputs[k], heads).empty()) wrong.clear();
    }
    if (wrong.empty()) {
      ++g.matching;
      continue;
    }
    const auto i = static_cast<std::size_t>(wrong.front());
    const auto blocks = report.capacity > 0 ? static_cast<std::int32_t>((n + report.capacity - 1) / report.capacity) : 1;
    g.mismatches.push_back({n, blocks, 32, "gpu", kinds[k], "wrong",
                            "launched as " + report.launch + ": output[" + std::to_string(i) + "] = " + format_value(h.type, r.outputs[k][i]) +
                                ", expected " + format_value(h.type, expected[i])});
  }
  const std::size_t ran_cases = r.outputs.size();
  finish_gpu_check(r, ran, ran_cases, inputs.size(), options.timeout_s, report.block, report);
  if (ran != 0 && ran_cases < inputs.size()) g.note += " in the case of n = " + std::to_string(inputs[ran_cases].size());
  if (!h.timed && options.timed_n > 0 && g.note.empty()) g.note = "not timed: the launch is a host function, whose copies and allocations would be timed with it";
}

}  // namespace sv
