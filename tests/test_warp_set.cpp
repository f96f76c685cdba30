// The scheduler's set of warps that can issue (emulator/schedule.hpp), against a std::set: the picks
// of every schedule depend on its first, last, next and k-th warp being right across word edges.
#include <doctest/doctest.h>

#include <iterator>
#include <random>
#include <set>

#include "emulator/schedule.hpp"

using namespace sv;

TEST_CASE("warp set: first, last, next and the k-th warp agree with a sorted set as warps come and go") {
  for (const int warps : {1, 5, 63, 64, 65, 130, 1024}) {
    CAPTURE(warps);
    WarpSet bits(warps);
    std::set<int> ref;
    std::mt19937 rng(static_cast<unsigned>(warps));
    for (int step = 0; step < 4000; ++step) {
      const int w = static_cast<int>(rng() % static_cast<unsigned>(warps));
      const bool on = rng() % 3 != 0;
      bits.set(w, on);
      if (on) ref.insert(w);
      else ref.erase(w);
      REQUIRE(bits.count() == static_cast<int>(ref.size()));
      CHECK(bits.first() == (ref.empty() ? -1 : *ref.begin()));
      CHECK(bits.last() == (ref.empty() ? -1 : *ref.rbegin()));
      const int probe = static_cast<int>(rng() % static_cast<unsigned>(warps + 1)) - 1;  // -1 .. warps-1
      const auto after = ref.upper_bound(probe);
      CHECK(bits.first_after(probe) == (after == ref.end() ? -1 : *after));
      if (!ref.empty()) {
        const int k = static_cast<int>(rng() % ref.size());
        CHECK(bits.nth(k) == *std::next(ref.begin(), k));
      }
    }
  }
}

TEST_CASE("warp set: each schedule picks as it is defined: lowest, highest, next after the last, seeded") {
  WarpSet bits(200);
  for (const int w : {3, 64, 127, 128, 199}) bits.set(w, true);
  WarpPicker in_order(*Schedule::parse("in-order"));
  CHECK(in_order.pick(bits) == 3);
  WarpPicker reverse(*Schedule::parse("reverse"));
  CHECK(reverse.pick(bits) == 199);
  WarpPicker round(*Schedule::parse("round-robin"));
  CHECK(round.pick(bits) == 3);
  CHECK(round.pick(bits) == 64);
  CHECK(round.pick(bits) == 127);
  CHECK(round.pick(bits) == 128);
  CHECK(round.pick(bits) == 199);
  CHECK(round.pick(bits) == 3);  // wraps
  // random:7 takes the (rng() % count)-th warp of the set, rng seeded with 7.
  WarpPicker random(*Schedule::parse("random:7"));
  std::mt19937_64 rng(7);
  const int order[] = {3, 64, 127, 128, 199};
  for (int i = 0; i < 20; ++i) CHECK(random.pick(bits) == order[rng() % 5]);
}
