// The launcher that drive_device_scan (device/all.hpp) runs on a CUDA device: alloc = device memory;
// single_pass_state = the tile counter and the descriptors of a SinglePassState, all X;
// launch<Pass> = tile_pass_kernel (gpu/tile_exec.cuh) on one block per tile; block_scan = the
// block-level kernels of kernels/block/, untraced, one block per tile. Traced, it keeps a snapshot
// of every global buffer after each launch. Shared by the compilation units of the device-wide
// scans (device_executor.cu, device_runs_impl.cuh, device_policies.cu).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/values.hpp"
#include "device/all.hpp"
#include "device/device_options.hpp"
#include "gpu/cuda_util.cuh"
#include "gpu/executor.hpp"
#include "gpu/pipeline_exec.cuh"
#include "gpu/single_pass_state.cuh"
#include "gpu/tile_exec.cuh"

namespace sv::gpu {

using cuda::check;
using cuda::check_launch;
using cuda::DeviceArray;

// Device memory handed out in the order a run asks for it, kept for the next run (the benchmark
// times runs, not cudaMalloc). The single-pass scans' state is a SinglePassState's.
class Scratch {
 public:
  void rewind() { next_ = 0; }
  void* take(std::size_t bytes) {
    if (next_ == blocks_.size()) blocks_.emplace_back();
    Block& b = blocks_[next_++];
    if (b.bytes < bytes) {
      b.mem.reset();
      b.mem = std::make_unique<DeviceArray<unsigned char>>(bytes);
      b.bytes = bytes;
    }
    return b.mem ? b.mem->get() : nullptr;
  }

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

// A baseline of the benchmark, not a scan (DeviceScanSum "tiles-alone"): each tile scanned on its
// own, its id taken, loaded, scanned and stored as decoupled look-back does it but with no
// descriptor and no look-back, so its time is what the tile kernel's loads and stores cost alone
// (docs/performance.md compares the two). From the default's switch up (policy_at) it runs the pipelined kernel with its look-back skipped
// (TileKnobs::alone), so that it is the default's baseline at every n.
// With a hold (DeviceScanSum option hold=NS, TileKnobs::hold_ns) thread 0 waits that long before
// the tile is stored: a tile held as long as the scan holds one, without the chain of prefixes.
struct TilesAlone {
  template <class X, class Op>
  __device__ static void run(X& x, Op op, const DeviceParams& p, const DeviceBuffers& b) {
    const std::int64_t tile = x.take_tile(p, b);
    auto items = x.template load_tile<typename Op::value_type>(op, b.in, tile, p);
    (void)x.reduce_tile(op, items);
    if (const unsigned hold = x.hold_ns()) {
      if (x.thread() == 0) {
        const std::uint64_t t0 = global_timer_ns();
        while (global_timer_ns() - t0 < hold) __nanosleep(256);
      }
      (void)x.broadcast(0);
    }
    x.scan_store_tile(op, items, op.identity(), b.out, tile, p);
  }
};

// The passes that scan tiles (and so use a staged configuration's shared memory): all but those
// that say otherwise (Pass::kScansTiles false, as hierarchical's own passes).
template <class Pass>
constexpr bool kScansTiles = true;
template <class Pass>
  requires requires { Pass::kScansTiles; }
constexpr bool kScansTiles<Pass> = Pass::kScansTiles;

// The configuration a pass runs under: the register bound only for the single-pass scans, where it
// was measured to pay (more tiles in flight); the multi-pass kernels spilled under it (ptxas -v shows
// it for reduce-then-scan's second pass), so they run unbounded.
template <class Pass>
constexpr bool kSinglePass = SinglePassTilePass<Pass> || std::is_same_v<Pass, TilesAlone>;
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

template <class Op, class Rec, class Config = DefaultTileConfig<typename Op::value_type>>
class Launcher {
 public:
  using T = typename Op::value_type;

  // reuse_descriptors: keep the descriptors from run to run under a new epoch instead of zeroing
  // them before each (TileKnobs::epoch), which saves the memset's launch.
  Launcher(Scratch& scratch, SinglePassState& state, TraceBook<T>* book, std::string_view algorithm,
           TileKnobs knobs = {}, bool reuse_descriptors = false)
      : scratch_(scratch), state_(state), book_(book), algorithm_(algorithm), knobs_(knobs),
        reuse_descriptors_(reuse_descriptors) {}

