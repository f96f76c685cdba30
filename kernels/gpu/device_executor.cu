// The GPU executor of the device-wide scans: the launcher that drive_device_scan (device/all.hpp)
// runs on a CUDA device. alloc = device memory; single_pass_state = the tile counter and the
// descriptors, zeroed (X) with one cudaMemsetAsync; launch<Pass> = tile_pass_kernel (gpu/tile_exec.cuh)
// on one block per tile; block_scan = the block-level kernels of kernels/block/, untraced, one block
// per tile. Traced runs record the tile-level events and a snapshot of every global buffer after each
// launch; untraced runs are what the tests at large n and the benchmark use.
//
// [SECTION] scratch memory and the launcher
// [SECTION] traced runs
// [SECTION] untraced runs
// [SECTION] int32 sums for the benchmark and the large-n checks
#include <cuda_runtime.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/segmented.hpp"
#include "core/segments.hpp"
#include "core/values.hpp"
#include "device/all.hpp"
#include "device/device_options.hpp"
#include "gpu/cuda_util.cuh"
#include "gpu/executor.hpp"
#include "gpu/pipeline_exec.cuh"
#include "gpu/tile_exec.cuh"

namespace sv {

using cuda::check;
using cuda::check_launch;
using cuda::DeviceArray;
using gpu::NoRecorder;
using gpu::DefaultTileConfig;
using gpu::TileConfig;
using gpu::TileDiag;
using gpu::TileClock;
using gpu::TileKnobs;
using gpu::TileRecorder;
using gpu::TileTraceState;

namespace {

// ============================================================================================
// [SECTION] scratch memory and the launcher
// ============================================================================================

// Device memory handed out in the order a run asks for it, kept for the next run (the benchmark
// times runs, not cudaMalloc).
class Scratch {
 public:
  void rewind() { next_ = 0; }
  // fresh (optional): set when the block was allocated now, so nothing of an earlier run is in it.
  void* take(std::size_t bytes, bool* fresh = nullptr) {
    if (next_ == blocks_.size()) blocks_.emplace_back();
    Block& b = blocks_[next_++];
    if (fresh) *fresh = false;
    if (b.bytes < bytes) {
      b.mem.reset();
      b.mem = std::make_unique<DeviceArray<unsigned char>>(bytes);
      b.bytes = bytes;
      if (fresh) *fresh = true;
    }
    return b.mem ? b.mem->get() : nullptr;
  }
  // The epoch of the descriptors (TileKnobs::epoch) kept from run to run; -1: zero them first.
  long long epoch = -1;
  // Tiles taken from the tile counter since it was last zeroed (TileKnobs::tile_base).
  unsigned long long tiles_taken = 0;

 private:
  struct Block {
    std::unique_ptr<DeviceArray<unsigned char>> mem;
    std::size_t bytes = 0;
  };
  std::vector<Block> blocks_;
  std::size_t next_ = 0;
};

// What a traced run keeps on the host: every global buffer of scan values (0 input, 1 output, then
// the allocated ones in order), which cells a launch has written, and each launch's copy of them.
template <class T>
struct TraceBook {
  struct Buffer {
    std::string name;
    const T* ptr;
    std::int64_t length;
    std::vector<std::uint8_t> defined;
  };
  struct Launch {
    Phase phase;
    int level;
    std::vector<std::vector<T>> values;  // of the buffers that existed then
    std::vector<std::vector<std::uint8_t>> defined;
  };
  std::vector<Buffer> buffers;
  std::vector<Launch> launches;
  TileTraceState* d_state = nullptr;
};

void check_diag(const TileDiag* d_diag, std::string_view algorithm) {
  TileDiag h{};
  check(cudaMemcpy(&h, d_diag, sizeof h, cudaMemcpyDeviceToHost), "reading the tile kernels' error flag");
  if (h.failed)
    throw GpuError(std::string(algorithm) + ": tile " + std::to_string(h.tile) + " waited longer than " +
                   std::to_string(gpu::kSpinLimitNs / 1'000'000'000ull) + " s for its predecessor (" +
                   std::to_string(h.waited_ns / 1'000'000) + " ms of polling); the run was abandoned");
}

// A baseline of the benchmark, not a scan (DeviceScanSum "tiles-alone"): each tile scanned on its
// own, its id taken, loaded, scanned and stored as decoupled look-back does it but with no
// descriptor and no look-back, so its time is what the tile kernel's loads and stores cost alone.
// Measured (int32, median of 20, two runs, driver 580.159.04): 94.1% of the copy at 2^28 on an
// H200, where decoupled look-back runs 85.3-85.6%; 94.9% on an H100, where it runs 95.9-96.0%.
// From the default's switch up (policy_at) it runs the pipelined kernel with its look-back skipped
// (TileKnobs::alone), so that it is the default's baseline at every n.
// With a hold (DeviceScanSum option hold=NS, TileKnobs::hold_ns) thread 0 waits that long before
// the tile is stored: a tile held as long as the scan holds one, without the chain of prefixes.
// H200, 2^28, two runs, held 7 us: 448.1-448.8 G items/s, where decoupled look-back ran
// 453.2-453.7 and the tiles stored at once 500.0-503.1.
struct TilesAlone {
  template <class X, class Op>
  __device__ static void run(X& x, Op op, const DeviceParams& p, const DeviceBuffers& b) {
    const std::int64_t tile = x.take_tile(p, b);
    auto items = x.template load_tile<typename Op::value_type>(op, b.in, tile, p);
    (void)x.reduce_tile(op, items);
    if (const unsigned hold = x.hold_ns()) {
      if (x.thread() == 0) {
        const std::uint64_t t0 = gpu::global_timer_ns();
        while (gpu::global_timer_ns() - t0 < hold) __nanosleep(256);
      }
      (void)x.broadcast(0);
    }
    x.scan_store_tile(op, items, op.identity(), b.out, tile, p);
  }
};

// The passes that scan tiles (and so use a staged configuration's shared memory).
template <class Pass>
constexpr bool kScansTiles = !std::is_same_v<Pass, Hierarchical::TileSums> && !std::is_same_v<Pass, Hierarchical::AddPrefixes>;

// The configuration a pass runs under: the register bound only for the single-pass scans, where it
// was measured to pay (more tiles in flight); the multi-pass kernels spilled under it (ptxas: 40-48
// bytes a thread in reduce-then-scan's second pass), so they run unbounded.
template <class Pass>
constexpr bool kSinglePass = std::is_same_v<Pass, DecoupledLookback> || std::is_same_v<Pass, Chained> ||
                             std::is_same_v<Pass, TilesAlone>;
template <class Pass, class Config>
using PassConfig = std::conditional_t<kSinglePass<Pass>, Config,
                                      TileConfig<Config::kItems, Config::kStreaming, Config::kMaxThreads, 1, Config::kStaged>>;


// Dynamic shared memory of a tile kernel: the staging area of a staged configuration. Raises the
// kernel's limit past 48 KB where needed (once per size) and prefers shared memory over L1.
template <auto kernel>  // one set of statics per kernel
std::size_t prepare_stage(std::size_t bytes) {
  static std::size_t allowed = 0;  // set the limit at the first launch: the default (48 KB) counts static memory too
  static bool carveout = false;
  if (!carveout) {
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared),
          "preferring shared memory");
    carveout = true;
  }
  if (bytes > allowed) {
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)),
          "raising a tile kernel's shared memory");
    allowed = bytes;
  }
  return bytes;
}

