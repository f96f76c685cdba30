// The CPU emulator of device-wide scans: simulated multiprocessors run the grid of each launch, a
// bounded number of blocks resident on each, every block one fiber with its own clock.
//
// Model. A block runs as one thread of the tile-level context (x.thread() 0 of x.threads() 1); its
// operations advance its clock by a latency model (a global round trip costs `latency` cycles, a
// tile's load and store add one cycle per 32 elements; with the jitter switch a round trip takes up
// to a latency more, drawn from its seed). The scheduler always resumes the block with
// the smallest clock, so every read at time t sees exactly the stores visible by then. Blocks are
// launched, in the machine's launch order, into free slots (SM s holds `resident` blocks).
// Descriptors: one packed word (flag and value visible together, one latency after the store); or a
// flag word and a value word for each of A and P: with a fence the value is visible one latency
// before the flag; without one the flag is visible after one latency and the value after three, so
// a reader can see the flag with the word's old contents, the stale read. With the torn switch a
// 64-bit value and its flag are one 16-byte word, as the GPU packs them, whose flag half is visible
// after one latency and value half after three: the torn read, which no fence can order.
// Deadlock: every resident block is waiting, and each has polled again after the last store became
// visible, with no block left to launch into a free slot. The run stops there and reports the
// waiting tiles; it never hangs.
//
// [SECTION] EmuTileExec, the tile-level context the device kernels run in
// [SECTION] DeviceEmulator, the launcher (alloc, launch, block_scan) and scheduler
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/ops.hpp"
#include "core/payload.hpp"
#include "core/segmented.hpp"
#include "device/device_options.hpp"
#include "device/device_params.hpp"
#include "emulator/block_emulator.hpp"
#include "emulator/emulated_block.hpp"
#include "emulator/fixed_tile_tree.hpp"
#include "trace/trace.hpp"

namespace sv {

class DeviceEmulator;

// Thrown out of a launch when the deadlock detector fires; record_device_scan turns it into the
// trace's outcome.
struct DeadlockDetected {
  std::vector<std::int64_t> waiting;
};

// A tile's elements. With deterministic=on (`fixed`) the whole tile, the identity past n, scanned
// in the GPU's order (emulator/fixed_tile_tree.hpp): v then holds each element's scan within its
// warp's segment and warp_prefix the segments' prefixes; `count` is the elements below n.
template <class T>
struct EmuTileItems {
  std::vector<T> v;
  bool fixed = false;
  std::int32_t threads = 0, items = 0;
  std::size_t count = 0;
  std::vector<T> warp_prefix;
};

// ============================================================================================
// [SECTION] EmuTileExec
// ============================================================================================

class EmuTileExec {
 public:
  EmuTileExec(DeviceEmulator* emu, int slot) : emu_(emu), slot_(slot) {}

  std::int64_t block() const;
  std::int32_t thread() const { return 0; }
  std::int32_t threads() const { return 1; }
  bool look_back_warp() const { return true; }
  template <class T>
  T broadcast(const T& v) const {
    return v;
  }

  std::int64_t take_tile(const DeviceParams& p, const DeviceBuffers& b);
  void start_tile(std::int64_t tile);
  void end_tile(std::int64_t tile);
  bool spin(std::int64_t tile, const DeviceParams& p);

  template <class T, class Op>
  EmuTileItems<T> load_tile(Op op, const Buf& in, std::int64_t tile, const DeviceParams& p) {
    EmuTileItems<T> items;
    for (std::int64_t i = p.tile_begin(tile); i < p.tile_end(tile); ++i) items.v.push_back(read(in, i).template as<T>());
    items.count = items.v.size();
    advance_tile_io(items.count);
    if (p.deterministic) {
      items.fixed = true;
      items.threads = p.threads;
      items.items = p.items;
      items.v.resize(static_cast<std::size_t>(p.tile_items()), op.identity());
    }
    return items;
  }
  template <class Op>
  typename Op::value_type reduce_tile(Op op, EmuTileItems<typename Op::value_type>& items) {
    if (items.fixed) return fixed_tile_reduce(op, items.v, items.threads, items.items, items.warp_prefix);
    typename Op::value_type acc = op.identity();
    for (const auto& v : items.v) acc = op(acc, v);
    return acc;
  }
  template <class Op>
  void scan_store_tile(Op op, const EmuTileItems<typename Op::value_type>& items, typename Op::value_type prefix,
                       const Buf& out, std::int64_t tile, const DeviceParams& p) {
    if (items.fixed) {
      for (std::size_t k = 0; k < items.count; ++k)
        write(out, p.tile_begin(tile) + static_cast<std::int64_t>(k),
              Payload::of(fixed_tile_output(op, items.v, items.warp_prefix, prefix, items.items, k, p.exclusive)));
      advance_tile_io(items.count);
      return;
    }
    auto running = prefix;
    for (std::size_t k = 0; k < items.v.size(); ++k) {
      const auto before = running;
      running = op(running, items.v[k]);
      write(out, p.tile_begin(tile) + static_cast<std::int64_t>(k), Payload::of(p.exclusive ? before : running));
    }
    advance_tile_io(items.v.size());
  }
  template <class T>
  T load_value(const Buf& buf, std::int64_t i) {
    return read(buf, i).template as<T>();
  }
  template <class T>
  void store_value(const Buf& buf, std::int64_t i, const T& v) {
    write(buf, i, Payload::of(v));
  }

