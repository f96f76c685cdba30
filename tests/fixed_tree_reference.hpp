// deterministic=on's scan computed in the test from docs/design.md ("A fixed order for floats"), not
// from the program: the tiles' elements in warp segments, chunks of 32 lanes of V values, a lane's
// left fold, the Kogge-Stone rounds over the lanes kept apart round by round, the carry from chunk to
// chunk, the segments' totals folded in warp order, and each tile's prefix the left fold of the
// aggregates before it. The emulator and the GPU must give exactly these bits. And inputs on which
// every order shows.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "core/ops.hpp"
#include "core/payload.hpp"

namespace sv_test {

// Values whose combines round differently in each order: sums of magnitudes over 2^-12 .. 2^12 and
// both signs, products of factors near 1, and for min and max few distinct values with both zeros,
// so that which of two equal operands is kept shows in the bits.
template <class T>
std::vector<T> order_sensitive_input(sv::OpKind op, std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (T& x : v) {
    if (op == sv::OpKind::Sum) x = static_cast<T>(std::ldexp(unit(rng), static_cast<int>(rng() % 25) - 12));
    else if (op == sv::OpKind::Product) x = static_cast<T>(1.0 + unit(rng) / 512);
    else x = static_cast<T>(static_cast<int>(rng() % 7) - 3) * (rng() % 2 ? T(1) : T(-1)) / T(4);  // 0 and -0 among them
  }
  return v;
}

template <class T>
std::vector<sv::Payload> payloads(const std::vector<T>& v) {
  std::vector<sv::Payload> p;
  for (const T& x : v) p.push_back(sv::Payload::of(x));
  return p;
}

template <class T, class Op>
std::vector<T> fixed_order_scan(Op op, const std::vector<T>& x, std::int64_t threads, std::int64_t items, bool exclusive) {
  const std::int64_t V = 16 / static_cast<std::int64_t>(sizeof(T));
  const std::int64_t n = static_cast<std::int64_t>(x.size()), tile = threads * items, segment = 32 * items;
  const std::int64_t warps = threads / 32, chunks = items / V;
  std::vector<T> out(x.size());
  T tiles_before = op.identity();  // E(t): the fold of the aggregates of tiles 0 .. t-1
  for (std::int64_t t = 0; t * tile < n; ++t) {
    const auto element = [&](std::int64_t j) { return t * tile + j < n ? x[static_cast<std::size_t>(t * tile + j)] : op.identity(); };
    std::vector<T> within(static_cast<std::size_t>(tile));  // each element's inclusive scan within its segment
    std::vector<T> totals;
    for (std::int64_t w = 0; w < warps; ++w) {
      T carry = op.identity();
      for (std::int64_t k = 0; k < chunks; ++k) {
        const auto at = [&](std::int64_t lane, std::int64_t j) { return w * segment + (k * 32 + lane) * V + j; };
        std::vector<std::vector<T>> lane_fold(32, std::vector<T>(static_cast<std::size_t>(V)));
        for (std::int64_t l = 0; l < 32; ++l)
          for (std::int64_t j = 0; j < V; ++j)
            lane_fold[l][j] = j == 0 ? element(at(l, 0)) : op(lane_fold[l][j - 1], element(at(l, j)));
        std::vector<T> round(32);
        for (std::int64_t l = 0; l < 32; ++l) round[l] = lane_fold[l][V - 1];
        for (std::int64_t d = 1; d < 32; d *= 2) {
          std::vector<T> next = round;
          for (std::int64_t l = d; l < 32; ++l) next[l] = op(round[l - d], round[l]);
          round = next;
        }
        for (std::int64_t l = 0; l < 32; ++l) {
          const T before = l == 0 ? carry : op(carry, round[l - 1]);
          for (std::int64_t j = 0; j < V; ++j) within[at(l, j)] = op(before, lane_fold[l][j]);
        }
        carry = op(carry, round[31]);
      }
      totals.push_back(carry);
    }
    std::vector<T> warp_before;
    T aggregate = op.identity();
    for (const T& total : totals) {
      warp_before.push_back(aggregate);
      aggregate = op(aggregate, total);
    }
    const T prefix = t == 0 ? op.identity() : tiles_before;
    for (std::int64_t j = 0; j < tile && t * tile + j < n; ++j) {
      const T e = op(prefix, warp_before[j / segment]);
      out[t * tile + j] = !exclusive ? op(e, within[j]) : j % segment == 0 ? e : op(e, within[j - 1]);
    }
    tiles_before = t == 0 ? aggregate : op(tiles_before, aggregate);
  }
  return out;
}

}  // namespace sv_test
