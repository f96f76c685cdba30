// Records two lessons on the emulator and prints the time of one recording: the first, and the
// median of 15 after a second of recordings (V8 runs its baseline code until its optimizing compiler
// has compiled the hot functions in the background, which took about half a second here).
// Kogge-Stone double-buffer at n = 1024 is a block of 1024 threads, every thread a coroutine;
// decoupled look-back at n = 2^18 with the emulator's default tile is 43 blocks, every block a
// coroutine. The web build runs it under Node (build/web/record_bench.js); the same file built
// natively (app/record_bench) gives the times it is compared with (docs/performance.md).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "emulator/record.hpp"

namespace {

void bench(const char* algorithm, std::int64_t n) {
  sv::BlockRunConfig config;
  config.algorithm = algorithm;
  config.n = n;
  std::vector<double> ms;
  std::size_t events = 0;
  sv::TraceMeta meta;
  sv::Outcome outcome{};
  double first = 0;
  const auto warm_until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (ms.size() < 15) {
    const auto start = std::chrono::steady_clock::now();
    const sv::Trace trace = sv::record_scan(config);
    const auto stop = std::chrono::steady_clock::now();
    const double took = std::chrono::duration<double, std::milli>(stop - start).count();
    if (first == 0) first = took;
    if (stop >= warm_until) ms.push_back(took);
    events = trace.events.size() + trace.tile_events.size();
    meta = trace.meta;
    outcome = trace.result.outcome;
  }
  std::sort(ms.begin(), ms.end());
  std::printf("%s n = %lld (%d blocks of %lld elements, %s): %zu events, first %.1f ms, then median %.1f ms, fastest %.1f ms\n", algorithm,
              static_cast<long long>(n), meta.grid, static_cast<long long>(meta.capacity), std::string(sv::outcome_name(outcome)).c_str(),
              events, first, ms[ms.size() / 2], ms.front());
}

}  // namespace

int main() {
  bench("kogge-stone-double-buffer", 1024);
  bench("decoupled-lookback", 1 << 18);
}