  template <class Op>
  void publish(Op, const DeviceBuffers&, std::int64_t tile, TileFlag flag, typename Op::value_type value,
               const DeviceParams& p) {
    using T = typename Op::value_type;
    publish_payload(tile, flag, Payload::of(value), p, sizeof(T) == 4, sizeof(T) == 8 && std::is_arithmetic_v<T>);
  }

  // Reads the descriptors of [max(0, end - w), end), nearest first, at this block's clock.
  template <class Op>
  Window<typename Op::value_type> inspect_window(Op op, const DeviceBuffers&, std::int64_t tile, std::int64_t end,
                                                 std::int32_t w, const DeviceParams& p) {
    using T = typename Op::value_type;
    const std::vector<Seen> seen = read_window(tile, end, w);
    shared_.clear();
    Window<T> out;
    out.combined = op.identity();
    for (const Seen& s : seen) out.any_x |= s.flag == TileFlag::X;
    if (out.any_x) return out;
    // Nearest P first in `seen`; combine from it (or the window's first tile) up to end - 1.
    std::size_t last = seen.size();
    for (std::size_t k = 0; k < seen.size(); ++k)
      if (seen[k].flag == TileFlag::P) {
        last = k + 1;
        out.has_p = true;
        break;
      }
    for (std::size_t k = last; k-- > 0;) out.combined = op(out.combined, seen[k].value.template as<T>());
    if (out.has_p && p.share) {  // what share_window publishes: tile end-1-k's P, for the A tiles nearer than the P
      T acc = seen[last - 1].value.template as<T>();
      for (std::size_t k = last - 1; k-- > 0;) {
        acc = op(acc, seen[k].value.template as<T>());
        shared_.push_back({end - 1 - static_cast<std::int64_t>(k), Payload::of(acc)});
      }
    }
    return out;
  }

  // deterministic=on: the same read, `combined` the left fold in tile order from the nearest P (or
  // from `seed`) over the later tiles' values.
  template <class Op>
  Window<typename Op::value_type> fold_window(Op op, const DeviceBuffers&, std::int64_t tile, std::int64_t end,
                                              std::int32_t w, const typename Op::value_type& seed, const DeviceParams&) {
    using T = typename Op::value_type;
    const std::vector<Seen> seen = read_window(tile, end, w);
    Window<T> out;
    out.combined = seed;
    for (const Seen& s : seen) out.any_x |= s.flag == TileFlag::X;
    if (out.any_x) return out;
    std::size_t from = seen.size();  // `seen` is nearest first: fold from index from - 1 down to 0
    for (std::size_t k = 0; k < seen.size(); ++k)
      if (seen[k].flag == TileFlag::P) {
        out.has_p = true;
        out.combined = seen[k].value.template as<T>();
        from = k;
        break;
      }
    for (std::size_t k = from; k-- > 0;) out.combined = op(out.combined, seen[k].value.template as<T>());
    return out;
  }

  // After a window that had a P: P for its A tiles after the nearest P, the tile after the P first
  // (each one a publish of this block, in that tile's descriptor).
  template <class Op>
  void share_window(Op, const DeviceBuffers&, std::int64_t, const DeviceParams& p) {
    for (const auto& [target, value] : shared_)
      publish_payload(target, TileFlag::P, value, p, sizeof(typename Op::value_type) == 4,
                      sizeof(typename Op::value_type) == 8 && std::is_arithmetic_v<typename Op::value_type>);
    shared_.clear();
  }

 private:
  struct Seen {
    TileFlag flag;
    Payload value;
  };
  Payload read(const Buf& buf, std::int64_t i);
  void write(const Buf& buf, std::int64_t i, const Payload& v);
  void advance_tile_io(std::size_t elements);
  // packable: a 4-byte value, one 8-byte word with its flag (fence on); wide: a 64-bit number, which
  // EmuMachine::torn publishes as one 16-byte word whose halves land apart.
  void publish_payload(std::int64_t tile, TileFlag flag, const Payload& value, const DeviceParams& p, bool packable,
                       bool wide);
  std::vector<Seen> read_window(std::int64_t tile, std::int64_t end, std::int32_t w);