  Buf alloc(std::string name, std::int64_t length) {
    Buf b{scratch_.take(static_cast<std::size_t>(length) * sizeof(T)), -1, length};
    if (book_) {
      b.id = static_cast<int>(book_->buffers.size());
      book_->buffers.push_back({std::move(name), static_cast<const T*>(b.ptr), length, std::vector<std::uint8_t>(length, 0)});
    }
    return b;
  }

  // The counter and the descriptors, all X to this run (SinglePassState::prepare).
  DeviceBuffers single_pass_state(const DeviceParams& p) {
    return state_.prepare(SinglePassState::layout_of<T>(p), reuse_descriptors_, knobs_);
  }

  // What an untraced recorder gets (TileClock: where its times go).
  void recorder_args(const typename Rec::Args& a) { rec_args_ = a; }

  // A single-pass launch whose tiles the device holds all at once takes its tile ids from the block
  // index instead of the counter (the default's runs): every block of it becomes resident whatever
  // order they start in, so no tile waits on one that cannot start, and the id's round trip through
  // L2 before the first load is saved (docs/performance.md, "Tile ids from the block index").
  void static_ids_where_resident() { static_where_resident_ = true; }

  template <class Pass>
  void launch(Phase phase, int level, Op op, const DeviceParams& given, std::int64_t grid, const DeviceBuffers& b) {
    if (grid <= 0) return;
    DeviceParams p = given;
    if (grid > 0x7fffffff) throw GpuError("a grid of " + std::to_string(grid) + " blocks is more than CUDA launches");
    typename Rec::Args args = rec_args_;
    if constexpr (Rec::kTraced) args = {book_->d_state, static_cast<std::uint16_t>(book_->launches.size())};
    if (p.threads > Config::kMaxThreads)
      throw std::invalid_argument("block size " + std::to_string(p.threads) + " is over this tile kernel's bound of " +
                                  std::to_string(Config::kMaxThreads));
    using C = PassConfig<Pass, Config>;
    auto kernel = tile_pass_kernel<Pass, Op, Rec, C>;
    constexpr bool persistent_kernel = tile_kernel_persistent<C, Rec>();
    const bool persistent = persistent_kernel && p.dynamic_ids;
    std::size_t smem = 0;
    if constexpr (C::kStaged && kScansTiles<Pass>)
      smem = prepare_stage<tile_pass_kernel<Pass, Op, Rec, C>>(static_cast<std::size_t>(p.threads) * C::kItems *
                                                                    sizeof(T));
    if (persistent)
      grid = std::min<std::int64_t>(grid, resident_blocks<tile_pass_kernel<Pass, Op, Rec, C>>(p.threads, smem));
    else if (static_where_resident_ && kSinglePass<Pass> && p.dynamic_ids &&
             grid <= resident_blocks<tile_pass_kernel<Pass, Op, Rec, C>>(p.threads, smem))
      p.dynamic_ids = false;
    kernel<<<static_cast<unsigned>(grid), static_cast<unsigned>(p.threads), smem, state_.stream()>>>(op, p, b, args,
                                                                                                 state_.diag(), knobs_);
    check(cudaGetLastError(), "device-wide scan launch");
    // Each block takes one tile id; a persistent block its tiles and one past the end (TileExec).
    if (kSinglePass<Pass> && p.dynamic_ids) state_.taken(static_cast<unsigned long long>(grid + (persistent ? p.tiles : 0)));
    if (book_) {
      const bool sums = phase == Phase::TileSums || phase == Phase::ReduceTiles;
      written(sums ? b.sums : b.out, sums ? p.tiles : p.n);
      after_launch(phase, level);
    }
  }

