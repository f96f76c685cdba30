// What a single-pass scan (chained, decoupled look-back, the pipelined kernel) keeps on the device
// from run to run, and the one object that owns it: the tile counter, the tile descriptors, their
// epoch and layout, and the error flag of the bounded wait.
//
// Invariants, which prepare() establishes before a run and check() verifies after it:
//  1. Every descriptor reads as X (nothing published) to the run: the block was zeroed (epoch 0), or
//     every word in it was written under an earlier epoch of the same layout. The layout (the tile
//     count, the value size, packed or not) fixes where each flag lies; when it changes the block is
//     zeroed, since an old value word where a flag now lies could read as this epoch's flag.
//  2. The counter less knobs.tile_base is the count of tile ids this run has taken. The host adds what
//     each launch takes (taken()); check() compares the device's counter with that sum, so a kernel
//     that takes other than the host believes is an error, not a silent shift of later runs' ids.
//  3. The error flag is clear before a run: check() clears it when it reports a failure, and the run
//     after a failure starts from a zeroed block.
//  4. Epochs count up from 0 to kMaxEpoch (the 30 bits a flag word keeps); the run after that zeroes.
//
// A state belongs to one scanner, used from one host thread on one stream at a time (the default
// unless set_stream names another), one run at a time: runs on two streams at once would interleave
// the counter and the epoch. A run captured into a CUDA graph bakes its epoch and tile base into the
// graph: such a graph must be launched once, in capture order.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "device/device_params.hpp"
#include "gpu/cuda_util.cuh"
#include "gpu/tile_descriptors.cuh"

namespace sv::gpu {

class SinglePassState {
 public:
  // Where the descriptors lie: a layout change moves the flags (invariant 1).
  struct Layout {
    std::int64_t tiles = 0;
    int value_bytes = 0;
    bool packed = false;
    std::int64_t bytes = 0;  // of the descriptors
    bool operator==(const Layout&) const = default;
  };
  template <class T>
  static Layout layout_of(const DeviceParams& p) {
    return {p.tiles, static_cast<int>(sizeof(T)), packed_descriptors<T>(p.fence), descriptor_bytes<T>(p.tiles, p.fence)};
  }

  SinglePassState() : diag_(1) { cuda::check(cudaMemset(diag_.get(), 0, sizeof(TileDiag)), "zeroing the tile error flag"); }

  // The counter and descriptors for one run of `layout`, sets knobs.epoch and knobs.tile_base.
  // reuse: keep the descriptors under the next epoch (no memset launch) where invariant 1 allows;
  // otherwise zeroed with one cudaMemsetAsync, epoch 0.
  DeviceBuffers prepare(const Layout& layout, bool reuse, TileKnobs& knobs) {
    constexpr std::int64_t kCounterBytes = 128;  // the counter in its own line, then the descriptors
    const auto bytes = static_cast<std::size_t>(kCounterBytes + layout.bytes);
    bool zero = !reuse || epoch_ < 0 || epoch_ >= static_cast<long long>(kMaxEpoch) || !(layout == layout_);
    if (bytes > bytes_) {
      block_.reset();
      block_ = std::make_unique<cuda::DeviceArray<unsigned char>>(bytes);
      bytes_ = bytes;
      zero = true;
    }
    if (zero) {
      cuda::check(cudaMemsetAsync(block_->get(), 0, bytes, stream_), "zeroing the tile descriptors");
      epoch_ = 0;
      expected_ = 0;
    } else {
      ++epoch_;
    }
    layout_ = layout;
    knobs.epoch = reuse ? static_cast<unsigned>(epoch_) : 0;
    knobs.tile_base = expected_;
    DeviceBuffers b;
    b.counter = {block_->get(), -1, 1};
    b.descriptors = {block_->get() + kCounterBytes, -1, layout.tiles};
    return b;
  }

  // The launch just made takes `ids` more tile ids from the counter (invariant 2).
  void taken(unsigned long long ids) { expected_ += ids; }

  TileDiag* diag() const { return diag_.get(); }

  // The stream the runs' launches and memsets go to (0: the default stream). check() synchronizes
  // with the device as a whole, so it sees every stream's runs.
  void set_stream(cudaStream_t stream) { stream_ = stream; }
  cudaStream_t stream() const { return stream_; }

  // After a run: throws GpuError when a tile's bounded wait ran out (naming it) or the counter is
  // not where the host's count says; either way the flag is cleared and the next run zeroes.
  void check(std::string_view algorithm) {
    TileDiag h{};
    cuda::check(cudaMemcpy(&h, diag_.get(), sizeof h, cudaMemcpyDeviceToHost), "reading the tile kernels' error flag");
    if (h.failed) {
      invalidate();
      cuda::check(cudaMemset(diag_.get(), 0, sizeof(TileDiag)), "clearing the tile error flag");
      throw GpuError(std::string(algorithm) + ": tile " + std::to_string(h.tile) + " waited longer than " +
                     std::to_string(kSpinLimitNs / 1'000'000'000ull) + " s for its predecessor (" +
                     std::to_string(h.waited_ns / 1'000'000) + " ms of polling); the run was abandoned");
    }
    if (!block_ || epoch_ < 0) return;
    unsigned long long counter = 0;
    cuda::check(cudaMemcpy(&counter, block_->get(), sizeof counter, cudaMemcpyDeviceToHost), "reading the tile counter");
    if (counter != expected_) {
      const unsigned long long expected = expected_;
      invalidate();
      throw GpuError(std::string(algorithm) + ": the tile counter stands at " + std::to_string(counter) +
                     " where the launches took " + std::to_string(expected) + " tile ids; the run's tiles were misnumbered");
    }
  }

  // The next run zeroes the block (after a failure, or when a run may have left it anyhow).
  void invalidate() { epoch_ = -1; }

  // For tests: the next prepare() that may keep the descriptors takes epoch `next` (at most
  // kMaxEpoch + 1, which wraps to a zeroing), and the host's count of ids taken is off by `skew`.
  void start_epoch_for_test(unsigned long long next) {
    if (epoch_ >= 0) epoch_ = static_cast<long long>(next) - 1;
  }
  void skew_count_for_test(long long skew) { expected_ += static_cast<unsigned long long>(skew); }
  long long epoch() const { return epoch_; }

 private:
  cuda::DeviceArray<TileDiag> diag_;
  std::unique_ptr<cuda::DeviceArray<unsigned char>> block_;
  std::size_t bytes_ = 0;
  Layout layout_;
  long long epoch_ = -1;            // of the last run; -1: zero before the next
  unsigned long long expected_ = 0;  // tile ids taken since the last zeroing, by the host's count
  cudaStream_t stream_ = nullptr;
};

}  // namespace sv::gpu