  DeviceEmulator* emu_;
  int slot_;
  std::vector<std::pair<std::int64_t, Payload>> shared_;  // the last window's shares (share_window)
};

// ============================================================================================
// [SECTION] DeviceEmulator
// ============================================================================================

class DeviceEmulator {
 public:
  // Buffer 0 of `trace` is the input (holding `input`), buffer 1 the output (length n).
  DeviceEmulator(Trace& trace, const EmuMachine& machine, const std::vector<Payload>& input, std::int64_t n);
  ~DeviceEmulator();
  DeviceEmulator(const DeviceEmulator&) = delete;
  DeviceEmulator& operator=(const DeviceEmulator&) = delete;

  Buf input() const { return {nullptr, 0, static_cast<std::int64_t>(values_[0].size())}; }
  Buf output() const { return {nullptr, 1, static_cast<std::int64_t>(values_[1].size())}; }
  const std::vector<Payload>& buffer_values(int buffer) const { return values_.at(buffer); }

  // The launcher (device/all.hpp).
  Buf alloc(std::string name, std::int64_t length);
  DeviceBuffers single_pass_state(const DeviceParams& p);
  template <class Pass, class Op>
  void launch(Phase phase, int level, Op op, DeviceParams p, std::int64_t grid, const DeviceBuffers& b) {
    p.pass = static_cast<std::uint16_t>(trace_.steps.size());
    run_grid(phase, level, grid, [&](EmuTileExec& x) { Pass::run(x, op, p, b); });
  }
  template <class Op>
  void block_scan(std::string_view algo, Op, const DeviceParams& p, Buf in, Buf out, int level) {
    constexpr ValueType type = [] {
      if constexpr (is_segmented_op_v<Op>) return value_type_of<typename Op::base_op::value_type>();
      else return value_type_of<typename Op::value_type>();
    }();
    const std::int32_t threads = p.threads;
    const std::int64_t tile_items = p.tile_items();
    run_grid(Phase::ScanTiles, level, p.tiles, [&](EmuTileExec& x) {
      const std::int64_t tile = x.block();
      x.start_tile(tile);
      const std::int64_t first = p.tile_begin(tile), len = p.tile_end(tile) - first;
      std::vector<Payload> slice(values_[in.id].begin() + first, values_[in.id].begin() + first + len);
      Trace scratch;
      BlockEmulator emu(scratch, Schedule{}, threads, 0, slice, len, /*record=*/false);
      emulate_block(algo, emu, Op::kind, type, is_segmented_op_v<Op>,
                    BlockParams{len, static_cast<std::int32_t>(tile_items), false});
      for (std::int64_t i = 0; i < len; ++i) store_at(out, first + i, emu.buffer_values(1)[i]);
      charge_block_scan(static_cast<std::uint64_t>(len));
      x.end_tile(tile);
    });
  }

 private:
  friend class EmuTileExec;
  enum class State : std::uint8_t { Running, Waiting, Done };
  struct Block {
    Coroutine fiber;  // the block's own stack
    std::int64_t id = 0;
    std::int64_t tile = -1;
    std::int32_t sm = 0;
    std::uint64_t clock = 0;
    std::uint64_t last_poll = 0;      // when its last failed poll read the descriptors
    std::uint64_t last_read = 0;      // when it last read a window
    std::int64_t wait_target = -1;    // the predecessor its current wait is for
    TileFlag wait_flag = TileFlag::X;
    std::uint32_t spins = 0;
    bool waited = false;  // a Wait event was recorded for the current wait
    bool looked = false;  // it has read its first window (a look-back stall is charged there, once)
    State state = State::Running;
  };
  struct Store {
    std::uint64_t visible;
    TileFlag flag;
    Payload value;
  };
  struct Descriptor {
    // In store order. Two value words, as CUB keeps them, so that P's value can never be read as A's.
    std::vector<Store> flags, aggregates, inclusives;
  };

  void run_grid(Phase phase, int level, std::int64_t grid, const std::function<void(EmuTileExec&)>& body);
  void yield(int slot);
  void store_at(const Buf& buf, std::int64_t i, const Payload& v);
  void charge_block_scan(std::uint64_t elements);
  TileEvent& record(int slot, TileEventKind kind, std::int64_t target);
  void close_step();
  std::uint64_t stall_cycles(std::int64_t tile, TileStall::At at) const;
  std::uint64_t round_trip();  // a global round trip's cycles: the latency, and the jitter's draw

  Trace& trace_;
  EmuMachine machine_;
  std::vector<std::vector<Payload>> values_;
  std::vector<std::vector<std::uint8_t>> defined_;
  std::vector<Descriptor> descriptors_;
  std::int64_t counter_ = 0;
  std::uint64_t last_visible_ = 0;  // latest time any descriptor store becomes visible
  std::uint64_t now_ = 0;           // when the current launch started
  std::uint16_t pass_ = 0;
  std::uint64_t jitter_ = 0;  // the jitter's generator state: draws in the scheduler's order, so a seed gives one run
  std::vector<Block> slots_;
  int current_ = -1;
  std::string error_;
};

}  // namespace sv
