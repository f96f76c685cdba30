// `scanviz bench`: CUDA-event timing of device-wide scans and the baselines (CUB, a copy).
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string_view>
#include <type_traits>

#include "tile_times.hpp"
#include "block/block_params.hpp"
#include "device/device_options.hpp"
#include "gpu/bench.hpp"
#include "gpu/cuda_util.cuh"

namespace sv {

namespace {

// Per size: input and output buffer pairs holding this much together (over 4x the largest L2, the
// H200's 60 MB), so that a graph's launches, each on the next pair, find their inputs in DRAM as an
// application's would from 2^16 up (256 launches of 2^16 int32 values span 128 MiB).
constexpr std::size_t kRotationBytes = 256u << 20;
// Back to back: a round's graph holds enough launches to move about this many bytes (read + write),
// from kMinGraphLaunches (the largest sizes) to kMaxGraphLaunches (small sizes, whose launches
// then span over 100 MB of inputs and outputs from 2^16 up).
constexpr double kGraphBytes = 8.0 * (1u << 30);
constexpr int kMinGraphLaunches = 8, kMaxGraphLaunches = 256;
// The largest piece of a copy in a graph (see the copy's row below).
constexpr std::size_t kGraphCopyBytes = 128u << 20;

// One measured algorithm: runs on (d_in, d_out, n) on a stream (0: the default stream); check
// (optional) throws GpuError for a failure the launch itself does not report (a look-back wait that
// ran out). graph: its runs can be captured into a CUDA graph (every launch on the stream given).
template <class Item>
struct Candidate {
  std::string name;
  std::function<void(const Item*, Item*, std::int64_t, cudaStream_t)> run;
  std::function<void()> check;
  std::int64_t alone_tile = 0;  // the tiles-alone baseline: each tile's own scan, of this many values
  bool graph = false;
  bool writes = true;  // false: the empty kernel, which writes nothing and is not checked
  bool copies = false;  // its output is its input: the copies and the ordering floor
};

// The launch floor (SCANVIZ_BENCH_POLICIES=empty): a kernel that does nothing, in the grid and block
// the gather kernel takes at 2^16 4-byte values on 132 multiprocessors.
__global__ void empty_kernel() {}
// A copy as a kernel (SCANVIZ_BENCH_POLICIES=empty): one 16-byte vector a thread, 256 threads a block,
// the shape of the gather kernel's tiles; what a kernel's loads and stores cost without a scan.
template <class Item>
__global__ void copy_kernel(const Item* __restrict__ in, Item* __restrict__ out, std::int64_t n) {
  constexpr int kVec = 16 / sizeof(Item);
  struct alignas(16) Vector {
    Item v[kVec];
  };
  const std::int64_t first = (blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) * kVec;
  if (first + kVec <= n) {
    reinterpret_cast<Vector*>(out + first)[0] = reinterpret_cast<const Vector*>(in + first)[0];
  } else {
    for (std::int64_t i = first; i < n; ++i) out[i] = in[i];
  }
}
constexpr std::string_view kEmptyRow = "empty kernel (128 x 128)";

// The input and output pairs of one size in two allocations: pair r at r x stride elements, each
// pair's start 256-byte aligned; the inputs generated (fill_input), every pair's different.
template <class Item>
struct BufferPairs {
  explicit BufferPairs(std::int64_t n)
      : stride((static_cast<std::int64_t>(sizeof(Item)) * n + 255) / 256 * 256 / static_cast<std::int64_t>(sizeof(Item))),
        count(static_cast<int>(std::clamp<std::size_t>(kRotationBytes / (2 * sizeof(Item) * stride), 1, 1 << 16))),
        in(static_cast<std::size_t>(stride) * count),
        out(static_cast<std::size_t>(stride) * count) {}
  const Item* input(int r) const { return in.get() + static_cast<std::int64_t>(r % count) * stride; }
  Item* output(int r) const { return out.get() + static_cast<std::int64_t>(r % count) * stride; }
  std::int64_t stride;
  int count;
  cuda::DeviceArray<Item> in, out;
};

// A CUDA stream, graph and executable graph owned by a scope.
struct Stream {
  Stream() { SV_CUDA(cudaStreamCreate(&s)); }
  ~Stream() { cudaStreamDestroy(s); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t s{};
};
struct Graph {
  ~Graph() {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
  }
  cudaGraph_t graph{};
  cudaGraphExec_t exec{};
};

// Back to back: `launches` runs of c (run i on pair i) captured on `stream` into one graph, launched
// once between two events on that stream after its upload; the graph's time over its launches, in
// ms. A single-pass scan's runs keep their epochs and tile bases in the graph, so every round
// captures afresh and launches its graph once (gpu/single_pass_state.cuh).
template <class Item>
double graph_ms(const Candidate<Item>& c, const BufferPairs<Item>& pairs, std::int64_t n, int launches,
                cudaStream_t stream, cuda::DeviceEvents& events) {
  Graph g;
  SV_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
  try {
    for (int i = 0; i < launches; ++i) c.run(pairs.input(i), pairs.output(i), n, stream);
  } catch (...) {
    cudaStreamEndCapture(stream, &g.graph);  // ends the capture; the run's own error is the one reported
    throw;
  }
  SV_CUDA(cudaStreamEndCapture(stream, &g.graph));
  SV_CUDA(cudaGraphInstantiate(&g.exec, g.graph, 0));
  SV_CUDA(cudaGraphUpload(g.exec, stream));
  SV_CUDA(cudaStreamSynchronize(stream));
  SV_CUDA(cudaEventRecord(events.start, stream));
  SV_CUDA(cudaGraphLaunch(g.exec, stream));
  SV_CUDA(cudaEventRecord(events.stop, stream));
  SV_CUDA(cudaEventSynchronize(events.stop));
  float ms = 0;
  SV_CUDA(cudaEventElapsedTime(&ms, events.start, events.stop));
  cuda::check_launch(c.name.c_str());
  if (c.check) c.check();
  return ms / launches;
}

// The device-wide algorithms asked for (all four when none is named), int32 inclusive sum with their
// default switches (hierarchical with its default block algorithm), in the registry's order.
// SCANVIZ_BENCH_POLICIES=1 adds decoupled look-back under the other tile policies built for
// measuring them, when decoupled look-back is asked for; a comma-separated list of words adds those
// whose name contains one of them (bench_policy_picked, e.g. SCANVIZ_BENCH_POLICIES=512x24,sleep0).
constexpr std::string_view kTilesAloneRow = "tiles alone (no look-back)";
struct DeviceCandidate {
  std::string name, algorithm;
  gpu::TilePolicy policy;
  std::map<std::string, std::string> options;
};
// The asked-for row that the GPU's measured tile policies are built for (GpuTilePolicies), or nullptr.
const DeviceAlgorithmInfo* tuned_asked(const std::vector<std::string>& wanted) {
  for (const DeviceAlgorithmInfo& a : device_algorithms())
    if (a.gpu_tile_policies && (wanted.empty() || std::find(wanted.begin(), wanted.end(), a.name) != wanted.end()))
      return &a;
  return nullptr;
}
std::vector<DeviceCandidate> device_candidates(const std::vector<std::string>& wanted, ValueType type) {
  const auto asked = [&](std::string_view a) {
    return wanted.empty() || std::find(wanted.begin(), wanted.end(), a) != wanted.end();
  };
  std::vector<DeviceCandidate> c;
  for (const DeviceAlgorithmInfo& a : device_algorithms())
    if (asked(a.name)) c.push_back({std::string(a.name), std::string(a.name), {}, {}});
  const DeviceAlgorithmInfo* tuned = tuned_asked(wanted);
  if (tuned)
    for (const std::string& set : bench_switch_sets(std::getenv("SCANVIZ_BENCH_SWITCHES")))
      c.push_back({"dl " + set, std::string(tuned->name), {}, bench_switch_list(set, "SCANVIZ_BENCH_SWITCHES")});
  const char* e = std::getenv("SCANVIZ_BENCH_POLICIES");
  if (e && tuned) {
    for (const gpu::TilePolicy& t : gpu::experimental_policies(type))
      if (bench_policy_picked(e, t.name())) c.push_back({"dl " + t.name(), std::string(tuned->name), t, {}});
    // Baselines, not scans: the default's tiles scanned alone, no look-back (checked tile by tile),
    // stored at once or held first (SCANVIZ_BENCH_HOLDS).
    if (bench_policy_picked(e, "tiles-alone")) c.push_back({std::string(kTilesAloneRow), "tiles-alone", {}, {}});
    // ... and the gather kernel's tiles alone, in each of its shapes.
    if (bench_policy_picked(e, "gather-alone"))
      for (const gpu::TilePolicy& t : gpu::gather_policies(type))
        c.push_back({"tiles alone " + t.name(), "tiles-alone", t, {}});
    // ... and each shape's ordering floor: its tiles copied, each once it has read every earlier
    // tile's flag (the dependency without the scan; checked against the input).
    if (bench_policy_picked(e, "ordering-floor"))
      for (const gpu::TilePolicy& t : gpu::gather_policies(type))
        c.push_back({"ordering floor " + t.name(), "ordering-floor", t, {}});
    if (bench_policy_picked(e, "tiles-alone-late"))
      for (double us : bench_holds_us(std::getenv("SCANVIZ_BENCH_HOLDS"))) {
        char name[64];
        std::snprintf(name, sizeof name, "tiles alone, stored %g us late", us);
        c.push_back({name, "tiles-alone", {}, {{"hold", std::to_string(std::llround(us * 1000))}}});
      }
  }
  return c;
}

// Whether a device-wide candidate's runs can be captured in a graph: not where a block algorithm
// scans the tiles (its launch stays on the default stream, gpu::DeviceScanSum).
bool graphed(const std::string& algorithm) {
  const DeviceAlgorithmInfo* row = find_device_algorithm(algorithm);
  return !(row && row->block_tiles);
}

// The race-free block-level algorithms asked for (all when none is named), in the registry's order.
std::vector<std::string> block_candidates(const std::vector<std::string>& wanted) {
  std::vector<std::string> c;
  for (const AlgorithmInfo& a : block_algorithms())
    if (!a.racy && (wanted.empty() || std::find(wanted.begin(), wanted.end(), a.name) != wanted.end()))
      c.emplace_back(a.name);
  return c;
}

// Small integers (-3..3) keep every sum exact in every type (a partial sum of up to 2^30 of them
// stays far below 2^24, where float stops counting whole numbers), so each algorithm's output can be
// compared with the sequential reference bit for bit, whatever order it adds in.
template <class Item>
__global__ void fill_input(Item* d_in, std::int64_t n, std::uint32_t salt) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    std::uint32_t x = static_cast<std::uint32_t>(i) * 2654435761u ^ salt;
    x ^= x >> 15;
    d_in[i] = static_cast<Item>(x % 7) - 3;
  }
}

// SCANVIZ_BENCH_PHASES (bench_phase_switches), with decoupled look-back asked for: a clocked run of
// its int32 sum after the timed ones at each size, and where its tiles' time went
// (analysis/lookback.hpp), under the switches it names.
bool phases_asked(const std::vector<std::string>& wanted, std::map<std::string, std::string>& switches) {
  return bench_phase_switches(std::getenv("SCANVIZ_BENCH_PHASES"), switches) && tuned_asked(wanted);
}
// label: "" for the default switches, else " (SWITCHES)".
std::string describe_phases(std::int64_t n, const TilePhaseStats& s, const std::string& label) {
  const auto us = [](double ns) { return ns / 1000.0; };
  char line[400];
  std::snprintf(line, sizeof line,
                "bench: phases%s n = 2^%d: %lld tiles in %.1f us; median/p90: id to A %.2f/%.2f us, look-back %.2f/%.2f us "
                "= waiting on earlier tiles' A %.2f/%.2f + after it %.2f/%.2f (%.0f%% of look-back time waiting); "
                "nearest P %.0f/%.0f tiles back at A; clock step %llu ns",
                label.c_str(), static_cast<int>(std::log2(static_cast<double>(n))), static_cast<long long>(s.tiles), us(s.span_ns),
                us(s.load.median), us(s.load.p90), us(s.lookback.median), us(s.lookback.p90), us(s.late.median),
                us(s.late.p90), us(s.after.median), us(s.after.p90), 100.0 * s.late_share, s.p_lag.median, s.p_lag.p90,
                static_cast<unsigned long long>(s.tick_ns));
  return line;
}

// The upper of the two middle values for an even count, as bench has always reported.
double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}
BenchSpread spread_of(const std::vector<double>& v) {
  return {*std::min_element(v.begin(), v.end()), median(v), *std::max_element(v.begin(), v.end())};
}

}  // namespace