  // Pipelined decoupled look-back (gpu/pipeline_exec.cuh) over single_pass_state's buffers: the
  // blocks the device holds at once (one a multiprocessor; at most `max_blocks` when > 0), `stages`
  // tiles each. Every block takes its tiles and one id past the end.
  void launch_pipelined(Op op, const DeviceParams& p, const DeviceBuffers& b, int stages, std::int64_t max_blocks = 0) {
    if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
      if (p.tiles == 0) return;
      if (stages < kPipeMinStages || stages > kPipeMaxStages)
        throw std::invalid_argument("a pipelined tile kernel holds " + std::to_string(kPipeMinStages) + " to " +
                                    std::to_string(kPipeMaxStages) + " tiles a block, not " + std::to_string(stages));
      if (p.tile_items() != pipe_tile_items<T>() || !p.dynamic_ids || !p.fence)
        throw std::invalid_argument("the pipelined tile kernel scans tiles of " + std::to_string(pipe_tile_items<T>()) +
                                    " values with dynamic tile ids and the fence on");
      constexpr auto kernel = pipe_kernel<Op, Rec>;
      const std::size_t smem =
          prepare_stage<kernel>(static_cast<std::size_t>(stages) * pipe_tile_items<T>() * sizeof(T));
      std::int64_t grid = std::min<std::int64_t>(p.tiles, resident_blocks<kernel>(kPipeThreads, smem));
      if (max_blocks > 0) grid = std::min(grid, max_blocks);
      typename Rec::Args args = rec_args_;
      if constexpr (Rec::kTraced) args = {book_->d_state, static_cast<std::uint16_t>(book_->launches.size())};
      kernel<<<static_cast<unsigned>(grid), kPipeThreads, smem, state_.stream()>>>(op, p, b, args, state_.diag(), knobs_,
                                                                              stages);
      check(cudaGetLastError(), "pipelined decoupled look-back launch");
      state_.taken(static_cast<unsigned long long>(grid + p.tiles));
      if (book_) {
        written(b.out, p.n);
        after_launch(Phase::SinglePass, 0);
      }
    } else {
      throw std::invalid_argument("the pipelined tile kernel scans 4- and 8-byte values");
    }
  }

  void block_scan(std::string_view algo, Op, const DeviceParams& p, Buf in, Buf out, int level) {
    const BlockParams bp{p.n, static_cast<std::int32_t>(p.tile_items()), false};
    launch_block_scan(algo, Op::kind, value_type_of<T>(), in.ptr, out.ptr, bp, p.tiles, p.threads);
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
    state_.check(algorithm_);
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
  SinglePassState& state_;
  TraceBook<T>* book_;
  std::string_view algorithm_;
  TileKnobs knobs_;
  bool reuse_descriptors_ = false;
  bool static_where_resident_ = false;
  typename Rec::Args rec_args_{};
};




// The tile kernels are built for one items-per-thread per type; the switches' parser knows it too.
template <class T>
void check_policy(const std::string& algorithm, const DeviceParams& p) {
  const DeviceAlgorithmInfo* row = find_device_algorithm(algorithm);
  if (row && row->block_tiles) return;  // a block algorithm's tiles, not the tile kernels' ones
  if (p.items != tile_items_per_thread<T>())
    throw std::invalid_argument("the GPU tile kernels are built for " + std::to_string(tile_items_per_thread<T>()) +
                                " items per thread with this type, not " + std::to_string(p.items));
  if (p.threads % 32 != 0 || p.threads < 32 || p.threads > 1024)
    throw std::invalid_argument("block size " + std::to_string(p.threads) +
                                ": the GPU tile kernels need a multiple of 32 up to 1024");
}

// Small values (-3..3) keep integer sums of any length exact enough to check cheaply (a wrapped
// int32 sum wraps the same way on the host).
template <class T>
__global__ void fill_small(T* d, std::int64_t n, std::uint64_t seed) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    d[i] = static_cast<T>(static_cast<std::int32_t>(splitmix64(seed ^ static_cast<std::uint64_t>(i)) % 7) - 3);
}

// Calls f(T{}) for the numeric type `type` (the sums the benchmark times).
template <class F>
void visit_type(ValueType type, F&& f) {
  if (type == ValueType::Interval) throw std::invalid_argument("a device-wide sum needs a numeric type");
  visit_value_type(type, [&](auto v) {
    if constexpr (!std::is_same_v<decltype(v), Interval>) f(v);
  });
}

}  // namespace sv::gpu