// The blocks of `kernel` (threads, smem bytes of dynamic shared memory) that the device holds at
// once: the grid of a persistent tile kernel. Asked once per kernel and shape (a persistent
// launch must not wait on the occupancy query each time).
template <auto kernel>  // one set of statics per kernel
std::int64_t resident_blocks(std::int32_t threads, std::size_t smem) {
  static std::int32_t known_threads = 0;
  static std::size_t known_smem = 0;
  static int known_device = -1;
  static std::int64_t known = 0;
  int device = 0;
  check(cudaGetDevice(&device), "finding the current device");
  if (threads != known_threads || smem != known_smem || device != known_device) {
    int per_sm = 0, sms = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem),
          "asking how many tile blocks fit on a multiprocessor");
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "counting multiprocessors");
    if (per_sm < 1)
      throw GpuError("a persistent tile kernel of " + std::to_string(threads) + " threads and " +
                     std::to_string(smem) + " bytes of shared memory does not fit on a multiprocessor");
    known = static_cast<std::int64_t>(per_sm) * sms;
    known_threads = threads;
    known_smem = smem;
    known_device = device;
  }
  return known;
}

template <class Op, class Rec, class Config = gpu::DefaultTileConfig<typename Op::value_type>>
class Launcher {
 public:
  using T = typename Op::value_type;

  // reuse_descriptors: keep the descriptors from run to run under a new epoch instead of zeroing
  // them before each (TileKnobs::epoch), which saves the memset's launch.
  Launcher(Scratch& scratch, TileDiag* diag, TraceBook<T>* book, std::string_view algorithm,
           gpu::TileKnobs knobs = {}, bool reuse_descriptors = false)
      : scratch_(scratch), diag_(diag), book_(book), algorithm_(algorithm), knobs_(knobs),
        reuse_descriptors_(reuse_descriptors) {}

  Buf alloc(const char* name, std::int64_t length) {
    Buf b{scratch_.take(static_cast<std::size_t>(length) * sizeof(T)), -1, length};
    if (book_) {
      b.id = static_cast<int>(book_->buffers.size());
      book_->buffers.push_back({name, static_cast<const T*>(b.ptr), length, std::vector<std::uint8_t>(length, 0)});
    }
    return b;
  }

  // One scratch block: the counters (their own 128-byte line), then the descriptors; zeroed = all X.
  // Reusing descriptors, the block is zeroed only when new (or the epoch would overflow), and the
  // run takes the next epoch and the counter of its parity.
  DeviceBuffers single_pass_state(const DeviceParams& p) {
    constexpr std::int64_t kCounterBytes = 128;
    const std::int64_t bytes = kCounterBytes + gpu::descriptor_bytes<T>(p.tiles, p.fence);
    bool fresh = false;
    auto* base = static_cast<unsigned char*>(scratch_.take(static_cast<std::size_t>(bytes), &fresh));
    DeviceBuffers b;
    if (!reuse_descriptors_ || fresh || scratch_.epoch < 0 || scratch_.epoch >= gpu::kMaxEpoch) {
      check(cudaMemsetAsync(base, 0, static_cast<std::size_t>(bytes)), "zeroing the tile descriptors");
      scratch_.epoch = 0;
      scratch_.tiles_taken = 0;
    } else {
      ++scratch_.epoch;
    }
    knobs_.epoch = reuse_descriptors_ ? static_cast<unsigned>(scratch_.epoch) : 0;
    knobs_.tile_base = scratch_.tiles_taken;
    b.counter = {base, -1, 1};
    b.descriptors = {base + kCounterBytes, -1, p.tiles};
    return b;
  }

  // What an untraced recorder gets (TileClock: where its times go).
  void recorder_args(const typename Rec::Args& a) { rec_args_ = a; }

  template <class Pass>
  void launch(Phase phase, int level, Op op, const DeviceParams& p, std::int64_t grid, const DeviceBuffers& b) {
    if (grid <= 0) return;
    if (grid > 0x7fffffff) throw GpuError("a grid of " + std::to_string(grid) + " blocks is more than CUDA launches");
    typename Rec::Args args = rec_args_;
    if constexpr (Rec::kTraced) args = {book_->d_state, static_cast<std::uint16_t>(book_->launches.size())};
    if (p.threads > Config::kMaxThreads)
      throw std::invalid_argument("block size " + std::to_string(p.threads) + " is over this tile kernel's bound of " +
                                  std::to_string(Config::kMaxThreads));
    using C = PassConfig<Pass, Config>;
    auto kernel = gpu::tile_pass_kernel<Pass, Op, Rec, C>;
    constexpr bool persistent_kernel = gpu::tile_kernel_persistent<C, Rec>();
    const bool persistent = persistent_kernel && p.dynamic_ids;
    std::size_t smem = 0;
    if constexpr (C::kStaged && kScansTiles<Pass>)
      smem = prepare_stage<gpu::tile_pass_kernel<Pass, Op, Rec, C>>(static_cast<std::size_t>(p.threads) * C::kItems *
                                                                    sizeof(T));
    if (persistent)
      grid = std::min<std::int64_t>(grid, resident_blocks<gpu::tile_pass_kernel<Pass, Op, Rec, C>>(p.threads, smem));
    kernel<<<static_cast<unsigned>(grid), static_cast<unsigned>(p.threads), smem>>>(op, p, b, args, diag_, knobs_);
    check(cudaGetLastError(), "device-wide scan launch");
    // Each block takes one tile id; a persistent block its tiles and one past the end (TileExec).
    if (kSinglePass<Pass> && p.dynamic_ids)
      scratch_.tiles_taken += static_cast<unsigned long long>(grid + (persistent ? p.tiles : 0));
    if (book_) {
      const bool sums = phase == Phase::TileSums || phase == Phase::ReduceTiles;
      written(sums ? b.sums : b.out, sums ? p.tiles : p.n);
      after_launch(phase, level);
    }
  }

