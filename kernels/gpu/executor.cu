// The GPU executor: launches the block-level kernels (the same headers the emulator runs) traced or
// untraced, checks every CUDA call, and turns what a traced kernel wrote into a Trace.
//
// [SECTION] CUDA error checking and device buffers
// [SECTION] kernels
// [SECTION] probe
// [SECTION] traced runs
// [SECTION] untraced runs
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "block/all.hpp"
#include "core/segmented.hpp"
#include "core/segments.hpp"
#include "core/values.hpp"
#include "gpu/cuda_util.cuh"
#include "gpu/executor.hpp"
#include "gpu/gpu_exec.cuh"
#include "gpu/traced_exec.cuh"

namespace sv {

using cuda::check;
using cuda::check_launch;
using cuda::cuda_message;
using cuda::DeviceArray;
using cuda::DeviceEvents;

// ============================================================================================
// [SECTION] CUDA error checking and device buffers
// ============================================================================================

namespace {


}  // namespace

// ============================================================================================
// [SECTION] kernels
// ============================================================================================

namespace gpu {

template <class Algo, class Op>
__global__ void untraced_block_scan(const typename Op::value_type* d_in, typename Op::value_type* d_out, BlockParams p,
                                    std::uint64_t amplify_seed) {
  extern __shared__ __align__(16) unsigned char s_mem[];
  UntracedExec x(d_in, d_out, s_mem, amplify_seed);
  Algo::run(x, Op{}, p);
}

template <class Algo, class Op>
__global__ void traced_block_scan(TraceState* d_state, const typename Op::value_type* d_in,
                                  typename Op::value_type* d_out, BlockParams p, std::uint64_t amplify_seed) {
  extern __shared__ __align__(16) unsigned char s_mem[];
  TracedExec x(d_state, d_in, d_out, s_mem, amplify_seed);
  Algo::run(x, Op{}, p);
  x.finish();
}

template <class Algo, class T>
std::size_t shared_bytes(const BlockShape& shape) {
  return static_cast<std::size_t>(Algo::kSharedBuffers) * shape.capacity * sizeof(T) + 16 * Algo::kSharedBuffers;
}

template <class Kernel>
void allow_shared(Kernel kernel, std::size_t bytes) {
  if (bytes > 48 * 1024)
    SV_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
}

void launch_block_scan(std::string_view algo, OpKind op, ValueType type, const void* in, void* out,
                       const BlockParams& p, std::int64_t grid, std::int32_t threads) {
  if (grid <= 0) return;
  if (grid > 0x7fffffff) throw GpuError("a grid of " + std::to_string(grid) + " blocks is more than CUDA launches");
  const BlockShape shape{threads, p.capacity};
  with_block_algorithm(algo, [&](auto a) {
    using Algo = decltype(a);
    visit_op(op, type, [&](auto o) {
      using Op = decltype(o);
      using T = typename Op::value_type;
      const std::size_t smem = shared_bytes<Algo, T>(shape);
      auto kernel = untraced_block_scan<Algo, Op>;
      allow_shared(kernel, smem);
      kernel<<<static_cast<unsigned>(grid), threads, smem>>>(static_cast<const T*>(in), static_cast<T*>(out), p, 0);
      check(cudaGetLastError(), "block scan launch");
    });
  });
}

}  // namespace gpu

// ============================================================================================
// [SECTION] probe
// ============================================================================================

bool gpu_support_built() { return true; }

namespace {

// Built with every other kernel, for the same architectures: whether the device can run it is
// whether it can run this build's kernels.
__global__ void architecture_probe() {}

// Why the device cannot run this build's code, in one line naming the fix; empty when it can.
std::string architecture_mismatch(const cudaDeviceProp& prop) {
  cudaFuncAttributes attributes{};
  const cudaError_t err = cudaFuncGetAttributes(&attributes, architecture_probe);
  if (err == cudaSuccess) return {};
  cudaGetLastError();  // not sticky; clear it anyway
  const std::string cc = std::to_string(prop.major) + "." + std::to_string(prop.minor);
  if (err != cudaErrorNoKernelImageForDevice && err != cudaErrorInvalidDeviceFunction &&
      err != cudaErrorUnsupportedPtxVersion && err != cudaErrorInvalidPtx)
    return cuda_message("cudaFuncGetAttributes", err);
  return std::string(prop.name) + " has compute capability " + cc + ", but this scanviz has GPU code for " +
         SCANVIZ_CUDA_ARCHS_TEXT + " only; rebuild for it with cmake -DSCANVIZ_CUDA_ARCHS=" +
         std::to_string(prop.major * 10 + prop.minor) + " (or auto on this machine)";
}

}  // namespace

GpuStatus probe_gpu() {
  GpuStatus s;
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    s.error = cuda_message("cudaGetDeviceCount", err);
    cudaGetLastError();  // clear it
    return s;
  }
  if (count == 0) {
    s.error = "cudaGetDeviceCount: no CUDA device";
    return s;
  }
  cudaDeviceProp prop{};
  err = cudaGetDeviceProperties(&prop, 0);
  if (err != cudaSuccess) {
    s.error = cuda_message("cudaGetDeviceProperties", err);
    return s;
  }
  s.name = prop.name;
  s.cc_major = prop.major;
  s.cc_minor = prop.minor;
  s.sm_count = prop.multiProcessorCount;
  s.shared_per_block = static_cast<int>(prop.sharedMemPerBlockOptin);
  cudaDriverGetVersion(&s.driver_version);
  cudaRuntimeGetVersion(&s.runtime_version);
  s.error = architecture_mismatch(prop);
  s.usable = s.error.empty();
  return s;
}

