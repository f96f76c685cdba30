// The device-wide scans on a CUDA device: the dispatch of record_device_scan_gpu to the kernels of
// each value type (gpu/device_runs.cuh), DeviceScanSum (the benchmark's, the timing panel's and the
// large-n checks' sums) with its tile policies, and the checks of those sums.
// The kernels are instantiated elsewhere: per value type in generated compilation units, the
// measured tile policies in device_policies.cu.
//
// [SECTION] where the pipelined kernel runs
// [SECTION] tile policies and DeviceScanSum
// [SECTION] traced runs of every operator
// [SECTION] checks of the sums
#include <cuda_runtime.h>

#include <charconv>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/segments.hpp"
#include "run/prepare.hpp"
#include "gpu/device_runs.cuh"

namespace sv {

using cuda::check;
using cuda::check_launch;
using cuda::DeviceArray;
using gpu::check_policy;
using gpu::fill_small;
using gpu::DefaultTileConfig;
using gpu::pipe_items_of;
using gpu::policy_built_for;
using gpu::SinglePassState;
using gpu::TileKnobs;
using gpu::visit_type;

namespace {

// ============================================================================================
// [SECTION] where the pipelined kernel runs
// ============================================================================================

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

// pipelined_capacity of `type` on the current device: 0 where it does not run the pipelined kernel.
std::int64_t pipelined_capacity_of(ValueType type, int stages) {
  if (!pipelined_here()) return 0;
  std::int64_t n = 0;
  visit_type(type, [&](auto v) { n = gpu::DeviceSums<decltype(v)>::pipelined_capacity(stages); });
  return n;
}

// Whether decoupled look-back's switches are all at their defaults, as the pipelined kernel takes them.
bool default_switches(const DeviceParams& q) {
  return q.dynamic_ids && q.fence && q.window == DeviceParams{}.window && !q.share && q.stall_tile < 0 && !q.deterministic;
}

// Whether `t` runs the default's kernel for `type` (it may differ in the run-time knob l2_last, and
// stay on that kernel at every n).
bool default_kernel(gpu::TilePolicy t, ValueType type) {
  t.l2_last = gpu::default_policy(type).l2_last;
  t.tiles_only = false;
  return t == gpu::default_policy(type);
}

}  // namespace


// ============================================================================================
// [SECTION] tile policies and DeviceScanSum
// ============================================================================================

namespace gpu {

// The default policy is the default configuration of 4-byte values.
static_assert(TilePolicy{}.items == DefaultTileConfig<std::int32_t>::kItems &&
                  TilePolicy{}.streaming == DefaultTileConfig<std::int32_t>::kStreaming &&
                  TilePolicy{}.min_blocks == DefaultTileConfig<std::int32_t>::kMinBlocks &&
                  TilePolicy{}.staged == DefaultTileConfig<std::int32_t>::kStaged && TilePolicy{}.prefetch &&
                  TilePolicy{}.early == DefaultTileConfig<std::int32_t>::kEarly && TilePolicy{}.threads == kTileThreads,
              "TilePolicy's defaults must describe DefaultTileConfig<int32>");

std::string TilePolicy::name() const {
  std::string s = std::to_string(threads) + "x" + std::to_string(items);
  if (gather) return s + " gather";
  const std::string l2 = l2_last ? " L2last" : "";
  if (stages) return s + " pipe" + std::to_string(stages) + (reuse_descriptors ? "" : " memset") + l2 + " sleep" +
                     std::to_string(backoff_max_ns);
  if (streaming) s += " cs";
  if (bound_threads != 1024) s += " min" + std::to_string(min_blocks) + "of" + std::to_string(bound_threads);
  else if (min_blocks > 1) s += " min" + std::to_string(min_blocks);
  s += staged ? " staged" : " regs";
  if (!prefetch) s += " no-prefetch";
  if (!reuse_descriptors) s += " memset";
  if (persistent) s += " persist";
  if (bulk) s += bulk > 1 ? " bulk-store" : " bulk";
  if (static_ids) s += " static-ids";
  if (early) s += " early";
  return s + l2 + " sleep" + std::to_string(backoff_max_ns) + (tiles_only ? " tiles-only" : "");
}

TilePolicy default_policy(ValueType type) {
  if (type != ValueType::I64 && type != ValueType::F64) return TilePolicy{};
  TilePolicy t;
  t.items = DefaultTileConfig<std::int64_t>::kItems;
  t.min_blocks = DefaultTileConfig<std::int64_t>::kMinBlocks;
  t.early = DefaultTileConfig<std::int64_t>::kEarly;
  return t;
}

TilePolicy one_wave_policy(ValueType type) {
  TilePolicy t{256, 8, false, 1, 256, true, true};
  t.static_ids = true;
  if (type != ValueType::I64 && type != ValueType::F64) t.threads = 0;
  return t;
}

std::vector<TilePolicy> one_wave_policies(ValueType type) {
  const TilePolicy w = one_wave_policy(type);
  if (w.threads == 0) return {};
  TilePolicy bound = w;  // 6 blocks a multiprocessor
  bound.bound_threads = 256;
  bound.min_blocks = 6;
  TilePolicy wide = bound;  // ... of 24 KB tiles
  wide.items = 12;
  return {w, bound, wide};
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
  return n > 0 ? n / kPipeMaxStages * pipelined_from_tiles(type) : INT64_MAX;
}

namespace {
// The gather kernel's shapes (threads, 16-byte vectors a thread); the first is the default's.
constexpr std::pair<std::int32_t, std::int32_t> kGatherShapes[] = {{512, 1}, {128, 1}, {256, 1}, {256, 2},
                                                                   {512, 2}, {512, 4}, {1024, 4}};
TilePolicy gather_shape(ValueType type, std::pair<std::int32_t, std::int32_t> shape) {
  TilePolicy t;
  t.threads = shape.first;
  t.items = shape.second * (type == ValueType::I64 || type == ValueType::F64 ? 2 : 4);  // values in 16 bytes
  t.gather = true;
  return t;
}
}  // namespace

std::vector<TilePolicy> gather_policies(ValueType type) {
  std::vector<TilePolicy> p;
  for (const auto& shape : kGatherShapes) p.push_back(gather_shape(type, shape));
  return p;
}

TilePolicy gather_policy_at(std::int64_t n, ValueType type) {
  TilePolicy t = gather_shape(type, kGatherShapes[0]);
  const std::int64_t tile = std::int64_t{t.threads} * t.items;
  if ((n + tile / 2 - 1) / (tile / 2) <= kGatherSmallTiles) t.threads /= 2;  // 256 threads
  else if ((n + tile - 1) / tile > kGatherMaxTiles) t.threads = 0;
  return t;
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
  // The gather kernel in each of its shapes: every numeric type.
  for (const TilePolicy& t : gather_policies(type)) v.push_back(t);
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
    // The default's kernel in 128- and 512-thread blocks (12 and 48 KB tiles; CUB's sm_90 tiles of
    // 8-byte sums are 224 x 24, 42 KB).
    v.push_back({128, 12, false, 2, 256, true, true});
    v.push_back({512, 12, false, 2, 256, true, true});
    // CUB's shape (224 x 24, 42 KB tiles), unbounded; and early
    // aggregates of the default, of 256 x 8 unbounded and of CUB's shape.
    v.push_back({224, 24, false, 1, 256, true, true});
    for (TilePolicy t : {default_policy(type), TilePolicy{256, 8, false, 1, 256, true, true},
                         TilePolicy{224, 24, false, 1, 256, true, true}}) {
      t.early = true;
      v.push_back(t);
    }
    // Tile ids from the block index (no counter), of the default and of 256 x 8 unbounded (the
    // default's tiles in one wave).
    TilePolicy static_ids = default_policy(type);
    static_ids.static_ids = true;
    v.push_back(static_ids);
    v.push_back(one_wave_policy(type));
  }
  if (type == ValueType::I64 || type == ValueType::F64) {
    // The one-wave kernels at every n, each also polling without sleeping (CUB's sm_90 look-back of
    // 8-byte sums never sleeps below 500 blocks), as are the default's tiles with block-index ids;
    // 256 x 8 bound to 5 blocks a multiprocessor (double), to 8 (the 32-register bound, int64), and
    // CUB's tile with block-index ids (int64).
    const std::vector<TilePolicy> rungs = one_wave_policies(type);
    const TilePolicy w = rungs[0];
    std::vector<TilePolicy> ids = rungs;
    if (type == ValueType::F64) {
      TilePolicy b = rungs[1];
      b.min_blocks = 5;
      ids.push_back(b);
    }
    if (type == ValueType::I64) {
      TilePolicy b = w;
      b.min_blocks = 2;
      ids.push_back(b);
      TilePolicy c{224, 24, false, 1, 256, true, true};
      c.static_ids = true;
      ids.push_back(c);
    }
    TilePolicy d = default_policy(type);
    d.static_ids = true;
    ids.push_back(d);
    TilePolicy counter = rungs[1];  // the bound tiles with ids from the counter
    counter.static_ids = false;
    v.push_back(counter);
    for (TilePolicy t : ids) {
      if (!(type == ValueType::I64 && (t == w || t == d))) v.push_back(t);
      t.backoff_max_ns = 0;
      v.push_back(t);
    }
    if (type == ValueType::I64) return v;
  }
  if (type != ValueType::I32) return v;
  // threads items  cs   minb sleep staged prefetch
  v.push_back({128, 24, false, 2, 256, true, true});   // the default's kernel in 128-thread blocks at every n
  v.push_back({64, 16, false, 1, 256, true, true});    // 4 KB tiles
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
  v.push_back({192, 32, false, 2, 256, true, true});
  v.push_back({256, 24, false, 2, 256, true, true, false});  // the default with a memset of the descriptors a run
  v.push_back({512, 24, true, 2, 256, true, true});          // 512-thread blocks with evict-first hints
  TilePolicy early;  // the default with early aggregates (TileConfig::kEarly)
  early.early = true;
  v.push_back(early);
  // Persistent blocks (the grid the device holds at once, the next tile's copies issued with the
  // stores; measured slower, see TileConfig): the default's shape, 512-thread blocks, no prefetch.
  // threads items  cs   minb sleep staged prefetch reuse persist
  v.push_back({256, 24, false, 2, 256, true, true, true, true});
  v.push_back({512, 24, false, 2, 256, true, true, true, true});
  v.push_back({256, 24, false, 2, 256, true, false, true, true});  // ... without the first tile's L2 prefetch
  // Bulk copies (sm_90 on; cp.async.bulk, see gpu/ptx.cuh): the loads, or loads and stores, in
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
  // decoupled look-back's default: one_wave_policies, each up to the n beside it
  std::vector<std::pair<std::int64_t, TilePolicy>> one_wave;
  // The default with its switches left alone: the gather kernel where gather_policy_at gives one, and
  // the tile kernel's ids from the block index where its tiles fit on the device at once.
  bool switches = false;
  unsigned hold_ns = 0;  // tiles-alone
  bool tuned = false;    // the algorithm's row has the GPU's tile policies (GpuTilePolicies)
  Scratch scratch;
  SinglePassState state;
  std::int64_t stall_tile = -1, stall_ns = 0;  // stall_next_run_for_test
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
  const bool floor = algorithm == "ordering-floor";  // the baseline: the look-back's waits, no scan
  const std::string scan = alone || floor ? "decoupled-lookback" : algorithm;  // whose switches and tiles it takes
  const DeviceAlgorithmInfo* row = find_device_algorithm(algorithm);
  impl_->tuned = row && row->gpu_tile_policies;  // the measured tile policies are built for it
  std::map<std::string, std::string> switches = options;
  if (const auto h = switches.find("hold"); alone && h != switches.end()) {
    impl_->hold_ns = parse_hold_ns(h->second);
    switches.erase(h);
  }
  impl_->config = parse_device_config(scan, switches, type, 0, true);
  if (policy == TilePolicy{}) policy = default_policy(type);  // the type's default
  if (floor && !policy.gather)
    throw std::invalid_argument("ordering-floor runs a gather policy only, not " + policy.name());
  if (alone && !(policy == default_policy(type)) && !policy.gather)
    throw std::invalid_argument("tiles-alone runs the default tile policy or a gather policy only, not " + policy.name());
  impl_->policy = policy;
  // deterministic=on's tile tree is the default tile kernel's (device/decoupled_lookback_fixed.hpp).
  if (impl_->config.params.deterministic && !(policy == default_policy(type)))
    throw std::invalid_argument("option deterministic=on runs the default tile policy only, not " + policy.name());
  if (!default_kernel(policy, type)) {
    if (!policy_built_for(policy, type) || (!impl_->tuned && !((alone || floor) && policy.gather)))
      throw std::invalid_argument("tile policy " + policy.name() + " is not built for " + algorithm + " on " +
                                  std::string(type_name(type)));
    if (policy.gather && (!default_switches(impl_->config.params) || impl_->hold_ns))
      throw std::invalid_argument("tile policy " + policy.name() + " takes none of decoupled-lookback's switches");
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
    // tiles-alone follows the default's switches, to be its baseline at every n (not with a hold: the
    // pipelined and gather kernels have none).
    const bool switches_kernel = impl_->tuned || (alone && impl_->hold_ns == 0);
    if (switches_kernel && policy == default_policy(type) && default_switches(impl_->config.params)) {
      impl_->pipe_from = pipelined_from(type);
      impl_->switches = true;
      // 8-byte sums in one wave (not tiles-alone, whose baseline is the default's tile kernel).
      if (impl_->tuned)
        for (const TilePolicy& t : one_wave_policies(type)) impl_->one_wave.emplace_back(one_wave_up_to(t, type), t);
    }
  }
}

TilePolicy DeviceScanSum::policy_at(std::int64_t n) const {
  if (n >= impl_->pipe_from) return pipelined_default(impl_->type);
  // A run with a stall pending (stall_next_run_for_test) takes the tile kernel, which has the hook.
  if (impl_->switches && impl_->stall_tile < 0)
    if (const TilePolicy g = gather_policy_at(n, impl_->type); g.threads > 0) return g;
  if (impl_->stall_tile < 0)
    for (const auto& [up_to, t] : impl_->one_wave)
      if (n <= up_to) return t;
  return impl_->policy;
}

DeviceScanSum::~DeviceScanSum() = default;

void DeviceScanSum::run(const void* d_in, void* d_out, std::int64_t n, bool exclusive) {
  Impl& m = *impl_;
  const TilePolicy t = policy_at(n);
  DeviceParams q = m.config.params;
  if (!(t == m.policy)) {  // the default turned pipelined or one-wave (policy_at)
    q.threads = t.threads;
    q.items = t.items;
    if (t.static_ids) q.dynamic_ids = false;
  }
  if (m.stall_tile >= 0) {  // one run only
    q.stall_tile = std::exchange(m.stall_tile, -1);
    q.stall_cycles = m.stall_ns;
  }
  if (t.gather) {
    visit_type(m.type, [&](auto v) {
      const GatherRun what = m.algorithm == "tiles-alone"      ? GatherRun::alone
                             : m.algorithm == "ordering-floor" ? GatherRun::ordered
                                                               : GatherRun::scan;
      DeviceSums<decltype(v)>::run_gather(m.state, n, exclusive, t.threads, t.items, what, d_in, d_out);
    });
    return;
  }
  const DeviceParams p = level_params(q, n, exclusive);
  m.scratch.rewind();
  TileKnobs knobs{32, static_cast<unsigned>(t.backoff_max_ns), t.prefetch ? 1u : 0u};
  knobs.hold_ns = m.hold_ns;
  knobs.l2_last = t.l2_last ? 1u : 0u;
  knobs.alone = m.algorithm == "tiles-alone" ? 1u : 0u;
  if (t.stages) {  // decoupled look-back or its tiles-alone baseline
    visit_type(m.type, [&](auto v) {
      DeviceSums<decltype(v)>::run_pipelined(m.scratch, m.state, p, knobs, t.reuse_descriptors, t.stages, d_in, d_out);
    });
    return;
  }
  if (m.tuned && !default_kernel(t, m.type)) {
    run_policy(t, m.type, m.scratch, m.state, p, knobs, d_in, d_out);
    return;
  }
  visit_type(m.type, [&](auto v) {
    DeviceSums<decltype(v)>::run(m.scratch, m.state, m.algorithm, m.config.block_algorithm, p, knobs,
                                 t.reuse_descriptors, m.switches, d_in, d_out);
  });
}

void DeviceScanSum::check() {
  try {
    check_launch(impl_->algorithm.c_str());
  } catch (...) {
    impl_->state.invalidate();  // a failed launch may have left the counter and descriptors anyhow
    throw;
  }
  impl_->state.check(impl_->algorithm);
}

void DeviceScanSum::set_stream(cudaStream_t stream) { impl_->state.set_stream(stream); }

void DeviceScanSum::stall_next_run_for_test(std::int64_t tile, std::int64_t ns) {
  impl_->stall_tile = tile;
  impl_->stall_ns = ns;
}
void DeviceScanSum::start_epoch_for_test(unsigned long long next) { impl_->state.start_epoch_for_test(next); }
void DeviceScanSum::skew_tile_ids_for_test(long long skew) { impl_->state.skew_count_for_test(skew); }
long long DeviceScanSum::epoch() const { return impl_->state.epoch(); }

}  // namespace gpu

