// Decoupled look-back's sum under the tile configurations built besides the default, to measure
// them (scanviz bench with SCANVIZ_BENCH_POLICIES=1, and the GPU tests), and its clocked runs
// (SCANVIZ_BENCH_PHASES=1): kernels no lesson launches, compiled apart from the others.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gpu/device_runs.cuh"

namespace sv {

namespace gpu {

namespace {

// Decoupled look-back alone, under a tile policy other than the default (for measuring them).
template <class T, class Config>
void run_policy(Scratch& scratch, SinglePassState& state, const DeviceParams& p, TileKnobs knobs, bool reuse,
                const T* in, T* out) {
  Launcher<SumOp<T>, NoRecorder, Config> l(scratch, state, nullptr, "decoupled-lookback", knobs, reuse);
  drive_single_pass<DecoupledLookback>(l, SumOp<T>{}, p, Buf{const_cast<T*>(in), 0, p.n}, Buf{out, 1, p.n});
}

// The default's tile kernel for 8-byte sums where the device holds every tile at once
// (one_wave_policy): 8 items a thread without the register bound, for int64 and double.
using OneWaveConfig = TileConfig<8, false, 1024, 1, true>;
// The one-wave tiles under a bound of 5 or 6 of their 256-thread blocks a multiprocessor (48 and 40
// registers), so that more of them fit on the device at once; and 24 KB tiles under the bound of 6.
using OneWaveBound5Config = TileConfig<8, false, 256, 5, true>;
using OneWaveBound6Config = TileConfig<8, false, 256, 6, true>;
using OneWaveWideConfig = TileConfig<12, false, 256, 6, true>;

// The compile-time tile configurations built for decoupled look-back's int32 and int64 sums besides
// the defaults (each list starts with its type's default, for the run-time variants of it); a
// TilePolicy picks one by its compile-time part (items, hints, register bound, staging). The launch
// bounds are of 1024-thread blocks (min_blocks 2 caps a thread at 32 registers) but for the 8-byte
// one-wave kernels' bounds of 256-thread blocks (TilePolicy::bound_threads).
template <class... Configs>
struct ConfigList {};
using PolicyConfigs = ConfigList<DefaultTileConfig<std::int32_t>,
                                 TileConfig<16, false, 1024, 1, true>,   // the default until 24 items
                                 TileConfig<16, false, 1024, 1, false>,  // ... with the tile in registers
                                 TileConfig<24, true, 1024, 2, true>,    // the default with evict-first hints
                                 TileConfig<32, false, 1024, 2, true>,
                                 TileConfig<24, false, 1024, 2, true, true>,   // persistent blocks
                                 TileConfig<24, false, 1024, 2, true, false, 1>,  // bulk loads
                                 TileConfig<24, false, 1024, 2, true, false, 2>,  // bulk loads and stores
                                 TileConfig<24, false, 1024, 2, true, false, 0, true>>;  // the default, early aggregates
// 8-byte values: besides the default (12 items, 24 KB tiles, 32 registers), the earlier default of
// 8 items unbounded, 8 items bound, 12 unbounded and 32 KB tiles (16 items) bound, 24 items unbounded
// (CUB's sm_90 tiles of 8-byte sums are 224 x 24), early aggregates of some of them, and the one-wave
// tiles bound to 6 blocks a multiprocessor (double: 5 too).
using PolicyConfigs64 = ConfigList<DefaultTileConfig<std::int64_t>,
                                   OneWaveConfig,
                                   TileConfig<8, false, 1024, 2, true>,
                                   TileConfig<12, false, 1024, 1, true>,
                                   TileConfig<16, false, 1024, 2, true>,
                                   TileConfig<24, false, 1024, 1, true>,
                                   TileConfig<12, false, 1024, 2, true, false, 0, true>,
                                   TileConfig<8, false, 1024, 1, true, false, 0, true>,
                                   TileConfig<24, false, 1024, 1, true, false, 0, true>,
                                   OneWaveBound6Config,
                                   OneWaveWideConfig>;

// double: the one-wave kernels, 256 x 8 bound to 5 blocks, and the default's tile kernel (for its
// block-index ids at every n).
using PolicyConfigsF64 =
    ConfigList<OneWaveConfig, OneWaveBound6Config, OneWaveWideConfig, OneWaveBound5Config, DefaultTileConfig<double>>;

template <class Config>
bool policy_is(const TilePolicy& t) {
  return t.items == Config::kItems && t.streaming == Config::kStreaming && t.min_blocks == Config::kMinBlocks &&
         t.bound_threads == Config::kMaxThreads &&
         t.staged == Config::kStaged && t.persistent == Config::kPersistent && t.bulk == Config::kBulk &&
         t.early == Config::kEarly;
}
template <class... Configs>
bool policy_built(const TilePolicy& t, ConfigList<Configs...>) {
  return (policy_is<Configs>(t) || ...);
}
template <class T, class... Configs>
void run_policy_of(const TilePolicy& t, ConfigList<Configs...>, Scratch& scratch, SinglePassState& state,
                   const DeviceParams& p, TileKnobs knobs, const T* in, T* out) {
  // The first configuration that matches runs (exactly one does: the constructor checked it).
  (void)((policy_is<Configs>(t) ? (run_policy<T, Configs>(scratch, state, p, knobs, t.reuse_descriptors, in, out), true)
                                : false) ||
         ...);
}

}  // namespace

// Elements per thread of the pipelined kernel's reduce and store warps for a numeric `type`.
std::int32_t pipe_items_of(ValueType type) {
  return type == ValueType::I64 || type == ValueType::F64 ? gpu::pipe_items<std::int64_t>() : gpu::pipe_items<std::int32_t>();
}


// pipelined policies are built for every numeric type, with 24 KB tiles of 128 threads).
bool policy_built_for(const TilePolicy& t, ValueType type) {
  if (t.gather) {
    const std::vector<TilePolicy> shapes = gather_policies(type);
    return std::find(shapes.begin(), shapes.end(), t) != shapes.end();
  }
  if (t.stages) {
    return t.threads == gpu::kPipeWarps * 32 && t.items == pipe_items_of(type) && t.stages >= gpu::kPipeMinStages &&
           t.stages <= gpu::kPipeMaxStages;
  }
  switch (type) {
    case ValueType::I32: return policy_built(t, PolicyConfigs{});
    case ValueType::I64: return policy_built(t, PolicyConfigs64{});
    case ValueType::F64: return policy_built(t, PolicyConfigsF64{});
    default: return false;
  }
}

void run_policy(const TilePolicy& t, ValueType type, Scratch& scratch, SinglePassState& state, const DeviceParams& p,
                TileKnobs knobs, const void* in, void* out) {
  if (type == ValueType::I32)
    run_policy_of(t, PolicyConfigs{}, scratch, state, p, knobs, static_cast<const std::int32_t*>(in),
                  static_cast<std::int32_t*>(out));
  else if (type == ValueType::I64)
    run_policy_of(t, PolicyConfigs64{}, scratch, state, p, knobs, static_cast<const std::int64_t*>(in),
                  static_cast<std::int64_t*>(out));
  else if (type == ValueType::F64)
    run_policy_of(t, PolicyConfigsF64{}, scratch, state, p, knobs, static_cast<const double*>(in),
                  static_cast<double*>(out));
  else
    throw std::invalid_argument("tile policy " + t.name() + " is not built for " + std::string(type_name(type)));
}

namespace {
template <class T, class Config>
std::int64_t resident_one_wave_tiles(const TilePolicy& t) {
  constexpr auto kernel = tile_pass_kernel<DecoupledLookback, SumOp<T>, NoRecorder, Config>;
  const std::size_t smem = prepare_stage<kernel>(static_cast<std::size_t>(t.threads) * Config::kItems * sizeof(T));
  return resident_blocks<kernel>(t.threads, smem);
}
// The elements of the tiles of t (run under Config) that the current device holds at once.
template <class Config>
std::int64_t one_wave_elements(const TilePolicy& t, ValueType type) {
  if (t.threads == 0) return 0;
  static_assert(Config::kStaged);
  const std::int64_t tiles = type == ValueType::I64 ? resident_one_wave_tiles<std::int64_t, Config>(t)
                                                    : resident_one_wave_tiles<double, Config>(t);
  return tiles * t.threads * t.items;
}
}  // namespace

std::int64_t one_wave_up_to(const TilePolicy& t, ValueType type) {
  if (type != ValueType::I64 && type != ValueType::F64) return 0;
  if (policy_is<OneWaveConfig>(t)) return one_wave_elements<OneWaveConfig>(t, type);
  if (policy_is<OneWaveBound6Config>(t)) return one_wave_elements<OneWaveBound6Config>(t, type);
  if (policy_is<OneWaveWideConfig>(t)) return one_wave_elements<OneWaveWideConfig>(t, type);
  return 0;
}

}  // namespace gpu

using gpu::Launcher;
using gpu::NoRecorder;
using gpu::Scratch;
using gpu::TileClock;
using gpu::SinglePassState;
using gpu::TileKnobs;
using cuda::DeviceArray;
using gpu::check_launch;
using gpu::check_policy;
using gpu::fill_small;

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
  SinglePassState state;
  const auto tiles = static_cast<std::size_t>(p.tiles);
  DeviceArray<unsigned long long> times(3 * tiles);
  for (int r = 0; r < runs; ++r) {
    SV_CUDA(cudaMemsetAsync(times.get(), 0, 3 * tiles * sizeof(unsigned long long)));
    SV_CUDA(cudaMemsetAsync(d_out.get(), 0xA5, static_cast<std::size_t>(n) * sizeof(T)));
    scratch.rewind();
    Launcher<SumOp<T>, TileClock> l(scratch, state, nullptr, "decoupled-lookback", TileKnobs{}, true);
    l.recorder_args({times.get()});
    drive_single_pass<DecoupledLookback>(l, SumOp<T>{}, p, Buf{d_in.get(), 0, n}, Buf{d_out.get(), 1, n});
  }
  check_launch("decoupled-lookback with a clock");
  state.check("decoupled-lookback");
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

}  // namespace sv