  // Pipelined decoupled look-back (gpu/pipeline_exec.cuh) over single_pass_state's buffers: the
  // blocks the device holds at once (one a multiprocessor), `stages` tiles each. Every block takes
  // its tiles and one id past the end.
  void launch_pipelined(Op op, const DeviceParams& p, const DeviceBuffers& b, int stages) {
    if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
      if (p.tiles == 0) return;
      if (stages < 1 || stages > gpu::kPipeMaxStages)
        throw std::invalid_argument("a pipelined tile kernel holds 1 to " + std::to_string(gpu::kPipeMaxStages) +
                                    " tiles a block, not " + std::to_string(stages));
      if (p.tile_items() != gpu::pipe_tile_items<T>() || !p.dynamic_ids || !p.fence)
        throw std::invalid_argument("the pipelined tile kernel scans tiles of " + std::to_string(gpu::pipe_tile_items<T>()) +
                                    " values with dynamic tile ids and the fence on");
      constexpr auto kernel = gpu::pipe_kernel<Op, Rec>;
      const std::size_t smem =
          prepare_stage<kernel>(static_cast<std::size_t>(stages) * gpu::pipe_tile_items<T>() * sizeof(T));
      const std::int64_t grid = std::min<std::int64_t>(p.tiles, resident_blocks<kernel>(gpu::kPipeThreads, smem));
      kernel<<<static_cast<unsigned>(grid), gpu::kPipeThreads, smem>>>(op, p, b, rec_args_, diag_, knobs_, stages);
      check(cudaGetLastError(), "pipelined decoupled look-back launch");
      scratch_.tiles_taken += static_cast<unsigned long long>(grid + p.tiles);
    } else {
      throw std::invalid_argument("the pipelined tile kernel scans 4- and 8-byte values");
    }
  }

  void block_scan(std::string_view algo, Op, const DeviceParams& p, Buf in, Buf out, int level) {
    const BlockParams bp{p.n, static_cast<std::int32_t>(p.tile_items()), false};
    gpu::launch_block_scan(algo, Op::kind, value_type_of<T>(), in.ptr, out.ptr, bp, p.tiles, p.threads);
    if (book_) {
      written(out, p.n);
      after_launch(Phase::ScanTiles, level);
    }
  }

 private:
  void written(const Buf& b, std::int64_t count) {
    if (b.id < 0 || b.id >= static_cast<int>(book_->buffers.size())) return;
    auto& d = book_->buffers[b.id].defined;
    std::fill(d.begin(), d.begin() + std::min<std::int64_t>(count, static_cast<std::int64_t>(d.size())), 1);
  }

  // Traced: wait for the launch, check it, copy every buffer out.
  void after_launch(Phase phase, int level) {
    check_launch("device-wide scan launch");
    check_diag(diag_, algorithm_);
    typename TraceBook<T>::Launch l{phase, level, {}, {}};
    for (const auto& buf : book_->buffers) {
      std::vector<T> v(buf.length);
      if (buf.length)
        check(cudaMemcpy(v.data(), buf.ptr, v.size() * sizeof(T), cudaMemcpyDeviceToHost), "snapshot of a buffer");
      l.values.push_back(std::move(v));
      l.defined.push_back(buf.defined);
    }
    book_->launches.push_back(std::move(l));
  }

  Scratch& scratch_;
  TileDiag* diag_;
  TraceBook<T>* book_;
  std::string_view algorithm_;
  gpu::TileKnobs knobs_;
  bool reuse_descriptors_ = false;
  typename Rec::Args rec_args_{};
};




// The tile kernels are built for one items-per-thread per type; the switches' parser knows it too.
template <class T>
void check_policy(const std::string& algorithm, const DeviceParams& p) {
  if (algorithm == "hierarchical") return;
  if (p.items != gpu::tile_items_per_thread<T>())
    throw std::invalid_argument("the GPU tile kernels are built for " + std::to_string(gpu::tile_items_per_thread<T>()) +
                                " items per thread with this type, not " + std::to_string(p.items));
  if (p.threads % 32 != 0 || p.threads < 32 || p.threads > 1024)
    throw std::invalid_argument("block size " + std::to_string(p.threads) +
                                ": the GPU tile kernels need a multiple of 32 up to 1024");
}

// ============================================================================================
// [SECTION] traced runs
// ============================================================================================