namespace {



// ============================================================================================
// [SECTION] traced runs
// ============================================================================================

std::string fault_text(const gpu::TraceState& st, const Trace& trace) {
  auto buffer_name = [&](int b) {
    return b >= 0 && b < static_cast<int>(trace.buffers.size()) ? trace.buffers[b].name : "buffer " + std::to_string(b);
  };
  switch (st.fault) {
    case gpu::TraceFault::OutOfBounds:
      return "thread " + std::to_string(st.fault_thread) + ": " + buffer_name(st.fault_buffer) + "[" +
             std::to_string(st.fault_index) + "] is out of bounds at line " + std::to_string(st.fault_line);
    case gpu::TraceFault::TooManyBuffers: return "the kernel declared more than 14 shared buffers";
    case gpu::TraceFault::TooManySteps: return "the kernel has more than " + std::to_string(gpu::kMaxSteps) + " steps";
    case gpu::TraceFault::SnapshotTooSmall: return "the snapshot area is too small for the kernel's buffers";
    case gpu::TraceFault::None: break;
  }
  return {};
}

template <class Algo, class Op>
void run_traced(const BlockRunConfig& config, const BlockShape& shape, const GpuOptions& options, Trace& trace) {
  using T = typename Op::value_type;
  const std::int64_t n = config.n;
  const std::vector<T> h_in = cuda::unpack<T>(kernel_input(trace.meta));
  DeviceArray<T> d_in(n), d_out(n);
  d_in.upload(h_in.data(), n);
  SV_CUDA(cudaMemset(d_out.get(), 0, n * sizeof(T)));

  const std::int64_t cells = 2 * n + static_cast<std::int64_t>(Algo::kSharedBuffers) * shape.capacity;
  DeviceArray<Event> d_events(options.trace_capacity);
  DeviceArray<Payload> d_snapshots(static_cast<std::size_t>(gpu::kMaxSteps) * cells);
  gpu::TraceState h_state{};
  h_state.capacity = options.trace_capacity;
  h_state.events = d_events.get();
  h_state.buffers = 2;
  h_state.decl[0] = {"input", n, 0};
  h_state.decl[1] = {"output", n, n};
  h_state.snapshots = d_snapshots.get();
  h_state.snapshot_cells = cells;
  DeviceArray<gpu::TraceState> d_state(1);
  d_state.upload(&h_state, 1);

  const BlockParams params = block_params_of(trace.meta);
  const std::size_t smem = gpu::shared_bytes<Algo, T>(shape);
  auto kernel = gpu::traced_block_scan<Algo, Op>;
  gpu::allow_shared(kernel, smem);
  kernel<<<1, shape.threads, smem>>>(d_state.get(), d_in.get(), d_out.get(), params, options.amplify_seed);
  check_launch("traced kernel");
  d_state.download(&h_state, 1);

  for (int b = 0; b < h_state.buffers; ++b)
    trace.buffers.push_back({h_state.decl[b].name, b < 2 ? Space::Global : Space::Shared, h_state.decl[b].length});
  if (h_state.fault != gpu::TraceFault::None) throw GpuError("the kernel failed on the GPU: " + fault_text(h_state, trace));
  if (h_state.counter > h_state.capacity)
    throw GpuError("the trace buffer is too small: it holds " + std::to_string(h_state.capacity) +
                   " events and the run needed " + std::to_string(h_state.counter) + " (use --trace-capacity " +
                   std::to_string(h_state.counter) + ")");

  const std::uint64_t events = h_state.counter;
  trace.events.resize(events);
  if (events) d_events.download(trace.events.data(), events);
  for (int k = 0; k < h_state.steps; ++k) {
    const gpu::StepRecord& r = h_state.step[k];
    Step s;
    s.phase = r.phase;
    s.param = r.param;
    s.line = r.line;
    s.first_event = r.first_event;
    s.end_event = k + 1 < h_state.steps ? h_state.step[k + 1].first_event : events;
    trace.steps.push_back(s);
  }

  // Snapshots: the values the kernel copied out; a cell is defined once some write reached it (the
  // input from the start). Undefined cells hold zero rather than whatever the memory held.
  std::vector<Payload> snap(static_cast<std::size_t>(h_state.steps) * cells);
  if (!snap.empty()) d_snapshots.download(snap.data(), snap.size());
  std::vector<std::vector<std::uint8_t>> defined(trace.buffers.size());
  for (std::size_t b = 0; b < defined.size(); ++b) defined[b].assign(trace.buffers[b].length, b == 0 ? 1 : 0);
  for (int k = 0; k < h_state.steps; ++k) {
    for (std::uint64_t i = trace.steps[k].first_event; i < trace.steps[k].end_event; ++i) {
      const Event& e = trace.events[i];
      if (e.kind == EventKind::Write && e.buffer < defined.size()) defined[e.buffer][e.index] = 1;
    }
    auto& per_buffer = trace.snapshots.emplace_back(trace.buffers.size());
    for (std::size_t b = 0; b < trace.buffers.size(); ++b) {
      const auto& d = h_state.decl[b];
      BufferSnapshot& bs = per_buffer[b];
      bs.defined = defined[b];
      bs.values.resize(d.length);
      for (std::int64_t i = 0; i < d.length; ++i)
        bs.values[i] = defined[b][i] ? snap[static_cast<std::size_t>(k) * cells + d.snapshot_offset + i] : Payload{};
    }
  }

  std::vector<T> h_out(n);
  d_out.download(h_out.data(), n);
  finish_block_trace(trace, cuda::pack(h_out));
}

// ============================================================================================
// [SECTION] untraced runs
// ============================================================================================

template <class Algo, class Op>
WrongCount run_untraced(const BlockRunConfig& config, const BlockShape& shape, const TraceMeta& meta, int runs,
                        std::uint64_t amplify_seed) {
  const std::vector<Payload>& input = meta.input;
  using T = typename Op::value_type;
  const std::int64_t n = config.n;
  const std::vector<Payload> reference = reference_scan(config.op, config.type, input, config.exclusive);
  const std::vector<T> h_in = cuda::unpack<T>(input);
  DeviceArray<T> d_in(n), d_out(n);
  d_in.upload(h_in.data(), n);
  const BlockParams params = block_params_of(meta);
  const std::size_t smem = gpu::shared_bytes<Algo, T>(shape);
  auto kernel = gpu::untraced_block_scan<Algo, Op>;
  gpu::allow_shared(kernel, smem);

  DeviceEvents timer;
  std::vector<float> times;
  std::vector<T> h_out(n);
  WrongCount count;
  for (int r = 0; r < runs; ++r) {
    SV_CUDA(cudaMemset(d_out.get(), 0, n * sizeof(T)));
    SV_CUDA(cudaEventRecord(timer.start));
    kernel<<<1, shape.threads, smem>>>(d_in.get(), d_out.get(), params, amplify_seed ? amplify_seed + r : 0);
    SV_CUDA(cudaEventRecord(timer.stop));
    check_launch("untraced kernel");
    float ms = 0;
    SV_CUDA(cudaEventElapsedTime(&ms, timer.start, timer.stop));
    times.push_back(ms * 1000.0f);
    d_out.download(h_out.data(), n);
    count.wrong += !mismatches(config.op, config.type, input, config.exclusive, reference, cuda::pack(h_out)).empty();
    ++count.runs;
  }
  if (!times.empty()) {
    std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
    count.median_kernel_us = times[times.size() / 2];
  }
  return count;
}

}  // namespace

