// The tile kernels' recorders, one hook per event of a tile (start, publish, inspect, wait, end):
// NoRecorder (untraced: every hook an empty inline function, so the timed kernels carry no tracing
// code), TileRecorder (appends TileEvents with %globaltimer time and the SM id to a bounded device
// buffer; the counter may run past the capacity, which the host reports) and TileClock (untraced,
// three times a tile for the benchmark).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "core/payload.hpp"
#include "core/tile_flag.hpp"
#include "gpu/device_util.cuh"
#include "trace/tile_event.hpp"

namespace sv::gpu {

// The tile-level trace of a traced run: events appended with an atomic counter.
struct TileTraceState {
  unsigned long long counter;
  unsigned long long capacity;
  TileEvent* events;
};

// Untraced: nothing at all.
struct NoRecorder {
  static constexpr bool kTraced = false;
  struct Args {};
  __device__ explicit NoRecorder(const Args&) {}
  __device__ void start(std::int64_t) {}
  __device__ void end(std::int64_t) {}
  template <class T>
  __device__ void publish(std::int64_t, TileFlag, const T&) {}
  template <class T>
  __device__ void inspect(std::int64_t, std::int64_t, TileFlag, const T&, std::uint32_t) {}
  __device__ void wait(std::int64_t, std::int64_t, TileFlag, std::uint32_t) {}
  __device__ void role(TileEventKind, std::int64_t) {}
};

// Traced: one TileEvent per hook, from the thread that calls it.
struct TileRecorder {
  static constexpr bool kTraced = true;
  struct Args {
    TileTraceState* state;
    std::uint16_t pass;
  };
  __device__ explicit TileRecorder(const Args& a) : a_(a) {}

  __device__ void start(std::int64_t tile) { append(TileEventKind::Start, tile, -1, TileFlag::X, Payload{}, 0); }
  __device__ void end(std::int64_t tile) { append(TileEventKind::End, tile, -1, TileFlag::X, Payload{}, 0); }
  template <class T>
  __device__ void publish(std::int64_t tile, TileFlag flag, const T& v) {
    append(TileEventKind::Publish, tile, tile, flag, Payload::of(v), 0);
  }
  // Tile `tile` published P for `target` (share=on); target is the descriptor's tile.
  template <class T>
  __device__ void share(std::int64_t tile, std::int64_t target, const T& v) {
    append(TileEventKind::Publish, tile, target, TileFlag::P, Payload::of(v), 0);
  }
  template <class T>
  __device__ void inspect(std::int64_t tile, std::int64_t target, TileFlag flag, const T& v, std::uint32_t spins) {
    append(TileEventKind::Inspect, tile, target, flag, Payload::of(v), spins);
  }
  __device__ void wait(std::int64_t tile, std::int64_t target, TileFlag flag, std::uint32_t spins) {
    append(TileEventKind::Wait, tile, target, flag, Payload{}, spins);
  }
  // A warp role's step of the pipelined kernel (Landed, LookBack, Held, Store).
  __device__ void role(TileEventKind kind, std::int64_t tile) { append(kind, tile, -1, TileFlag::X, Payload{}, 0); }

 private:
  __device__ void append(TileEventKind kind, std::int64_t tile, std::int64_t target, TileFlag flag, const Payload& v,
                         std::uint32_t spins) {
    const unsigned long long seq = atomicAdd(&a_.state->counter, 1ULL);
    if (seq >= a_.state->capacity) return;
    TileEvent e;
    e.time = global_timer_ns();
    e.tile = tile;
    e.target = target;
    e.block = blockIdx.x;
    e.spins = spins;
    e.sm = static_cast<std::uint16_t>(sm_id());
    e.pass = a_.pass;
    e.kind = kind;
    e.flag = flag;
    e.value = v;
    a_.state->events[seq] = e;
  }
  Args a_;
};

// Untraced, with a clock (scanviz bench with SCANVIZ_BENCH_PHASES=1): thread 0 of each tile notes
// the %globaltimer time at which the tile's id was taken, its aggregate published (A) and its
// inclusive prefix published (P) in times[3 tile + 0, 1, 2] (tile 0 publishes P alone: both). One
// plain store each, no atomics, so the kernel keeps the untraced schedule (analysis/lookback.hpp
// tile_phase_stats reads them).
struct TileClock {
  static constexpr bool kTraced = false;
  struct Args {
    unsigned long long* times;
  };
  __device__ explicit TileClock(const Args& a) : times_(a.times) {}
  __device__ void start(std::int64_t tile) { times_[3 * tile] = global_timer_ns(); }
  __device__ void end(std::int64_t) {}
  template <class T>
  __device__ void publish(std::int64_t tile, TileFlag flag, const T&) {
    const unsigned long long now = global_timer_ns();
    if (flag == TileFlag::A || tile == 0) times_[3 * tile + 1] = now;
    if (flag == TileFlag::P) times_[3 * tile + 2] = now;
  }
  template <class T>
  __device__ void inspect(std::int64_t, std::int64_t, TileFlag, const T&, std::uint32_t) {}
  __device__ void wait(std::int64_t, std::int64_t, TileFlag, std::uint32_t) {}
  __device__ void role(TileEventKind, std::int64_t) {}

 private:
  unsigned long long* times_;
};

}  // namespace sv::gpu