template <class Op>
void record_traced(const std::string& algorithm, const DeviceConfig& dc, const GpuOptions& options, Trace& trace) {
  using T = typename Op::value_type;
  const DeviceParams& p = dc.params;
  check_policy<T>(algorithm, p);
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
  DeviceArray<TileDiag> d_diag(1);
  SV_CUDA(cudaMemset(d_diag.get(), 0, sizeof(TileDiag)));

  TraceBook<T> book;
  book.d_state = d_state.get();
  book.buffers.push_back({"input", d_in.get(), n, std::vector<std::uint8_t>(n, 1)});
  book.buffers.push_back({"output", d_out.get(), n, std::vector<std::uint8_t>(n, 0)});
  Scratch scratch;
  Launcher<Op, TileRecorder> launcher(scratch, d_diag.get(), &book, algorithm);
  if constexpr (is_segmented_op_v<Op>)  // decoupled look-back over (flag, value) pairs (record.cpp checked the name)
    drive_single_pass<DecoupledLookback>(launcher, Op{}, p, Buf{d_in.get(), 0, n}, Buf{d_out.get(), 1, n});
  else
    drive_device_scan(launcher, algorithm, dc.block_algorithm, Op{}, p, Buf{d_in.get(), 0, n}, Buf{d_out.get(), 1, n});
  check_launch("device-wide scan");

  d_state.download(&h_state, 1);
  if (h_state.counter > h_state.capacity)
    throw GpuError("the trace buffer is too small: it holds " + std::to_string(h_state.capacity) +
                   " events and the run needed " + std::to_string(h_state.counter) + " (use --trace-capacity " +
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
// [SECTION] untraced runs
// ============================================================================================

template <class Op>
std::vector<Payload> run_untraced(const std::string& algorithm, const DeviceConfig& dc, const DeviceParams& p,
                                  const std::vector<Payload>& input) {
  using T = typename Op::value_type;
  check_policy<T>(algorithm, p);
  const std::int64_t n = p.n;
  const std::vector<T> h_in = cuda::unpack<T>(input);
  DeviceArray<T> d_in(n), d_out(n);
  std::vector<T> h_out(n);
  if (n) {
    d_in.upload(h_in.data(), n);
    SV_CUDA(cudaMemset(d_out.get(), 0xA5, n * sizeof(T)));  // poison: every element must be written
  }
  DeviceArray<TileDiag> d_diag(1);
  SV_CUDA(cudaMemset(d_diag.get(), 0, sizeof(TileDiag)));
  Scratch scratch;
  Launcher<Op, NoRecorder> launcher(scratch, d_diag.get(), nullptr, algorithm);
  drive_device_scan(launcher, algorithm, dc.block_algorithm, Op{}, p, Buf{d_in.get(), 0, n}, Buf{d_out.get(), 1, n});
  check_launch("device-wide scan");
  check_diag(d_diag.get(), algorithm);
  if (n) d_out.download(h_out.data(), n);
  return cuda::pack(h_out);
}

// ============================================================================================
// [SECTION] int32 sums for the benchmark and the large-n checks
// ============================================================================================

// Small values (-3..3) keep integer sums of any length exact enough to check cheaply (a wrapped
// int32 sum wraps the same way on the host).
template <class T>
__global__ void fill_small(T* d, std::int64_t n, std::uint64_t seed) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    d[i] = static_cast<T>(static_cast<std::int32_t>(gpu::splitmix64(seed ^ static_cast<std::uint64_t>(i)) % 7) - 3);
}

// Calls f(T{}) for the numeric type `type` (the sums the benchmark times).
template <class F>
void visit_type(ValueType type, F&& f) {
  if (type == ValueType::Interval) throw std::invalid_argument("a device-wide sum needs a numeric type");
  visit_value_type(type, [&](auto v) {
    if constexpr (!std::is_same_v<decltype(v), Interval>) f(v);
  });
}

// Decoupled look-back alone, under a tile policy other than the default (for measuring them).
template <class T, class Config>
void run_policy(Scratch& scratch, TileDiag* diag, const DeviceParams& p, gpu::TileKnobs knobs, bool reuse,
                const T* in, T* out) {
  Launcher<SumOp<T>, NoRecorder, Config> l(scratch, diag, nullptr, "decoupled-lookback", knobs, reuse);
  drive_single_pass<DecoupledLookback>(l, SumOp<T>{}, p, Buf{const_cast<T*>(in), 0, p.n}, Buf{out, 1, p.n});
}

// Decoupled look-back's sum, pipelined (gpu/pipeline_exec.cuh): `stages` tiles a block.
template <class T>
void run_pipelined(Scratch& scratch, TileDiag* diag, const DeviceParams& p, gpu::TileKnobs knobs, bool reuse, int stages,
                   const T* in, T* out) {
  if (p.n == 0) return;
  Launcher<SumOp<T>, NoRecorder> l(scratch, diag, nullptr, "decoupled-lookback", knobs, reuse);
  DeviceBuffers b = l.single_pass_state(p);
  b.in = Buf{const_cast<T*>(in), 0, p.n};
  b.out = Buf{out, 1, p.n};
  l.launch_pipelined(SumOp<T>{}, p, b, stages);
}

// Whether the current device runs the pipelined kernel (sm_90 on: bulk copies, mbarrier waits).
bool pipelined_here() {
  int device = 0, major = 0;
  if (cudaGetDevice(&device) != cudaSuccess) return false;
  check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "reading the compute capability");
  return major >= 9 && gpu::kPipeBuilt;
}

// The elements the device's blocks of the pipelined sum of T hold in `stages` stages each; 0 where
// a block of that many stages does not fit the device's shared memory (sm_120 allows 99 KB a block,
// sm_90 and sm_100 227 KB), or where the kernel the device loaded was compiled for an architecture
// before sm_90 (PTX of an older one compiled at load time), whose body is empty.
template <class T>
std::int64_t pipelined_capacity(int stages) {
  constexpr auto kernel = gpu::pipe_kernel<SumOp<T>, NoRecorder>;
  const std::size_t bytes = static_cast<std::size_t>(stages) * gpu::pipe_tile_items<T>() * sizeof(T);
  int device = 0, optin = 0;
  check(cudaGetDevice(&device), "finding the current device");
  check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), "reading the shared memory a block may have");
  cudaFuncAttributes a{};
  check(cudaFuncGetAttributes(&a, kernel), "reading the pipelined kernel's static shared memory");
  if (a.ptxVersion < 90 || bytes + a.sharedSizeBytes > static_cast<std::size_t>(optin)) return 0;
  const std::size_t smem = prepare_stage<kernel>(bytes);
  return resident_blocks<kernel>(gpu::kPipeThreads, smem) * stages * gpu::pipe_tile_items<T>();
}

// pipelined_capacity of `type` on the current device: 0 where it does not run the pipelined kernel.
std::int64_t pipelined_capacity_of(ValueType type, int stages) {
  if (!pipelined_here()) return 0;
  std::int64_t n = 0;
  visit_type(type, [&](auto v) { n = pipelined_capacity<decltype(v)>(stages); });
  return n;
}

// Whether decoupled look-back's switches are all at their defaults, as the pipelined kernel takes them.
bool default_switches(const DeviceParams& q) {
  return q.dynamic_ids && q.fence && q.window == DeviceParams{}.window && !q.share && q.stall_tile < 0;
}