Trace record_block_scan_gpu(const BlockRunConfig& config, const GpuOptions& options) {
  Trace trace;
  const BlockShape shape = prepare_block_trace(config, trace);
  cuda::begin_gpu_trace(options, trace);
  if (options.amplify_seed) trace.meta.options["amplify"] = std::to_string(options.amplify_seed);
  with_block_algorithm(config.algorithm, [&](auto algo) {
    using Algo = decltype(algo);
    auto run = [&](auto op) { run_traced<Algo, decltype(op)>(config, shape, options, trace); };
    if (trace.meta.flags.empty()) visit_op(config.op, config.type, run);
    else if (!visit_segmented_gpu_op(config.op, config.type, run))
      throw std::invalid_argument(segmented_gpu_type_error(config.type));
  });
  return trace;
}

WrongCount count_wrong_outputs_gpu(const BlockRunConfig& config, int runs, std::uint64_t amplify_seed) {
  Trace scratch;
  const BlockShape shape = prepare_block_trace(config, scratch);
  if (!config.flags.empty()) throw std::invalid_argument("segmented scans are traced on the GPU, not counted (scanviz trace)");
  cuda::require_gpu();
  WrongCount count;
  with_block_algorithm(config.algorithm, [&](auto algo) {
    using Algo = decltype(algo);
    visit_op(config.op, config.type, [&](auto op) {
      count = run_untraced<Algo, decltype(op)>(config, shape, scratch.meta, runs, amplify_seed);
    });
  });
  return count;
}

}  // namespace sv
