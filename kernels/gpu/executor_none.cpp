// The GPU executor of a build without nvcc: it says so.
#include "gpu/bench.hpp"
#include "gpu/executor.hpp"

namespace sv {

namespace {
#ifdef __EMSCRIPTEN__
constexpr const char* kNoCuda = "a web page runs no CUDA: the scanviz program runs and times the kernels on a GPU";
#else
constexpr const char* kNoCuda = "this scanviz was built without CUDA (nvcc was not found when it was configured)";
#endif
}

bool gpu_support_built() { return false; }

GpuStatus probe_gpu() {
  GpuStatus s;
  s.error = kNoCuda;
  return s;
}

Trace record_block_scan_gpu(const BlockRunConfig&, const GpuOptions&) { throw GpuError(kNoCuda); }

Trace record_device_scan_gpu(const BlockRunConfig&, const GpuOptions&) { throw GpuError(kNoCuda); }

DeviceCheck verify_device_scan_gpu_i32(const std::string&, const std::map<std::string, std::string>&, std::int64_t, bool,
                                       std::uint64_t) {
  throw GpuError(kNoCuda);
}

std::vector<ScannerResult> run_scanner_gpu(const std::map<std::string, std::string>&, const std::vector<ScannerStep>&) {
  throw GpuError(kNoCuda);
}

std::vector<PolicyCheck> verify_tile_policies_gpu(ValueType, const std::vector<std::int64_t>&, std::uint64_t,
                                                  const std::map<std::string, std::string>&, std::int64_t) {
  throw GpuError(kNoCuda);
}

std::vector<DeviceCheck> stress_descriptors_gpu(ValueType, std::int64_t, int, std::uint64_t) { throw GpuError(kNoCuda); }

ClockedRun clock_decoupled_lookback_gpu(std::int64_t, std::uint64_t, int, const std::map<std::string, std::string>&) {
  throw GpuError(kNoCuda);
}

RepeatedRuns repeat_device_sum_gpu(const BlockRunConfig&, int) { throw GpuError(kNoCuda); }

WrongCount count_wrong_outputs_gpu(const BlockRunConfig&, int, std::uint64_t) { throw GpuError(kNoCuda); }

std::vector<std::int64_t> default_bench_sizes() { return {}; }

BenchResult run_bench(const BenchOptions&, const std::function<void(const std::string&)>&) { throw GpuError(kNoCuda); }

}  // namespace sv