// 2^10 .. 2^28, every even power (10 sizes: enough to see the small-n launch floor, the L2-resident
// middle and the memory-bound end without doubling the run time).
std::vector<std::int64_t> default_bench_sizes() {
  std::vector<std::int64_t> sizes;
  for (int k = 10; k <= 28; k += 2) sizes.push_back(std::int64_t{1} << k);
  return sizes;
}

namespace {

template <class Item>
void bench_type(const BenchOptions& options, const std::vector<std::int64_t>& sizes, BenchResult& result,
                const std::function<void(const std::string&)>& progress) {
  // The clocked runs (int32 sums only), their switches and how the lines name them.
  std::map<std::string, std::string> phase_switches;
  const bool phases = std::is_same_v<Item, std::int32_t> && phases_asked(options.algorithms, phase_switches);
  const std::string phase_label = phases && !phase_switches.empty()
                                      ? " (" + std::string(std::getenv("SCANVIZ_BENCH_PHASES")) + ")"
                                      : "";
  const std::vector<std::string>& wanted = options.algorithms;
  if (const DeviceAlgorithmInfo* tuned = tuned_asked(wanted)) {
    const std::int64_t from = gpu::pipelined_from(options.type);
    const gpu::TilePolicy small = gpu::gather_policy_at(1, options.type);
    const std::int64_t small_up_to = gpu::kGatherSmallTiles * small.threads * small.items;
    const gpu::TilePolicy gather = gpu::gather_policy_at(small_up_to + 1, options.type);
    std::string runs = "bench: " + std::string(tuned->name) + " runs " + small.name() + " up to n = " + std::to_string(small_up_to) +
                       ", " + gather.name() + " up to n = " +
                       std::to_string(gpu::kGatherMaxTiles * gather.threads * gather.items) + ", then ";
    for (const gpu::TilePolicy& w : gpu::one_wave_policies(options.type))
      runs += w.name() + " up to n = " + std::to_string(gpu::one_wave_up_to(w, options.type)) + ", ";
    runs += gpu::default_policy(options.type).name() + " (tile ids from the block index up to the tiles the device holds at once)";
    progress(from == INT64_MAX
                 ? runs + " at every n (the pipelined kernel needs sm_90 code and 9 x 24 KB of shared memory a block)"
                 : runs + " below n = " + std::to_string(from) + ", " + gpu::pipelined_default(options.type).name() +
                       " from there up");
  }
  Stream stream;  // the graphs' (a blocking stream: ordered with the default stream's work)
  cuda::DeviceEvents events;
  for (std::int64_t n : sizes) {
    const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(Item);
    const BufferPairs<Item> pairs(n);
    fill_input<Item><<<1024, 256>>>(pairs.in.get(), pairs.stride * pairs.count, 0x9e3779b9u);
    cuda::check_launch("fill_input");
    const int launches = static_cast<int>(std::clamp(kGraphBytes / (2.0 * static_cast<double>(bytes)),
                                                     static_cast<double>(kMinGraphLaunches), static_cast<double>(kMaxGraphLaunches)));

    std::size_t temp_bytes = 0;
    SV_CUDA(cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, pairs.input(0), pairs.output(0), n));
    cuda::DeviceArray<unsigned char> d_temp(std::max<std::size_t>(temp_bytes, 1));
    std::vector<Candidate<Item>> candidates = {
        {"copy", [&](const Item* in, Item* out, std::int64_t m, cudaStream_t st) {
           // A large memcpy node in a graph takes a slower copy path than the same copy on the stream
           // (docs/performance.md, "The copy in a graph"): a graph copies in pieces of
           // kGraphCopyBytes, each at the stream copy's speed.
           const std::size_t all = static_cast<std::size_t>(m) * sizeof(Item);
           const std::size_t piece = st ? kGraphCopyBytes : all;
           for (std::size_t at = 0; at < all; at += piece)
             SV_CUDA(cudaMemcpyAsync(reinterpret_cast<char*>(out) + at, reinterpret_cast<const char*>(in) + at,
                                     std::min(piece, all - at), cudaMemcpyDeviceToDevice, st));
         }, {}, 0, true, true, true},
        {"cub", [&](const Item* in, Item* out, std::int64_t m, cudaStream_t st) {
           std::size_t t = temp_bytes;
           SV_CUDA(cub::DeviceScan::InclusiveSum(d_temp.get(), t, in, out, m, st));
         }, {}, 0, true},
    };
    // Each keeps its scratch (tile sums, descriptors) between runs; a timed run is its launches (the
    // single-pass scans keep their descriptors under a new epoch rather than zeroing them).
    std::vector<std::unique_ptr<gpu::DeviceScanSum>> scanners;
    for (const DeviceCandidate& d : device_candidates(options.algorithms, options.type)) {
      scanners.push_back(std::make_unique<gpu::DeviceScanSum>(d.algorithm, d.options, options.type, d.policy));
      gpu::DeviceScanSum* s = scanners.back().get();
      const gpu::TilePolicy at = s->policy_at(n);
      candidates.push_back({d.name,
                            [s](const Item* in, Item* out, std::int64_t m, cudaStream_t st) {
                              s->set_stream(st);
                              s->run(in, out, m);
                            },
                            [s] { s->check(); }, d.algorithm == "tiles-alone" ? std::int64_t{at.threads} * at.items : 0,
                            graphed(d.algorithm), true, d.algorithm == "ordering-floor"});
    }

    if (const char* e = std::getenv("SCANVIZ_BENCH_POLICIES"); e && bench_policy_picked(e, "empty"))
      candidates.push_back({std::string(kEmptyRow), [](const Item*, Item*, std::int64_t, cudaStream_t st) {
                              empty_kernel<<<128, 128, 0, st>>>();
                            }, {}, 0, true, false});
    if (const char* e = std::getenv("SCANVIZ_BENCH_POLICIES"); e && bench_policy_picked(e, "empty"))
      candidates.push_back({"copy kernel", [](const Item* in, Item* out, std::int64_t m, cudaStream_t st) {
                              const std::int64_t per_block = 256 * (16 / static_cast<std::int64_t>(sizeof(Item)));
                              copy_kernel<<<static_cast<unsigned>((m + per_block - 1) / per_block), 256, 0, st>>>(in, out, m);
                            }, {}, 0, true, true, true});

    // Block-level kernels: each block scans its tile of kBenchTile elements (on the default stream:
    // latency only).
    std::vector<std::string> block_rows;
    for (const std::string& name : block_candidates(options.algorithms)) {
      const AlgorithmInfo& info = *find_algorithm(name);
      const std::int32_t threads = kBenchTile / info.items_per_thread;
      const BlockParams p{n, kBenchTile, false, info.warp_level ? kMaxWarpWidth : 32};
      const std::int64_t grid = (n + kBenchTile - 1) / kBenchTile;
      block_rows.push_back("block " + name);
      candidates.push_back({block_rows.back(), [name, p, grid, threads](const Item* in, Item* out, std::int64_t, cudaStream_t) {
                              gpu::launch_block_scan(name, OpKind::Sum, value_type_of<Item>(), in, out, p, grid, threads);
                            }, {}});
    }

    // What pair r's output must be: its input (the copy), its scan, each tile's own scan (the block
    // kernels; tiles alone, per its tile). Pair 0 checks the single launch, the graph's last pair
    // the graph (the same pair at large n).
    struct Expected {
      std::vector<Item> in, scan, tile;
    };
    const auto tile_scans = [&](const std::vector<Item>& in, std::vector<Item>& out, std::int64_t tile) {
      Item acc = 0;
      for (std::int64_t i = 0; i < n; ++i) out[i] = acc = (i % tile == 0 ? 0 : acc) + in[i];
    };
    const auto expected_of = [&](int r) {
      Expected e{std::vector<Item>(n), std::vector<Item>(n), std::vector<Item>(n)};
      SV_CUDA(cudaMemcpy(e.in.data(), pairs.input(r), bytes, cudaMemcpyDeviceToHost));
      tile_scans(e.in, e.scan, n);
      tile_scans(e.in, e.tile, kBenchTile);
      return e;
    };
    const int graph_pair = (launches - 1) % pairs.count;
    const Expected first = expected_of(0);
    const std::unique_ptr<const Expected> last_storage =
        graph_pair == 0 ? nullptr : std::make_unique<const Expected>(expected_of(graph_pair));
    const Expected& last = graph_pair == 0 ? first : *last_storage;
    std::vector<Item> h_out(n), alone;
    // Whether pair r's output is what candidate c must write there.
    const auto output_right = [&](const Candidate<Item>& c, int r, const Expected& e) {
      if (!c.writes) return true;
      SV_CUDA(cudaMemcpy(h_out.data(), pairs.output(r), bytes, cudaMemcpyDeviceToHost));
      const bool block_row = std::find(block_rows.begin(), block_rows.end(), c.name) != block_rows.end();
      if (c.alone_tile == 0) return h_out == (c.copies ? e.in : block_row ? e.tile : e.scan);
      alone.resize(n);
      tile_scans(e.in, alone, c.alone_tile);
      return h_out == alone;
    };

    double copy_rate = 0, cub_rate = 0, copy_graph = 0, cub_graph = 0;
    for (const Candidate<Item>& c : candidates) {
      for (int r = 0; r < options.warmup; ++r) c.run(pairs.input(r), pairs.output(r), n, nullptr);
      std::vector<double> latency, graph;
      bool graph_right = true;
      for (int round = 0; round < options.rounds; ++round) {
        std::vector<double> times;
        for (int r = 0; r < options.runs; ++r) {
          const int b = round * options.runs + r;
          SV_CUDA(cudaEventRecord(events.start));
          c.run(pairs.input(b), pairs.output(b), n, nullptr);
          SV_CUDA(cudaEventRecord(events.stop));
          SV_CUDA(cudaEventSynchronize(events.stop));
          float ms = 0;
          SV_CUDA(cudaEventElapsedTime(&ms, events.start, events.stop));
          times.push_back(ms);
        }
        latency.push_back(median(times));
        if (!c.graph) continue;
        // The last round's graph writes over a poisoned output of its last pair, checked after it.
        const bool last_round = round + 1 == options.rounds;
        if (last_round) SV_CUDA(cudaMemset(pairs.output(graph_pair), 0xA5, bytes));
        graph.push_back(graph_ms(c, pairs, n, launches, stream.s, events));
        if (last_round) graph_right = output_right(c, graph_pair, last);
      }
      // The checked run writes over a poisoned output, so no earlier algorithm's result can pass for it.
      SV_CUDA(cudaMemset(pairs.output(0), 0xA5, bytes));
      c.run(pairs.input(0), pairs.output(0), n, nullptr);
      cuda::check_launch(c.name.c_str());
      if (c.check) c.check();
      BenchRow row;
      row.algorithm = c.name;
      row.n = n;
      row.latency_ms = spread_of(latency);
      row.median_ms = row.latency_ms.median;
      row.items_per_s = static_cast<double>(n) / (row.median_ms * 1e-3);
      row.bytes_per_s = 2.0 * static_cast<double>(bytes) / (row.median_ms * 1e-3);
      row.verified = output_right(c, 0, first) && graph_right;
      if (c.graph) {
        row.graph_launches = launches;
        row.graph_ms = spread_of(graph);
      }
      if (c.name == "copy") copy_rate = row.items_per_s, copy_graph = row.graph_items_per_s();
      if (c.name == "cub") cub_rate = row.items_per_s, cub_graph = row.graph_items_per_s();
      row.percent_of_copy = copy_rate > 0 ? 100.0 * row.items_per_s / copy_rate : 0;
      row.graph_percent_of_copy = copy_graph > 0 ? 100.0 * row.graph_items_per_s() / copy_graph : 0;
      result.rows.push_back(row);
      const int log2n = static_cast<int>(std::log2(static_cast<double>(n)));
      const std::string size = n == std::int64_t{1} << log2n ? "2^" + std::to_string(log2n) : std::to_string(n);
      char line[240];
      std::snprintf(line, sizeof line, "bench: %-26s n = %-4s latency %9.4f ms %8.2f G items/s; in graph %9.4f ms %8.2f G items/s%s",
                    c.name.c_str(), size.c_str(), row.median_ms, row.items_per_s / 1e9, row.graph_ms.median,
                    row.graph_items_per_s() / 1e9, row.verified ? "" : "  OUTPUT WRONG");
      progress(line);
    }
    // CUB's ratios, also for the rows measured before it (the copy).
    for (BenchRow& row : result.rows)
      if (row.n == n) {
        row.vs_cub = cub_rate > 0 ? row.items_per_s / cub_rate : 0;
        row.graph_vs_cub = cub_graph > 0 ? row.graph_items_per_s() / cub_graph : 0;
      }
    if (phases) {
      const ClockedRun run = clock_decoupled_lookback_gpu(n, 0x9e3779b9u, 5, phase_switches);
      if (run.check.mismatches)
        throw GpuError("decoupled look-back with a clock: " + std::to_string(run.check.mismatches) +
                       " wrong outputs at n = " + std::to_string(n) + ", the first at " +
                       std::to_string(run.check.first_mismatch));
      progress(describe_phases(n, tile_phase_stats(run.tiles), phase_label));
    }
  }
}

}  // namespace

BenchResult run_bench(const BenchOptions& options, const std::function<void(const std::string&)>& progress) {
  check_bench_options(options);
  const std::vector<std::int64_t> sizes = options.sizes.empty() ? default_bench_sizes() : options.sizes;
  const GpuStatus gpu = probe_gpu();
  if (!gpu.usable) throw GpuError(gpu.error);
  BenchResult result;
  result.device = gpu.name;
  result.runs = options.runs;
  result.rounds = options.rounds;
  result.memory_clock_khz = gpu.memory_clock_khz;
  result.memory_bus_bits = gpu.memory_bus_bits;
  result.type = options.type;
  switch (options.type) {
    case ValueType::I32: bench_type<std::int32_t>(options, sizes, result, progress); break;
    case ValueType::I64: bench_type<std::int64_t>(options, sizes, result, progress); break;
    case ValueType::F32: bench_type<float>(options, sizes, result, progress); break;
    case ValueType::F64: bench_type<double>(options, sizes, result, progress); break;
    case ValueType::Interval: break;  // refused by check_bench_options
  }
  return result;
}

}  // namespace sv
