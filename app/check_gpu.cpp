// `scanviz check --gpu`: writes the harness into a temporary folder, compiles it with nvcc, runs it on
// the device and compares its outputs with the reference (app/check_gpu.hpp).
#include "check_gpu.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "core/files.hpp"
#include "core/values.hpp"
#include "cuda_subset/gpu_harness.hpp"
#include "cuda_subset/gpu_launch_harness.hpp"
#include "gpu_process.hpp"

namespace sv {

namespace fs = std::filesystem;

namespace {

bool executable(const fs::path& p) { return ::access(p.c_str(), X_OK) == 0 && !fs::is_directory(p); }

// A CUDA device node: without one there is nothing to run on (and nvcc's -arch=native fails).
bool device_present() { return fs::exists("/dev/nvidiactl") || fs::exists("/dev/nvidia0"); }

}  // namespace

std::string find_nvcc() {
  if (const char* env = std::getenv("SCANVIZ_NVCC"); env && *env) return executable(env) ? env : "";
  if (const char* path = std::getenv("PATH")) {
    std::istringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (!dir.empty() && executable(fs::path(dir) / "nvcc")) return (fs::path(dir) / "nvcc").string();
  }
  return executable("/usr/local/cuda/bin/nvcc") ? "/usr/local/cuda/bin/nvcc" : "";
}

std::optional<cuda::HarnessResult> run_harness(const std::vector<std::string>& command, const fs::path& dir, ValueType type, int timeout_s,
                                               cuda::CheckGpu& g, int& ran) {
  ran = run_program(command, dir, "harness.log", timeout_s);
  cuda::HarnessResult r = cuda::read_harness_output(type, read_text(dir / "outputs.txt"));
  if (!r.no_device.empty() || (r.device.empty() && ran == 0)) {
    g.note = "not run: no CUDA device (" + (r.no_device.empty() ? std::string("the harness found none") : r.no_device) + ")";
    return std::nullopt;
  }
  g.ran = true;
  g.device = r.device;
  return r;
}

void check_on_gpu(const std::string& file, const std::string& source, cuda::CheckReport& report, const GpuCheckOptions& options) {
  cuda::CheckGpu& g = report.gpu.emplace();
  const std::string nvcc = find_nvcc();
  if (report.kernel.empty()) {
    g.note = "not run: the source did not get past the front end";
    return;
  }
  if (nvcc.empty()) {
    g.note = "not run: no nvcc (on PATH, in /usr/local/cuda/bin, or $SCANVIZ_NVCC)";
    return;
  }
  if (!device_present()) {
    g.note = "not run: no CUDA device on this machine (no /dev/nvidiactl)";
    return;
  }
  if (report.launch_said) return check_launch_on_gpu(file, source, report, options, nvcc);
  cuda::HarnessSpec spec;
  spec.file = file;
  spec.source = source;
  spec.case_threads = report.block;
  spec.exclusive = report.exclusive;
  const cuda::GpuHarness h = cuda::make_gpu_harness(spec);
  // The check's sizes in the check's block, and again in the file's own where that differs: a race
  // between warps cannot show in a block of one warp (slide 14's kernel is right on the device at 8
  // threads and may be wrong at its own 1024).
  struct Cases {
    std::vector<std::vector<Payload>> inputs;
    std::vector<std::string> kinds;
    std::int64_t capacity = 0;
  };
  const auto cases_of = [&](std::int64_t capacity) {
    Cases c{{}, {}, capacity};
    for (std::int64_t n : cuda::check_sizes(capacity))
      for (bool floats : {false, true}) {
        if (floats && h.type == ValueType::I32) continue;
        c.inputs.push_back(cuda::check_input(h.type, n, floats));
        c.kinds.push_back(floats ? "floats" : "integers");
      }
    return c;
  };
  const Cases cases = cases_of(h.case_capacity);
  const bool own = h.timed_threads != h.case_threads;
  const Cases own_cases = own ? cases_of(h.timed_capacity) : Cases{};
  TempFolder dir;
  write_file_atomically(dir.path / "cases_kernel.cu", h.cases_kernel);
  write_file_atomically(dir.path / "timed_kernel.cu", h.timed_kernel);
  write_file_atomically(dir.path / "harness.cu", h.main);
  write_file_atomically(dir.path / "cases.txt", cuda::harness_cases(h.type, cases.inputs));
  if (own) write_file_atomically(dir.path / "own_cases.txt", cuda::harness_cases(h.type, own_cases.inputs));
  const char* arch = std::getenv("SCANVIZ_NVCC_ARCH");
  const int built = run_program({nvcc, "-O3", "-std=c++17", std::string("-arch=") + (arch && *arch ? arch : "native"), "-o", "harness", "harness.cu"},
                                dir.path, "nvcc.log", options.timeout_s);
  if (built != 0) {
    g.note = "not run: nvcc could not compile the harness: " + first_error(read_text(dir.path / "nvcc.log"));
    return;
  }
  std::vector<std::string> command = {(dir.path / "harness").string(), "cases.txt", "outputs.txt", std::to_string(options.timed_n)};
  if (own) command.push_back("own_cases.txt");
  int ran = 0;
  const auto result = run_harness(command, dir.path, h.type, options.timeout_s, g, ran);
  if (!result) return;
  const cuda::HarnessResult& r = *result;
  const auto judge = [&](const Cases& c, const std::vector<std::vector<Payload>>& outputs, std::int32_t threads) {
    g.cases += static_cast<std::int64_t>(c.inputs.size());
    for (std::size_t k = 0; k < outputs.size() && k < c.inputs.size(); ++k) {
      const std::vector<Payload>& in = c.inputs[k];
      std::vector<std::uint8_t> heads(in.size(), 0);  // each block's section scanned on its own
      for (std::size_t i = 0; i < in.size(); i += static_cast<std::size_t>(c.capacity)) heads[i] = 1;
      const std::vector<Payload> expected = reference_scan(OpKind::Sum, h.type, in, report.exclusive, heads);
      const std::vector<std::int64_t> wrong = mismatches(OpKind::Sum, h.type, in, report.exclusive, expected, outputs[k], heads);
      if (wrong.empty()) {
        ++g.matching;
        continue;
      }
      const auto i = static_cast<std::size_t>(wrong.front());
      const auto n = static_cast<std::int64_t>(in.size());
      g.mismatches.push_back({n, static_cast<std::int32_t>((n + c.capacity - 1) / c.capacity), 32, "gpu", c.kinds[k], "wrong",
                              "blocks of " + std::to_string(threads) + " threads: output[" + std::to_string(i) + "] = " +
                                  format_value(h.type, outputs[k][i]) + ", expected " + format_value(h.type, expected[i])});
    }
  };
  judge(cases, r.outputs, h.case_threads);
  if (own) {
    g.own_block = h.timed_threads;
    g.own_cases = static_cast<std::int64_t>(own_cases.inputs.size());
    judge(own_cases, r.own_outputs, h.timed_threads);
  }
  const std::size_t ran_cases = r.outputs.size() + r.own_outputs.size(), all_cases = cases.inputs.size() + own_cases.inputs.size();
  finish_gpu_check(r, ran, ran_cases, all_cases, options.timeout_s, h.timed_threads, report);
}

void finish_gpu_check(const cuda::HarnessResult& r, int ran, std::size_t ran_cases, std::size_t all_cases, int timeout_s, std::int32_t timed_block,
                      cuda::CheckReport& report) {
  cuda::CheckGpu& g = *report.gpu;
  if (!r.error.empty()) g.note = "stopped: " + r.error;
  else if (ran != 0) g.note = "stopped: the harness " + std::string(ran < 0 ? "was killed or ran past " + std::to_string(timeout_s) + " s" : "exited with " + std::to_string(ran));
  else if (ran_cases < all_cases) g.note = "stopped after " + std::to_string(ran_cases) + " of " + std::to_string(all_cases) + " cases";
  g.timed = r.timed;
  g.timed_n = r.timed_n;
  g.timed_grid = r.timed_grid;
  g.timed_block = timed_block;
  g.kernel_ms = r.kernel_ms;
  g.cub_ms = r.cub_ms;
  g.copy_ms = r.copy_ms;
  // A wrong output, or a case that did not finish (a fault on the device), is a wrong kernel; the timing's
  // own troubles are only said.
  if (report.verdict != "error" && (!g.mismatches.empty() || ran_cases < all_cases)) report.verdict = "wrong";
}

}  // namespace sv
