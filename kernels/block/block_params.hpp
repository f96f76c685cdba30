// What every block-level scan kernel is given, and the load/store helpers they share.
//
// A kernel is `template <class X, class Op> static void run(X& x, Op op, const BlockParams& p)` where
// X is an execution context (the CPU emulator's, or the GPU's): x.thread(), x.block(), x.sync(),
// x.step(Phase, param), x.shared<T>(name, length), x.input<T>(), x.output<T>(), x.op(op, a, b),
// x.identity(op). Accessors are indexed with a(i); each access records its caller's source line.
// The warp-level kernels also use x.shfl_up(v, delta, width) (a warp shuffle: lane l gets lane
// l - delta's v, or keeps its own below delta) and x.unsynced_step(Phase, param): a step the kernel
// reaches without a barrier of its own (a warp-synchronous level); the recorders align the threads
// there without recording a barrier, so each step's events and snapshot are that level's.
#pragma once

#include <cstdint>

#include "core/hd.hpp"
#include "core/phase.hpp"

namespace sv {

struct BlockParams {
  std::int64_t n = 0;          // elements to scan (the block's segment)
  std::int32_t capacity = 0;   // elements the block holds: n padded with the identity as needed
  bool exclusive = false;
  std::int32_t warp = 32;      // warp width of the warp-level kernels: a power of two, 2..32, <= capacity
};

// s(dst) := element `g` of the input, or the identity past either end. Exclusive scans of the
// inclusive algorithms load the input shifted right by one (element g-1), as PMPP does.
template <class X, class Op, class In, class S>
SV_HD void load_or_identity(X& x, Op op, const In& in, const S& s, std::int32_t dst, std::int64_t g,
                            const BlockParams& p, bool shift, unsigned line = SV_CALLER_LINE) {
  const std::int64_t src = shift ? g - 1 : g;
  if (src >= 0 && src < p.n)
    s(dst, line) = in(src, line);
  else
    s(dst, line) = x.identity(op, line);
}

template <class Out, class S>
SV_HD void store_if_in_range(const Out& out, const S& s, std::int32_t src, std::int64_t g, const BlockParams& p,
                             unsigned line = SV_CALLER_LINE) {
  if (g < p.n) out(g, line) = s(src, line);
}

// Two elements per thread (Brent-Kung, Blelloch, Sklansky): thread t loads t and t + capacity/2.
template <class X, class Op, class In, class S>
SV_HD void load_two(X& x, Op op, const In& in, const S& s, std::int32_t t, const BlockParams& p, bool shift,
                    unsigned line = SV_CALLER_LINE) {
  const std::int32_t half = p.capacity / 2;
  const std::int64_t base = static_cast<std::int64_t>(x.block()) * p.capacity;
  load_or_identity(x, op, in, s, t, base + t, p, shift, line);
  load_or_identity(x, op, in, s, t + half, base + t + half, p, shift, line);
}

template <class X, class Out, class S>
SV_HD void store_two(X& x, const Out& out, const S& s, std::int32_t t, const BlockParams& p,
                     unsigned line = SV_CALLER_LINE) {
  const std::int32_t half = p.capacity / 2;
  const std::int64_t base = static_cast<std::int64_t>(x.block()) * p.capacity;
  store_if_in_range(out, s, t, base + t, p, line);
  store_if_in_range(out, s, t + half, base + t + half, p, line);
}

}  // namespace sv
