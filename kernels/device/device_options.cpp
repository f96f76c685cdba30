// The device-wide algorithms' switches and their parsing.
#include "device/device_options.hpp"

#include <array>
#include <charconv>
#include <stdexcept>

#include "algorithms.hpp"

namespace sv {

namespace {

constexpr std::array<SwitchInfo, 17> kSwitches = {{
    {"block-algo", kDefaultBlockAlgorithm, false, false,
     "the block algorithm that scans each tile (any block-level algorithm but the racy one)"},
    {"items", "by type", false, false,
     "elements per thread (tile = block threads x items; default 24 for 32-bit values, 12 for 64-bit, 4 for interval)"},
    {"tile-ids", "dynamic", false, false,
     "dynamic (from an atomic counter, in the order blocks start) or static (the block index: can deadlock)"},
    {"fence", "on", false, false,
     "off: the descriptor's flag and value are separate words stored with no fence between, so a reader can see "
     "the flag before the value (on: one packed word for 32-bit values, and on the GPU for 64-bit ones (16 bytes, as "
     "CUB packs them); else value, fence, flag, as the emulator keeps 64-bit values to show the fence)"},
    {"window", "32", false, false,
     "predecessors the look-back warp inspects at once, 1..32 (1: wait for the predecessor's P, the chained scan)"},
    {"share", "off", false, false,
     "on: the window that ends a look-back also publishes P for its tiles after the nearest P (their inclusive "
     "prefixes fall out of the window's combine), so the tiles after them find a P nearer"},
    {"deterministic", "off", false, false,
     "on: a float or double scan gives the same bits on every run, whatever the schedule, and the same bits on the "
     "emulator as on the GPU for the same input and tile: each tile's prefix is the left fold of the tiles' "
     "aggregates in tile order, each tile scanned in one fixed tree (docs/design.md); integer types are exact in "
     "any order and run as without it"},
    {"stall", "none", false, false,
     "TILE:CYCLES: that tile waits after taking its id (emulator cycles; nanoseconds on the GPU); the emulator "
     "also takes TILE:CYCLES:look-back (just before the tile first looks back) and lists of them "
     "separated by commas"},
    {"torn", "off", false, true,
     "on: a 64-bit value and its flag in one 16-byte descriptor, as the GPU packs them, read as two 8-byte halves, "
     "so a reader can see the flag half before the value half (the torn read the GPU kernels assume never happens; "
     "int64 or double, fence=on)"},
    {"pipelined", "off", false, false,
     "on (GPU only, compute capability 9.0 on, op sum, int32, float, int64 or double): the pipelined kernel that "
     "scanviz bench runs on large inputs, one block a multiprocessor whose warps keep one role each (load, reduce, "
     "look-back, store), 24 KB tiles in shared-memory stages; traced per warp role",
     true},
    {"stages", "9", false, false,
     "with pipelined=on: 24 KB tiles a block holds in shared memory, 4..9 (no fewer than its four store groups)",
     true},
    {"blocks", "all", false, false,
     "with pipelined=on: at most this many blocks (one a multiprocessor), 1..1024, so that a small trace shows "
     "a few multiprocessors' pipelines",
     true},
    {"sms", "4", true, true, "simulated multiprocessors, 1..1024"},
    {"resident", "2", true, true, "blocks resident on one multiprocessor at a time, 1..64"},
    {"launch", "in-order", true, true, "the order blocks are launched in: in-order, reverse (adversarial) or random:SEED"},
    {"latency", "400", true, true, "cycles of a global memory round trip, 1..100000"},
    {"jitter", "off", true, true,
     "SEED (1 or more): each global round trip of a block (its tile id, its loads, a look-back read) takes up to a "
     "latency more, drawn from SEED, as a GPU's memory varies from run to run; where look-backs stop changes with it"},
}};

// A row's switch the table has not would be refused at every run: refuse it at build time.
constexpr bool known_switches(std::string_view keys) {
  for (std::size_t pos = 0; pos < keys.size();) {
    std::size_t end = keys.find(' ', pos);
    if (end == std::string_view::npos) end = keys.size();
    bool known = false;
    for (const SwitchInfo& s : kSwitches) known |= !s.machine && s.key == keys.substr(pos, end - pos);
    if (!known) return false;
    pos = end + 1;
  }
  return true;
}
#define SCANVIZ_BLOCK_ALGORITHM(...)
#define SCANVIZ_DEVICE_ALGORITHM(name_, Driver, traits_, colour_, marker_, switches_, ...) \
  static_assert(known_switches(switches_), name_);
#include "algorithms.def"
#undef SCANVIZ_BLOCK_ALGORITHM
#undef SCANVIZ_DEVICE_ALGORITHM

std::int64_t parse_int(const std::string& key, const std::string& text, std::int64_t lo, std::int64_t hi) {
  std::int64_t v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || ptr != end || v < lo || v > hi)
    throw std::invalid_argument("option " + key + "=" + text + ": expected an integer from " + std::to_string(lo) +
                                " to " + std::to_string(hi));
  return v;
}

// pipelined=on: the kernel's own tile (24 KB of 128 threads) and its switches, stages and blocks.
void parse_pipelined(std::map<std::string, std::string>& v, const std::map<std::string, std::string>& given,
                     ValueType type, std::int32_t requested_threads, bool segmented, DeviceConfig& c) {
  const std::string& on = v["pipelined"];
  if (on != "on" && on != "off") throw std::invalid_argument("option pipelined=" + on + ": expected on or off");
  PipelinedRun& r = c.pipelined;
  r.on = on == "on";
  if (!r.on) {
    for (const char* key : {"stages", "blocks"})
      if (given.count(key)) throw std::invalid_argument(std::string("option ") + key + " needs pipelined=on");
    return;
  }
  if (segmented || type == ValueType::Interval)
    throw std::invalid_argument("option pipelined=on scans int32, float, int64 or double values, not segmented pairs "
                                "or intervals");
  if (requested_threads != 0 || given.count("items"))
    throw std::invalid_argument("option pipelined=on has its own tile (128 threads x 24 KB): drop block and items");
  if (!c.params.dynamic_ids || !c.params.fence)
    throw std::invalid_argument("option pipelined=on takes tile ids from the counter and keeps the fence: drop "
                                "tile-ids=static and fence=off");
  if (c.params.share || c.params.window != 32 || c.params.stall_tile >= 0)
    throw std::invalid_argument("option pipelined=on polls its own windows (160 descriptors): drop share, window and stall");
  r.stages = static_cast<std::int32_t>(parse_int("stages", v["stages"], 4, 9));  // gpu/pipeline_exec.cuh kPipeMinStages
  if (v["blocks"] != "all") r.blocks = static_cast<std::int32_t>(parse_int("blocks", v["blocks"], 1, 1024));
  c.params.threads = 128;
  c.params.items = type == ValueType::I32 || type == ValueType::F32 ? 48 : 24;  // gpu/pipeline_exec.cuh pipe_items
}

// deterministic=on: the fixed order (device/decoupled_lookback_fixed.hpp) for float and double; the
// tile tree is the GPU tile kernel's, of warps of 32 reading 16 bytes a lane at once.
void parse_deterministic(const std::string& on, ValueType type, bool segmented, DeviceConfig& c) {
  if (on != "on" && on != "off") throw std::invalid_argument("option deterministic=" + on + ": expected on or off");
  if (on == "off") return;
  if (segmented)
    throw std::invalid_argument("option deterministic=on: a segmented scan's (flag, value) pairs take the plain look-back");
  if (type != ValueType::F32 && type != ValueType::F64) return;  // exact in any order
  DeviceParams& p = c.params;
  if (p.share)
    throw std::invalid_argument("option deterministic=on: drop share=on (a shared P is a window's tree, not the fixed fold)");
  if (c.pipelined.on)
    throw std::invalid_argument("option deterministic=on runs the tile kernel: drop pipelined=on (its reduce is in any order)");
  if (p.threads % 32 != 0)
    throw std::invalid_argument("option deterministic=on: block " + std::to_string(p.threads) +
                                ": the fixed tile tree is of warps of 32, so the block a multiple of 32 threads");
  const std::int32_t lane_values = type == ValueType::F32 ? 4 : 2;  // 16 bytes a lane, as the GPU reads them
  if (p.items % lane_values != 0)
    throw std::invalid_argument("option items=" + std::to_string(p.items) + ": with deterministic=on a lane takes " +
                                std::to_string(lane_values) + " values at once, so items a multiple of " +
                                std::to_string(lane_values));
  p.deterministic = true;
}

}  // namespace