// The compile-time tile configurations built for decoupled look-back's int32 and int64 sums besides
// the defaults (each list starts with its type's default, for the run-time variants of it); a
// TilePolicy picks one by its compile-time part (items, hints, register bound, staging). Every
// launch bound is of 1024-thread blocks: min_blocks 2 caps a thread at 32 registers.
template <class... Configs>
struct ConfigList {};
using PolicyConfigs = ConfigList<DefaultTileConfig<std::int32_t>,
                                 TileConfig<16, false, 1024, 1, true>,   // the default until 24 items
                                 TileConfig<16, false, 1024, 1, false>,  // ... with the tile in registers
                                 TileConfig<24, true, 1024, 2, true>,    // the default with evict-first hints
                                 TileConfig<32, false, 1024, 2, true>,
                                 TileConfig<24, false, 1024, 2, true, true>,   // persistent blocks
                                 TileConfig<24, false, 1024, 2, true, false, 1>,  // bulk loads
                                 TileConfig<24, false, 1024, 2, true, false, 2>>;  // bulk loads and stores
// 8-byte values: besides the default (12 items, 24 KB tiles, 32 registers), the earlier default of
// 8 items unbounded, 8 items bound, 12 unbounded and 32 KB tiles (16 items) bound.
using PolicyConfigs64 = ConfigList<DefaultTileConfig<std::int64_t>,
                                   TileConfig<8, false, 1024, 1, true>,
                                   TileConfig<8, false, 1024, 2, true>,
                                   TileConfig<12, false, 1024, 1, true>,
                                   TileConfig<16, false, 1024, 2, true>>;

template <class Config>
bool policy_is(const gpu::TilePolicy& t) {
  return t.items == Config::kItems && t.streaming == Config::kStreaming && t.min_blocks == Config::kMinBlocks &&
         t.staged == Config::kStaged && t.persistent == Config::kPersistent && t.bulk == Config::kBulk;
}
template <class... Configs>
bool policy_built(const gpu::TilePolicy& t, ConfigList<Configs...>) {
  return (policy_is<Configs>(t) || ...);
}
template <class T, class... Configs>
void run_policy_of(const gpu::TilePolicy& t, ConfigList<Configs...>, Scratch& scratch, TileDiag* diag,
                   const DeviceParams& p, gpu::TileKnobs knobs, const T* in, T* out) {
  // The first configuration that matches runs (exactly one does: the constructor checked it).
  (void)((policy_is<Configs>(t) ? (run_policy<T, Configs>(scratch, diag, p, knobs, t.reuse_descriptors, in, out), true)
                                : false) ||
         ...);
}
// Elements per thread of the pipelined kernel's reduce and store warps for a numeric `type`.
std::int32_t pipe_items_of(ValueType type) {
  return type == ValueType::I64 || type == ValueType::F64 ? gpu::pipe_items<std::int64_t>() : gpu::pipe_items<std::int32_t>();
}

// Whether `t` runs the default's kernel for `type` (it may differ in the run-time knob l2_last, and
// stay on that kernel at every n).
bool default_kernel(gpu::TilePolicy t, ValueType type) {
  t.l2_last = gpu::default_policy(type).l2_last;
  t.tiles_only = false;
  return t == gpu::default_policy(type);
}

// Whether `t` is built for decoupled look-back's sum of `type` (int32 and int64 have policy lists;
// pipelined policies are built for every numeric type, with 24 KB tiles of 128 threads).
bool policy_built_for(const gpu::TilePolicy& t, ValueType type) {
  if (t.stages) {
    return t.threads == gpu::kPipeWarps * 32 && t.items == pipe_items_of(type) && t.stages >= 1 &&
           t.stages <= gpu::kPipeMaxStages;
  }
  return type == ValueType::I32 ? policy_built(t, PolicyConfigs{}) : type == ValueType::I64 && policy_built(t, PolicyConfigs64{});
}

}  // namespace

