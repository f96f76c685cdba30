// The CPU emulator's warp picker.
#include "emulator/schedule.hpp"

#include <bit>

namespace sv {

void WarpSet::set(int warp, bool on) {
  std::uint64_t& word = words_[static_cast<std::size_t>(warp) / 64];
  const std::uint64_t bit = std::uint64_t{1} << (warp % 64);
  if (((word & bit) != 0) == on) return;
  word ^= bit;
  count_ += on ? 1 : -1;
}

int WarpSet::next_from(int warp) const {
  for (auto w = static_cast<std::size_t>(warp) / 64; w < words_.size(); ++w) {
    std::uint64_t word = words_[w];
    if (w == static_cast<std::size_t>(warp) / 64) word &= ~std::uint64_t{0} << (warp % 64);
    if (word) return static_cast<int>(w * 64) + std::countr_zero(word);
  }
  return -1;
}

int WarpSet::last() const {
  for (std::size_t w = words_.size(); w-- > 0;)
    if (words_[w]) return static_cast<int>(w * 64) + 63 - std::countl_zero(words_[w]);
  return -1;
}

int WarpSet::nth(int k) const {
  for (std::size_t w = 0; w < words_.size(); ++w) {
    std::uint64_t word = words_[w];
    const int here = std::popcount(word);
    if (k >= here) {
      k -= here;
      continue;
    }
    for (; k > 0; --k) word &= word - 1;  // drop the lowest set bits before the k-th
    return static_cast<int>(w * 64) + std::countr_zero(word);
  }
  return -1;
}

int WarpPicker::pick(const WarpSet& runnable) {
  int chosen = runnable.first();
  switch (schedule_.kind) {
    case Schedule::Kind::InOrder: break;
    case Schedule::Kind::Reverse: chosen = runnable.last(); break;
    case Schedule::Kind::RoundRobin:
      if (const int next = runnable.first_after(last_); next >= 0) chosen = next;
      break;
    case Schedule::Kind::Random: chosen = runnable.nth(static_cast<int>(rng_() % static_cast<std::uint64_t>(runnable.count()))); break;
  }
  last_ = chosen;
  return chosen;
}

}  // namespace sv
