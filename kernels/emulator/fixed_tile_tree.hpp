// deterministic=on in the emulator: a tile scanned in the order the GPU's default tile kernel scans
// it (gpu/tile_exec.cuh, staged: scan_segment, reduce_tile and store_scanned), operation for
// operation and with the same operands on the left, identities included, so that a float tile
// rounds exactly as it does on the GPU. docs/design.md describes the tree.
//
// The tile's threads * items elements (the identity past n) lie as the GPU lays them: warp w owns
// the segment [w * 32 * items, (w + 1) * 32 * items), read in chunks of 32 * V elements (V = 16
// bytes / the value's size), lane l of chunk k holding the V elements from (k * 32 + l) * V.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sv {

// Values a lane reads at once (16 bytes), as gpu/ptx.cuh vector_width.
template <class T>
constexpr int fixed_tree_lane_values() {
  return 16 % sizeof(T) == 0 ? static_cast<int>(16 / sizeof(T)) : 1;
}

// Scans `x` in place to each element's inclusive scan within its warp's segment; warp_prefix[w]
// becomes the combine of the segments before w (from the identity). Returns the tile's aggregate.
template <class Op, class T = typename Op::value_type>
T fixed_tile_reduce(Op op, std::vector<T>& x, std::int32_t threads, std::int32_t items, std::vector<T>& warp_prefix) {
  constexpr int V = fixed_tree_lane_values<T>();
  const std::int32_t warps = threads / 32, chunks = items / V;
  warp_prefix.assign(static_cast<std::size_t>(warps), op.identity());
  T aggregate = op.identity();
  for (std::int32_t w = 0; w < warps; ++w) {
    T* segment = x.data() + static_cast<std::size_t>(w) * 32 * items;
    T carry = op.identity();  // the segment's chunks before this one
    for (std::int32_t k = 0; k < chunks; ++k) {
      std::array<T, 32> s;  // each lane's last local value, then their inclusive scan across the warp
      for (int l = 0; l < 32; ++l) {
        T* v = segment + (static_cast<std::size_t>(k) * 32 + l) * V;
        for (int j = 1; j < V; ++j) v[j] = op(v[j - 1], v[j]);
        s[l] = v[V - 1];
      }
      // Kogge-Stone over the lanes, as the shuffles do it: the lower lane's value on the left; lanes
      // walked downwards so each round reads the round before's values.
      for (int d = 1; d < 32; d *= 2)
        for (int l = 31; l >= d; --l) s[l] = op(s[l - d], s[l]);
      for (int l = 0; l < 32; ++l) {
        const T pre = l == 0 ? carry : op(carry, s[l - 1]);
        T* v = segment + (static_cast<std::size_t>(k) * 32 + l) * V;
        for (int j = 0; j < V; ++j) v[j] = op(pre, v[j]);
      }
      carry = op(carry, s[31]);
    }
    warp_prefix[w] = aggregate;
    aggregate = op(aggregate, carry);
  }
  return aggregate;
}

// Element i's output once the tile's exclusive prefix is known, `x` and `warp_prefix` as
// fixed_tile_reduce left them: (prefix ⊕ warp_prefix[w]) ⊕ x[i], exclusive with the element before
// i in its segment (the first element of a segment takes prefix ⊕ warp_prefix[w] alone).
template <class Op, class T = typename Op::value_type>
T fixed_tile_output(Op op, const std::vector<T>& x, const std::vector<T>& warp_prefix, const T& prefix,
                    std::int32_t items, std::size_t i, bool exclusive) {
  const std::size_t segment = static_cast<std::size_t>(32) * static_cast<std::size_t>(items);
  const T e = op(prefix, warp_prefix[i / segment]);
  if (!exclusive) return op(e, x[i]);
  return i % segment == 0 ? e : op(e, x[i - 1]);
}

}  // namespace sv