namespace gpu {

// The default policy is the default configuration of 4-byte values.
static_assert(TilePolicy{}.items == DefaultTileConfig<std::int32_t>::kItems &&
                  TilePolicy{}.streaming == DefaultTileConfig<std::int32_t>::kStreaming &&
                  TilePolicy{}.min_blocks == DefaultTileConfig<std::int32_t>::kMinBlocks &&
                  TilePolicy{}.staged == DefaultTileConfig<std::int32_t>::kStaged && TilePolicy{}.prefetch &&
                  TilePolicy{}.threads == kTileThreads,
              "TilePolicy's defaults must describe DefaultTileConfig<int32>");

std::string TilePolicy::name() const {
  std::string s = std::to_string(threads) + "x" + std::to_string(items);
  const std::string l2 = l2_last ? " L2last" : "";
  if (stages) return s + " pipe" + std::to_string(stages) + (reuse_descriptors ? "" : " memset") + l2 + " sleep" +
                     std::to_string(backoff_max_ns);
  if (streaming) s += " cs";
  if (min_blocks > 1) s += " min" + std::to_string(min_blocks);
  s += staged ? " staged" : " regs";
  if (!prefetch) s += " no-prefetch";
  if (!reuse_descriptors) s += " memset";
  if (persistent) s += " persist";
  if (bulk) s += bulk > 1 ? " bulk-store" : " bulk";
  if (static_ids) s += " static-ids";
  return s + l2 + " sleep" + std::to_string(backoff_max_ns) + (tiles_only ? " tiles-only" : "");
}

TilePolicy default_policy(ValueType type) {
  if (type != ValueType::I64 && type != ValueType::F64) return TilePolicy{};
  TilePolicy t;
  t.items = DefaultTileConfig<std::int64_t>::kItems;
  t.min_blocks = DefaultTileConfig<std::int64_t>::kMinBlocks;
  return t;
}

TilePolicy pipelined_default(ValueType type) {
  TilePolicy t;
  t.threads = kPipeWarps * 32;
  t.items = pipe_items_of(type);
  t.stages = kPipeMaxStages;
  t.l2_last = true;
  return t;
}

std::int64_t pipelined_from(ValueType type) {
  const std::int64_t n = pipelined_capacity_of(type, kPipeMaxStages);
  return n > 0 ? n : INT64_MAX;
}

// What the tile kernels are built for besides the default (PolicyConfigs, PolicyConfigs64):
// decoupled look-back only.
std::vector<TilePolicy> experimental_policies(ValueType type) {
  std::vector<TilePolicy> v;
  // Pipelined (gpu/pipeline_exec.cuh; listed where the current device runs it): one block a
  // multiprocessor of `stages` 24 KB stages and four tiles held in registers; 9 stages with the
  // input's L2 lines marked evict-last or not. And the default's tile kernel at every n, which
  // the default itself leaves for pipelined_default from pipelined_from elements up.
  if (pipelined_here()) {
    for (const int stages : {6, 8, 9}) {
      if (pipelined_capacity_of(type, stages) == 0) continue;
      TilePolicy t = pipelined_default(type);
      t.stages = stages;
      t.l2_last = false;
      v.push_back(t);
    }
    if (pipelined_from(type) != INT64_MAX) v.push_back(pipelined_default(type));
    TilePolicy tiles = default_policy(type);
    tiles.tiles_only = true;
    v.push_back(tiles);
  }
  // The default with the input's L2 lines marked the other way (evict-last or not): every numeric type.
  TilePolicy flipped = default_policy(type);
  flipped.l2_last = !flipped.l2_last;
  v.push_back(flipped);
  if (type == ValueType::I64) {
    // threads items  cs   minb sleep staged prefetch
    v.push_back({256, 8, false, 1, 256, true, true});   // the default until 12 items
    v.push_back({256, 8, false, 2, 256, true, true});
    v.push_back({256, 12, false, 1, 256, true, true});
    v.push_back({256, 16, false, 2, 256, true, true});
    v.push_back({256, 12, false, 2, 256, true, true, false});  // the default with a memset of the descriptors a run
    return v;
  }
  if (type != ValueType::I32) return v;
  // threads items  cs   minb sleep staged prefetch
  v.push_back({256, 16, false, 1, 256, true, true});   // the default until 24 items: registers unbounded
  v.push_back({256, 16, false, 1, 256, true, false});  // ... without the prefetch
  v.push_back({256, 16, false, 1, 256, false, true});  // ... tiles in registers
  v.push_back({256, 24, true, 2, 256, true, true});    // the default with evict-first hints (copies in, stores)
  v.push_back({256, 24, false, 2, 256, true, false});  // the default without the prefetch
  v.push_back({256, 24, false, 2, 0, true, true});     // ... polling without sleeping
  v.push_back({512, 24, false, 2, 256, true, true});   // ... 512-thread blocks
  v.push_back({256, 32, false, 2, 256, true, true});   // 32 items
  // 192 threads x 32 items: the default's 24 KB tiles, 9 blocks a multiprocessor instead of 8
  // (9 x (24 KB + 160 B + the 1 KB the driver keeps a block) fits the 228 KB; 1728 threads).
  // H200, int32, 2^28, two runs: 452.4-453.1 G items/s against 449.3-449.9 for the default.
  v.push_back({192, 32, false, 2, 256, true, true});
  v.push_back({256, 24, false, 2, 256, true, true, false});  // the default with a memset of the descriptors a run
  v.push_back({512, 24, true, 2, 256, true, true});          // 512-thread blocks with evict-first hints
  // Persistent blocks (the grid the device holds at once, the next tile's copies issued with the
  // stores; measured slower, see TileConfig): the default's shape, 512-thread blocks, no prefetch.
  // threads items  cs   minb sleep staged prefetch reuse persist
  v.push_back({256, 24, false, 2, 256, true, true, true, true});
  v.push_back({512, 24, false, 2, 256, true, true, true, true});
  v.push_back({256, 24, false, 2, 256, true, false, true, true});  // ... without the first tile's L2 prefetch
  // Bulk copies (sm_90 on; cp.async.bulk, see tile_exec.cuh): the loads, or loads and stores, in
  // 256- and 512-thread blocks.
  // threads items  cs   minb sleep staged prefetch reuse persist bulk
  v.push_back({256, 24, false, 2, 256, true, true, true, false, 1});
  v.push_back({256, 24, false, 2, 256, true, true, true, false, 2});
  v.push_back({256, 24, false, 2, 256, true, false, true, false, 1});  // ... without the L2 prefetch
  // Tile ids from the block index, as CUB takes them: no atomic a tile, and each block's copies
  // start at once (blocks are started in index order, so none waits on a tile not yet running).
  // threads items  cs   minb sleep staged prefetch reuse persist bulk static
  v.push_back({256, 24, false, 2, 256, true, true, true, false, 0, true});
  v.push_back({512, 24, false, 2, 256, true, true, true, false, 0, true});
  v.push_back({256, 24, false, 2, 256, true, true, true, false, 2, true});  // ... with bulk loads and stores
  v.push_back({512, 24, false, 2, 256, true, true, true, false, 1});
  v.push_back({512, 24, false, 2, 256, true, true, true, false, 2});
  std::erase(v, TilePolicy{});  // the default is measured as decoupled-lookback itself
  return v;
}

struct DeviceScanSum::Impl {
  std::string algorithm;
  ValueType type = ValueType::I32;
  DeviceConfig config;
  TilePolicy policy;
  std::int64_t pipe_from = INT64_MAX;  // the default's: from this n, pipelined_default (policy_at)
  unsigned hold_ns = 0;  // tiles-alone
  Scratch scratch;
  DeviceArray<TileDiag> diag{1};
};

// tiles-alone's hold=NS: whole nanoseconds, at most one second.
unsigned parse_hold_ns(const std::string& v) {
  unsigned ns = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), ns);
  if (ec != std::errc() || end != v.data() + v.size() || ns > 1'000'000'000)
    throw std::invalid_argument("tiles-alone: hold=" + v + " is not a whole number of nanoseconds from 0 to 1e9");
  return ns;
}

DeviceScanSum::DeviceScanSum(const std::string& algorithm, const std::map<std::string, std::string>& options,
                             ValueType type, TilePolicy policy)
    : impl_(std::make_unique<Impl>()) {
  if (type == ValueType::Interval) throw std::invalid_argument("a device-wide sum needs a numeric type, not interval");
  impl_->algorithm = algorithm;
  impl_->type = type;
  const bool alone = algorithm == "tiles-alone";  // the baseline: no look-back
  const std::string scan = alone ? "decoupled-lookback" : algorithm;  // whose switches and tiles it takes
  std::map<std::string, std::string> switches = options;
  if (const auto h = switches.find("hold"); alone && h != switches.end()) {
    impl_->hold_ns = parse_hold_ns(h->second);
    switches.erase(h);
  }
  impl_->config = parse_device_config(scan, switches, type, 0, true);
  if (policy == TilePolicy{}) policy = default_policy(type);  // the type's default
  if (alone && !(policy == default_policy(type)))
    throw std::invalid_argument("tiles-alone runs the default tile policy only, not " + policy.name());
  impl_->policy = policy;
  if (!default_kernel(policy, type)) {
    if (!policy_built_for(policy, type) || algorithm != "decoupled-lookback")
      throw std::invalid_argument("tile policy " + policy.name() + " is not built for " + algorithm + " on " +
                                  std::string(type_name(type)));
    if (policy.stages) {
      if (!default_switches(impl_->config.params))
        throw std::invalid_argument("tile policy " + policy.name() + " takes none of decoupled-lookback's switches");
      if (!pipelined_here())
        throw GpuError("tile policy " + policy.name() + " needs a GPU of compute capability 9.0 or newer");
    }
    impl_->config.params.threads = policy.threads;
    impl_->config.params.items = policy.items;
    if (policy.static_ids) impl_->config.params.dynamic_ids = false;
  } else {
    visit_type(type, [&](auto v) { check_policy<decltype(v)>(scan, impl_->config.params); });
    // tiles-alone follows the default's switch, to be its baseline at every n (not with a hold: the
    // pipelined kernel has none).
    const bool switches_kernel = algorithm == "decoupled-lookback" || (alone && impl_->hold_ns == 0);
    if (switches_kernel && policy == default_policy(type) && default_switches(impl_->config.params))
      impl_->pipe_from = pipelined_from(type);
  }
  SV_CUDA(cudaMemset(impl_->diag.get(), 0, sizeof(TileDiag)));
}