std::span<const SwitchInfo> device_switches() { return kSwitches; }

bool switch_applies(const SwitchInfo& s, const DeviceAlgorithmInfo& algo) {
  return s.machine || takes_switch(algo, s.key);
}

std::string switch_algorithms(const SwitchInfo& s) {
  if (s.machine) return "all";
  std::string names;
  for (const DeviceAlgorithmInfo& a : device_algorithms())
    if (takes_switch(a, s.key)) names += (names.empty() ? "" : " ") + std::string(a.name);
  return names;
}

std::int32_t default_items_per_thread(ValueType type, bool segmented) {
  if (segmented) return type == ValueType::I32 || type == ValueType::F32 ? 8 : 4;
  switch (type) {
    case ValueType::I32:
    case ValueType::F32: return 24;  // the GPU's fastest int32 tile (gpu/tile_policy.cuh DefaultTileConfig)
    case ValueType::I64:
    case ValueType::F64: return 12;  // the same 24 KB tiles
    case ValueType::Interval: return 4;
  }
  return 4;
}

std::string tile_policy(const DeviceParams& p) {
  return std::to_string(p.threads) + " threads x " + std::to_string(p.items) + " items = " +
         std::to_string(p.tile_items()) + " elements per tile";
}

DeviceConfig parse_device_config(std::string_view algorithm, const std::map<std::string, std::string>& given,
                                 ValueType type, std::int32_t requested_threads, bool on_gpu, bool segmented) {
  const std::string who(algorithm);
  const DeviceAlgorithmInfo* row = find_device_algorithm(algorithm);
  if (!row) throw std::invalid_argument("unknown device-wide algorithm '" + who + "'");
  std::map<std::string, std::string> v;
  for (const SwitchInfo& s : kSwitches)
    if (switch_applies(s, *row) && !(on_gpu && s.emulator_only) && (on_gpu || !s.gpu_only))
      v[std::string(s.key)] = std::string(s.fallback);
  for (const auto& [key, value] : given) {
    const SwitchInfo* s = nullptr;
    for (const SwitchInfo& k : kSwitches)
      if (k.key == key) s = &k;
    if (!s) throw std::invalid_argument("option " + key + ": unknown switch");
    if (!switch_applies(*s, *row)) throw std::invalid_argument("option " + key + " does not apply to " + who);
    if (on_gpu && s->emulator_only)
      throw std::invalid_argument("option " + key + " models the emulator's machine; it does not apply to the GPU");
    if (!on_gpu && s->gpu_only)
      throw std::invalid_argument("option " + key + " is the GPU's pipelined kernel (bulk copies and mbarriers), "
                                  "which the emulator cannot run: use executor gpu on a GPU of compute capability 9.0 or later");
    v[key] = value;
  }

  DeviceConfig c;
  DeviceParams& p = c.params;
  if (row->block_tiles) {
    c.block_algorithm = v["block-algo"];
    const AlgorithmInfo* block = find_algorithm(c.block_algorithm);
    if (!block || block->racy)
      throw std::invalid_argument("option block-algo=" + c.block_algorithm +
                                  ": expected a race-free block-level algorithm");
    if (requested_threads < 0 || requested_threads > kMaxBlockThreads)
      throw std::invalid_argument("block size " + std::to_string(requested_threads) + " is outside 1..1024");
    const std::int32_t threads = requested_threads ? requested_threads : 1024 / block->items_per_thread;
    BlockShape shape;
    try {  // a full tile of the block algorithm: its errors speak of that tile's n, which is not the scan's
      shape = block_shape(*block, static_cast<std::int64_t>(threads) * block->items_per_thread, threads);
      if (block->warp_level) warp_width_for(*block, shape.capacity, kMaxWarpWidth);  // its tiles run warps of 32
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("block " + std::to_string(threads) + ": each tile of the hierarchical scan is one block of " +
                                  c.block_algorithm + " (" + e.what() + ")");
    }
    p.threads = shape.threads;
    p.items = block->items_per_thread;
  } else {
    if (requested_threads < 0 || requested_threads > kMaxBlockThreads)
      throw std::invalid_argument("block size " + std::to_string(requested_threads) + " is outside 1..1024");
    p.threads = requested_threads ? requested_threads : kTileThreads;
    const std::int32_t fallback = default_items_per_thread(type, segmented);
    if (v["items"] == "by type") v["items"] = std::to_string(fallback);
    p.items = static_cast<std::int32_t>(parse_int("items", v["items"], 1, 64));
    if (on_gpu && p.items != fallback)
      throw std::invalid_argument("option items=" + v["items"] + ": the GPU kernels are built for " +
                                  std::to_string(fallback) + " items per thread with this type");
    if (on_gpu && p.threads % 32 != 0)
      throw std::invalid_argument("block size " + std::to_string(p.threads) + ": the GPU tile kernels need a multiple of 32");
  }
  if (v.count("tile-ids")) {
    if (v["tile-ids"] != "dynamic" && v["tile-ids"] != "static")
      throw std::invalid_argument("option tile-ids=" + v["tile-ids"] + ": expected dynamic or static");
    p.dynamic_ids = v["tile-ids"] == "dynamic";
  }
  if (v.count("fence")) {
    if (v["fence"] != "on" && v["fence"] != "off")
      throw std::invalid_argument("option fence=" + v["fence"] + ": expected on or off");
    p.fence = v["fence"] == "on";
  }
  if (v.count("torn")) {
    if (v["torn"] != "on" && v["torn"] != "off")
      throw std::invalid_argument("option torn=" + v["torn"] + ": expected on or off");
    c.machine.torn = v["torn"] == "on";
    if (c.machine.torn && (segmented || (type != ValueType::I64 && type != ValueType::F64) || !p.fence))
      throw std::invalid_argument("option torn=on: only 64-bit values (type int64 or double) with fence=on have "
                                  "16-byte descriptors that could tear");
  }
  if (v.count("share")) {
    if (v["share"] != "on" && v["share"] != "off")
      throw std::invalid_argument("option share=" + v["share"] + ": expected on or off");
    p.share = v["share"] == "on";
  }
  if (v.count("window")) p.window = static_cast<std::int32_t>(parse_int("window", v["window"], 1, 32));
  if (v.count("stall") && v["stall"] != "none") {
    const std::string& all = v["stall"];
    for (std::size_t pos = 0; pos <= all.size();) {
      std::size_t end = all.find(',', pos);
      if (end == std::string::npos) end = all.size();
      const std::string s = all.substr(pos, end - pos);
      pos = end + 1;
      const auto colon = s.find(':');
      if (colon == std::string::npos)
        throw std::invalid_argument("option stall=" + all + ": expected TILE:CYCLES[:look-back][,...]");
      const auto second = s.find(':', colon + 1);
      TileStall st;
      st.tile = parse_int("stall", s.substr(0, colon), 0, std::int64_t{1} << 30);
      st.cycles = parse_int("stall", s.substr(colon + 1, second == std::string::npos ? std::string::npos : second - colon - 1),
                            0, std::int64_t{1} << 40);
      if (second != std::string::npos) {
        const std::string at = s.substr(second + 1);
        if (at != "start" && at != "look-back")
          throw std::invalid_argument("option stall=" + all + ": '" + at + "' is not start or look-back");
        st.at = at == "start" ? TileStall::At::Start : TileStall::At::LookBack;
      }
      if (st.tile == 0 && st.at == TileStall::At::LookBack)
        throw std::invalid_argument("option stall=" + all + ": tile 0 never looks back (it has no predecessor)");
      c.machine.stalls.push_back(st);
    }
    if (on_gpu) {
      if (c.machine.stalls.size() != 1 || c.machine.stalls[0].at != TileStall::At::Start)
        throw std::invalid_argument("option stall=" + all + ": the GPU takes one TILE:CYCLES (at the start)");
      p.stall_tile = c.machine.stalls[0].tile;
      p.stall_cycles = c.machine.stalls[0].cycles;
    }
  }
  if (v.count("pipelined")) parse_pipelined(v, given, type, requested_threads, segmented, c);
  if (v.count("deterministic")) parse_deterministic(v["deterministic"], type, segmented, c);
  if (v.count("sms")) c.machine.sms = static_cast<std::int32_t>(parse_int("sms", v["sms"], 1, 1024));
  if (v.count("resident")) c.machine.resident = static_cast<std::int32_t>(parse_int("resident", v["resident"], 1, 64));
  if (v.count("latency")) c.machine.latency = static_cast<std::int32_t>(parse_int("latency", v["latency"], 1, 100000));
  if (v.count("jitter") && v["jitter"] != "off")
    c.machine.jitter = static_cast<std::uint64_t>(parse_int("jitter", v["jitter"], 1, std::int64_t{1} << 62));
  if (v.count("launch")) {
    auto order = Schedule::parse(v["launch"]);
    if (!order || order->kind == Schedule::Kind::RoundRobin)
      throw std::invalid_argument("option launch=" + v["launch"] + ": expected in-order, reverse or random:SEED");
    c.machine.launch = *order;
    v["launch"] = order->name();
  }
  c.options = v;
  return c;
}

}  // namespace sv