// ============================================================================================
// [SECTION] traced runs of every operator
// ============================================================================================

Trace record_device_scan_gpu(const BlockRunConfig& config, const GpuOptions& options) {
  Trace trace;
  const DeviceConfig dc = prepare_device_trace(config, trace, true);
  cuda::begin_gpu_trace(options, trace);
  visit_value_type(config.type, [&](auto v) {
    gpu::DeviceTracedRuns<decltype(v)>::record(config.op, !trace.meta.flags.empty(), config.algorithm, dc, options, trace);
  });
  return trace;
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

std::vector<ScannerResult> run_scanner_gpu(const std::map<std::string, std::string>& options,
                                           const std::vector<ScannerStep>& steps) {
  cuda::require_gpu();
  gpu::DeviceScanSum scan("decoupled-lookback", options, ValueType::I32);
  std::vector<ScannerResult> results;
  for (const ScannerStep& step : steps) {
    const auto n = static_cast<std::int64_t>(step.input.size());
    if (n < 1 || n > kMaxDeviceN) throw std::invalid_argument("a scanner step of " + std::to_string(n) + " elements");
    DeviceArray<std::int32_t> d_in(n), d_out(n);
    d_in.upload(step.input.data(), n);
    SV_CUDA(cudaMemset(d_out.get(), 0xA5, n * sizeof(std::int32_t)));
    if (step.stall_tile >= 0) scan.stall_next_run_for_test(step.stall_tile, step.stall_ns);
    if (step.start_epoch > 0) scan.start_epoch_for_test(step.start_epoch);
    ScannerResult r;
    scan.run(d_in.get(), d_out.get(), n);
    r.epoch = scan.epoch();
    if (step.skew) scan.skew_tile_ids_for_test(step.skew);
    try {
      scan.check();
    } catch (const GpuError& e) {
      r.error = e.what();
    }
    r.output.resize(n);
    d_out.download(r.output.data(), n);
    results.push_back(std::move(r));
  }
  return results;
}

std::vector<PolicyCheck> verify_tile_policies_gpu(ValueType type, const std::vector<std::int64_t>& sizes,
                                                  std::uint64_t seed, const std::map<std::string, std::string>& options,
                                                  std::int64_t offset) {
  if (type == ValueType::Interval)
    throw std::invalid_argument("tile policies are built for numeric sums, not " + std::string(type_name(type)));
  if (offset < 0 || offset > 15) throw std::invalid_argument("offset " + std::to_string(offset) + " is outside 0..15");
  cuda::require_gpu();
  std::vector<gpu::TilePolicy> policies = gpu::experimental_policies(type);
  if (!options.empty())  // the pipelined and gather kernels take none of the switches
    std::erase_if(policies, [](const gpu::TilePolicy& t) { return t.stages > 0 || t.gather; });
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

std::vector<DeviceCheck> stress_descriptors_gpu(ValueType type, std::int64_t n, int runs, std::uint64_t seed) {
  if (type != ValueType::I64 && type != ValueType::F64)
    throw std::invalid_argument(std::string(type_name(type)) + " descriptors are not 16 bytes (int64 or double are)");
  if (n < 1 || n > kMaxDeviceN)
    throw std::invalid_argument("n = " + std::to_string(n) + " is outside 1.." + std::to_string(kMaxDeviceN));
  if (runs < 1) throw std::invalid_argument(std::to_string(runs) + " runs");
  cuda::require_gpu();
  gpu::DeviceScanSum scan("decoupled-lookback", {}, type);
  std::vector<DeviceCheck> checks;
  visit_type(type, [&](auto v) {
    for (int r = 0; r < runs; ++r) checks.push_back(check_run<decltype(v)>(scan, n, false, seed + r));
  });
  return checks;
}

}  // namespace sv