TilePolicy DeviceScanSum::policy_at(std::int64_t n) const {
  return n >= impl_->pipe_from ? pipelined_default(impl_->type) : impl_->policy;
}

DeviceScanSum::~DeviceScanSum() = default;

void DeviceScanSum::run(const void* d_in, void* d_out, std::int64_t n, bool exclusive) {
  Impl& m = *impl_;
  const TilePolicy t = policy_at(n);
  DeviceParams q = m.config.params;
  if (!(t == m.policy)) {  // the default turned pipelined (the same tile size, in other threads x items)
    q.threads = t.threads;
    q.items = t.items;
  }
  const DeviceParams p = level_params(q, n, exclusive);
  m.scratch.rewind();
  TileKnobs knobs{32, static_cast<unsigned>(t.backoff_max_ns), t.prefetch ? 1u : 0u};
  knobs.hold_ns = m.hold_ns;
  knobs.l2_last = t.l2_last ? 1u : 0u;
  knobs.alone = m.algorithm == "tiles-alone" ? 1u : 0u;
  if (t.stages) {  // decoupled look-back or its tiles-alone baseline
    visit_type(m.type, [&](auto v) {
      using T = decltype(v);
      run_pipelined<T>(m.scratch, m.diag.get(), p, knobs, t.reuse_descriptors, t.stages, static_cast<const T*>(d_in),
                       static_cast<T*>(d_out));
    });
    return;
  }
  if (m.algorithm == "decoupled-lookback" && !default_kernel(t, m.type)) {
    if (m.type == ValueType::I32)
      run_policy_of(t, PolicyConfigs{}, m.scratch, m.diag.get(), p, knobs, static_cast<const std::int32_t*>(d_in),
                    static_cast<std::int32_t*>(d_out));
    else
      run_policy_of(t, PolicyConfigs64{}, m.scratch, m.diag.get(), p, knobs, static_cast<const std::int64_t*>(d_in),
                    static_cast<std::int64_t*>(d_out));
    return;
  }
  visit_type(m.type, [&](auto v) {
    using T = decltype(v);
    Launcher<SumOp<T>, NoRecorder> l(m.scratch, m.diag.get(), nullptr, m.algorithm, knobs, t.reuse_descriptors);
    const Buf in{const_cast<void*>(d_in), 0, n}, out{d_out, 1, n};
    if (m.algorithm == "tiles-alone") drive_single_pass<TilesAlone>(l, SumOp<T>{}, p, in, out);
    else drive_device_scan(l, m.algorithm, m.config.block_algorithm, SumOp<T>{}, p, in, out);
  });
}

void DeviceScanSum::check() {
  try {
    check_launch(impl_->algorithm.c_str());
    check_diag(impl_->diag.get(), impl_->algorithm);
  } catch (...) {
    impl_->scratch.epoch = -1;  // a failed run may have left the counter and descriptors anyhow: zero them next time
    throw;
  }
}

}  // namespace gpu

Trace record_device_scan_gpu(const BlockRunConfig& config, const GpuOptions& options) {
  Trace trace;
  const DeviceConfig dc = prepare_device_trace(config, trace, true);
  cuda::begin_gpu_trace(options, trace);
  auto record = [&](auto op) { record_traced<decltype(op)>(config.algorithm, dc, options, trace); };
  if (trace.meta.flags.empty()) visit_op(config.op, config.type, record);
  else if (!visit_segmented_gpu_op(config.op, config.type, record))
    throw std::invalid_argument(segmented_gpu_type_error(config.type));
  return trace;
}

std::vector<Payload> run_device_scan_gpu(const BlockRunConfig& config) {
  check_op_type(config.op, config.type);
  if (!config.flags.empty()) throw std::invalid_argument("segmented scans are traced on the GPU (record_device_scan_gpu)");
  if (config.n < 0 || config.n > kMaxDeviceN)
    throw std::invalid_argument("n = " + std::to_string(config.n) + " is outside 0.." + std::to_string(kMaxDeviceN));
  if (!config.input.empty() && static_cast<std::int64_t>(config.input.size()) != config.n)
    throw std::invalid_argument("the input has " + std::to_string(config.input.size()) + " values but n = " +
                                std::to_string(config.n));
  const DeviceConfig dc = parse_device_config(config.algorithm, config.options, config.type, config.block, true);
  const DeviceParams p = level_params(dc.params, config.n, config.exclusive);
  const std::vector<Payload> input =
      config.input.empty() ? random_input(config.op, config.type, static_cast<std::size_t>(config.n), config.input_seed)
                           : config.input;
  check_op_values(config.op, config.type, input);
  cuda::require_gpu();
  std::vector<Payload> out;
  visit_op(config.op, config.type,
           [&](auto op) { out = run_untraced<decltype(op)>(config.algorithm, dc, p, input); });
  return out;
}

