// The definitions behind gpu/device_runs.cuh, included only by the generated compilation units
// that instantiate one value type each.
//
// [SECTION] traced runs
// [SECTION] the per-type entry points
#pragma once

#include <type_traits>

#include "core/segmented.hpp"
#include "core/segments.hpp"
#include "run/prepare.hpp"
#include "gpu/device_runs.cuh"
#include "gpu/gather_exec.cuh"

namespace sv::gpu {

// ============================================================================================
// [SECTION] traced runs
// ============================================================================================

// pipelined=on: the pipelined kernel (sums of numbers only: its reduce is in any order, and it is
// built for the sum the benchmark times), on a device that runs it.
template <class Op, class L>
void record_pipelined(L& launcher, const DeviceConfig& dc, Buf in, Buf out) {
  using T = typename Op::value_type;
  if constexpr (std::is_same_v<Op, SumOp<T>> && std::is_arithmetic_v<T>) {
    if (dc.params.n == 0) return;
    if (DeviceSums<T>::pipelined_capacity(dc.pipelined.stages) == 0)
      throw GpuError("option pipelined=on needs a GPU of compute capability 9.0 or later with " +
                     std::to_string(dc.pipelined.stages * 24) + " KB of shared memory a block, and code built for it");
    DeviceBuffers b = launcher.single_pass_state(dc.params);
    b.in = in;
    b.out = out;
    launcher.launch_pipelined(Op{}, dc.params, b, dc.pipelined.stages, dc.pipelined.blocks);
  } else {
    throw std::invalid_argument("option pipelined=on traces the sum of numbers (the kernel the benchmark times): "
                                "op must be sum");
  }
}

template <class Op>
void record_traced(const std::string& algorithm, const DeviceConfig& dc, const GpuOptions& options, Trace& trace) {
  using T = typename Op::value_type;
  const DeviceParams& p = dc.params;
  if (!dc.pipelined.on) check_policy<T>(algorithm, p);  // the pipelined kernel has its own tile
  const std::int64_t n = p.n;
  const std::vector<T> h_in = cuda::unpack<T>(kernel_input(trace.meta));
  DeviceArray<T> d_in(n), d_out(n);
  if (n) {
    d_in.upload(h_in.data(), n);
    SV_CUDA(cudaMemset(d_out.get(), 0, n * sizeof(T)));
  }

  DeviceArray<TileEvent> d_events(options.trace_capacity);
  TileTraceState h_state{0, options.trace_capacity, d_events.get()};
  DeviceArray<TileTraceState> d_state(1);
  d_state.upload(&h_state, 1);
  TraceBook<T> book;
  book.d_state = d_state.get();
  book.buffers.push_back({"input", d_in.get(), n, std::vector<std::uint8_t>(n, 1)});
  book.buffers.push_back({"output", d_out.get(), n, std::vector<std::uint8_t>(n, 0)});
  Scratch scratch;
  SinglePassState state;
  Launcher<Op, TileRecorder> launcher(scratch, state, &book, algorithm);
  if (dc.pipelined.on)
    record_pipelined<Op>(launcher, dc, Buf{d_in.get(), 0, n}, Buf{d_out.get(), 1, n});
  else if constexpr (is_segmented_op_v<Op>)  // decoupled look-back over (flag, value) pairs (record.cpp checked the name)
    drive_single_pass<DecoupledLookback>(launcher, Op{}, p, Buf{d_in.get(), 0, n}, Buf{d_out.get(), 1, n});
  else
    drive_device_scan(launcher, algorithm, dc.block_algorithm, Op{}, p, Buf{d_in.get(), 0, n}, Buf{d_out.get(), 1, n});
  check_launch("device-wide scan");

  d_state.download(&h_state, 1);
  if (h_state.counter > h_state.capacity)
    throw GpuError("the trace buffer is too small: it holds " + std::to_string(h_state.capacity) +
                   " events and the run needed " + std::to_string(h_state.counter) + " (trace capacity " +
                   std::to_string(h_state.counter) + ")");
  trace.tile_events.resize(h_state.counter);
  if (h_state.counter) d_events.download(trace.tile_events.data(), h_state.counter);
  std::stable_sort(trace.tile_events.begin(), trace.tile_events.end(),
                   [](const TileEvent& a, const TileEvent& b) { return a.time < b.time; });

  for (const auto& b : book.buffers) trace.buffers.push_back({b.name, Space::Global, b.length});
  for (const auto& l : book.launches) {
    Step s;
    s.phase = l.phase;
    s.param = l.level;
    s.line = 0;
    s.first_event = 0;  // a device-wide trace has tile events, no element events
    s.end_event = 0;
    trace.steps.push_back(s);
    auto& per_buffer = trace.snapshots.emplace_back(book.buffers.size());
    for (std::size_t b = 0; b < book.buffers.size(); ++b) {
      BufferSnapshot& bs = per_buffer[b];
      const auto length = static_cast<std::size_t>(book.buffers[b].length);
      bs.values.assign(length, Payload{});
      bs.defined.assign(length, 0);
      if (b >= l.values.size()) continue;  // allocated by a later launch
      bs.defined = l.defined[b];
      for (std::size_t i = 0; i < length; ++i)
        if (bs.defined[i]) bs.values[i] = Payload::of(l.values[b][i]);
    }
  }

  std::vector<T> h_out(n);
  if (n) d_out.download(h_out.data(), n);
  finish_block_trace(trace, cuda::pack(h_out));
}

// ============================================================================================
// [SECTION] the per-type entry points
// ============================================================================================

template <class T>
void DeviceTracedRuns<T>::record(OpKind op, bool segmented, const std::string& algorithm, const DeviceConfig& dc,
                                 const GpuOptions& options, Trace& trace) {
  auto run = [&](auto o) {
    using Op = decltype(o);
    using Base = typename std::conditional_t<is_segmented_op_v<Op>, Op, SegmentedOp<Op>>::base_op;
    if constexpr (std::is_same_v<typename Base::value_type, T>) record_traced<Op>(algorithm, dc, options, trace);
  };
  if (!segmented) visit_op(op, value_type_of<T>(), run);
  else if (!visit_segmented_gpu_op(op, value_type_of<T>(), run))
    throw std::invalid_argument(segmented_gpu_type_error(value_type_of<T>()));
}

template <class T>
void DeviceSums<T>::run(Scratch& scratch, SinglePassState& state, const std::string& algorithm,
                        std::string_view block_algorithm, const DeviceParams& p, TileKnobs knobs, bool reuse,
                        bool static_where_resident, const void* in, void* out) {
  Launcher<SumOp<T>, NoRecorder> l(scratch, state, nullptr, algorithm, knobs, reuse);
  if (static_where_resident) l.static_ids_where_resident();
  const Buf b_in{const_cast<void*>(in), 0, p.n}, b_out{out, 1, p.n};
  if (algorithm == "tiles-alone") drive_single_pass<TilesAlone>(l, SumOp<T>{}, p, b_in, b_out);
  else drive_device_scan(l, algorithm, block_algorithm, SumOp<T>{}, p, b_in, b_out);
}

template <class T>
void DeviceSums<T>::run_pipelined(Scratch& scratch, SinglePassState& state, const DeviceParams& p, TileKnobs knobs,
                                  bool reuse, int stages, const void* in, void* out) {
  if (p.n == 0) return;
  Launcher<SumOp<T>, NoRecorder> l(scratch, state, nullptr, "decoupled-lookback", knobs, reuse);
  DeviceBuffers b = l.single_pass_state(p);
  b.in = Buf{const_cast<void*>(in), 0, p.n};
  b.out = Buf{out, 1, p.n};
  l.launch_pipelined(SumOp<T>{}, p, b, stages);
}

template <class T>
void DeviceSums<T>::run_gather(SinglePassState& state, std::int64_t n, bool exclusive, std::int32_t threads,
                               std::int32_t items, GatherRun what, const void* in, void* out) {
  if (n == 0) return;
  const std::int64_t tile = std::int64_t{threads} * items, tiles = (n + tile - 1) / tile;
  if (tiles > 0x7fffffff) throw GpuError("a grid of " + std::to_string(tiles) + " blocks is more than CUDA launches");
  const int vectors = items / gather_vector_items<T>();
  if (items % gather_vector_items<T>() != 0 || (vectors != 1 && vectors != 2 && vectors != 4))
    throw std::invalid_argument("the gather kernel takes 1, 2 or 4 vectors of 16 bytes a thread, not " +
                                std::to_string(items) + " values");
  // The descriptors packed (flag word and value in one word), kept under a new epoch; no tile ids
  // are taken from the counter.
  TileKnobs knobs;
  const SinglePassState::Layout layout{tiles, static_cast<int>(sizeof(T)), true, tiles * packed_descriptor_bytes<T>()};
  const DeviceBuffers b = state.prepare(layout, true, knobs);
  auto kernel = vectors == 1 ? gather_kernel<T, 1> : vectors == 2 ? gather_kernel<T, 2> : gather_kernel<T, 4>;
  kernel<<<static_cast<unsigned>(tiles), static_cast<unsigned>(threads), 0, state.stream()>>>(
      static_cast<const T*>(in), static_cast<T*>(out), n, exclusive, b.descriptors.ptr, knobs.epoch, state.diag(), what);
  check(cudaGetLastError(), "gather kernel launch");
}

// sm_120 allows 99 KB of shared memory a block, sm_90 and sm_100 227 KB; a kernel the device loaded
// as PTX of an architecture before sm_90 has an empty body.
template <class T>
std::int64_t DeviceSums<T>::pipelined_capacity(int stages) {
  constexpr auto kernel = pipe_kernel<SumOp<T>, NoRecorder>;
  const std::size_t bytes = static_cast<std::size_t>(stages) * pipe_tile_items<T>() * sizeof(T);
  int device = 0, optin = 0;
  check(cudaGetDevice(&device), "finding the current device");
  check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), "reading the shared memory a block may have");
  cudaFuncAttributes a{};
  check(cudaFuncGetAttributes(&a, kernel), "reading the pipelined kernel's static shared memory");
  if (a.ptxVersion < 90 || bytes + a.sharedSizeBytes > static_cast<std::size_t>(optin)) return 0;
  const std::size_t smem = prepare_stage<kernel>(bytes);
  return resident_blocks<kernel>(kPipeThreads, smem) * stages * pipe_tile_items<T>();
}

}  // namespace sv::gpu