namespace {

// One run of `scan` over n generated small values of T (after a poisoned output), input and output
// `offset` elements past an aligned allocation, checked element by element against the sequential
// sum (which wraps as T does; a float or double sum of these small integers stays exact).
template <class T>
DeviceCheck check_run(gpu::DeviceScanSum& scan, std::int64_t n, bool exclusive, std::uint64_t seed,
                      std::int64_t offset = 0) {
  DeviceCheck result;
  result.n = n;
  if (n == 0) {
    scan.run(nullptr, nullptr, 0, exclusive);
    scan.check();
    return result;
  }
  using Acc = typename std::conditional_t<std::is_integral_v<T>, std::make_unsigned<T>, std::type_identity<T>>::type;
  DeviceArray<T> d_in(n + offset), d_out(n + offset);
  fill_small<<<1024, 256>>>(d_in.get() + offset, n, seed);
  check_launch("fill_small");
  SV_CUDA(cudaMemset(d_out.get(), 0xA5, (n + offset) * sizeof(T)));  // poison: every element must be written
  scan.run(d_in.get() + offset, d_out.get() + offset, n, exclusive);
  scan.check();
  std::vector<T> h_in(n + offset), h_out(n + offset);
  d_in.download(h_in.data(), n + offset);
  d_out.download(h_out.data(), n + offset);
  Acc acc = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const Acc before = acc;
    acc += static_cast<Acc>(h_in[offset + i]);
    const auto expected = static_cast<T>(exclusive ? before : acc);
    if (h_out[offset + i] != expected) {
      if (result.mismatches == 0) result.first_mismatch = i;
      ++result.mismatches;
    }
  }
  return result;
}

}  // namespace

DeviceCheck verify_device_scan_gpu_i32(const std::string& algorithm, const std::map<std::string, std::string>& options,
                                       std::int64_t n, bool exclusive, std::uint64_t seed) {
  if (n < 0 || n > kMaxDeviceN)
    throw std::invalid_argument("n = " + std::to_string(n) + " is outside 0.." + std::to_string(kMaxDeviceN));
  cuda::require_gpu();
  gpu::DeviceScanSum scan(algorithm, options, ValueType::I32);
  return check_run<std::int32_t>(scan, n, exclusive, seed);
}

ClockedRun clock_decoupled_lookback_gpu(std::int64_t n, std::uint64_t seed, int runs,
                                        const std::map<std::string, std::string>& options) {
  if (n < 1 || n > kMaxDeviceN)
    throw std::invalid_argument("n = " + std::to_string(n) + " is outside 1.." + std::to_string(kMaxDeviceN));
  if (runs < 1) throw std::invalid_argument("a clocked run needs at least one run, not " + std::to_string(runs));
  cuda::require_gpu();
  using T = std::int32_t;
  const DeviceConfig dc = parse_device_config("decoupled-lookback", options, ValueType::I32, 0, true);
  const DeviceParams p = level_params(dc.params, n, false);
  check_policy<T>("decoupled-lookback", p);
  DeviceArray<T> d_in(n), d_out(n);
  fill_small<<<1024, 256>>>(d_in.get(), n, seed);
  check_launch("fill_small");
  Scratch scratch;
  DeviceArray<TileDiag> diag(1);
  SV_CUDA(cudaMemset(diag.get(), 0, sizeof(TileDiag)));
  const auto tiles = static_cast<std::size_t>(p.tiles);
  DeviceArray<unsigned long long> times(3 * tiles);
  for (int r = 0; r < runs; ++r) {
    SV_CUDA(cudaMemsetAsync(times.get(), 0, 3 * tiles * sizeof(unsigned long long)));
    SV_CUDA(cudaMemsetAsync(d_out.get(), 0xA5, static_cast<std::size_t>(n) * sizeof(T)));
    scratch.rewind();
    Launcher<SumOp<T>, TileClock> l(scratch, diag.get(), nullptr, "decoupled-lookback", TileKnobs{}, true);
    l.recorder_args({times.get()});
    drive_single_pass<DecoupledLookback>(l, SumOp<T>{}, p, Buf{d_in.get(), 0, n}, Buf{d_out.get(), 1, n});
  }
  check_launch("decoupled-lookback with a clock");
  check_diag(diag.get(), "decoupled-lookback");
  std::vector<unsigned long long> h(3 * tiles);
  times.download(h.data(), h.size());
  ClockedRun run;
  run.tiles.resize(tiles);
  for (std::size_t t = 0; t < tiles; ++t) run.tiles[t] = {h[3 * t], h[3 * t + 1], h[3 * t + 2]};
  std::vector<T> h_in(n), h_out(n);
  d_in.download(h_in.data(), n);
  d_out.download(h_out.data(), n);
  run.check.n = n;
  std::uint32_t acc = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    acc += static_cast<std::uint32_t>(h_in[i]);
    if (h_out[i] != static_cast<T>(acc)) {
      if (run.check.mismatches == 0) run.check.first_mismatch = i;
      ++run.check.mismatches;
    }
  }
  return run;
}

std::vector<PolicyCheck> verify_tile_policies_gpu(ValueType type, const std::vector<std::int64_t>& sizes,
                                                  std::uint64_t seed, const std::map<std::string, std::string>& options,
                                                  std::int64_t offset) {
  if (type == ValueType::Interval)
    throw std::invalid_argument("tile policies are built for numeric sums, not " + std::string(type_name(type)));
  if (offset < 0 || offset > 15) throw std::invalid_argument("offset " + std::to_string(offset) + " is outside 0..15");
  cuda::require_gpu();
  std::vector<gpu::TilePolicy> policies = gpu::experimental_policies(type);
  if (!options.empty())  // the pipelined kernel takes none of the switches
    std::erase_if(policies, [](const gpu::TilePolicy& t) { return t.stages > 0; });
  policies.insert(policies.begin(), gpu::default_policy(type));
  std::vector<PolicyCheck> checks;
  for (const gpu::TilePolicy& policy : policies) {
    gpu::DeviceScanSum scan("decoupled-lookback", options, type, policy);
    for (std::size_t k = 0; k < sizes.size(); ++k) {
      if (sizes[k] < 0 || sizes[k] > kMaxDeviceN)
        throw std::invalid_argument("n = " + std::to_string(sizes[k]) + " is outside 0.." + std::to_string(kMaxDeviceN));
      const bool exclusive = k % 2 == 1;
      visit_type(type, [&](auto v) {
        const DeviceCheck c = check_run<decltype(v)>(scan, sizes[k], exclusive, seed + k, offset);
        checks.push_back({policy.name(), scan.policy_at(sizes[k]).name(), sizes[k], exclusive, c.mismatches});
      });
    }
  }
  return checks;
}

}  // namespace sv
