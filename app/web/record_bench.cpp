// Records the Kogge-Stone double-buffer lesson at n = 1024 on the emulator, 15 times, and prints the
// median time of one recording: the web build runs it under Node (build/web/record_bench.js), and
// the same file compiled natively gives the time it is compared with (docs/performance.md).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "emulator/record.hpp"

int main() {
  sv::BlockRunConfig config;
  config.algorithm = "kogge-stone-double-buffer";
  config.n = 1024;
  std::vector<double> ms;
  std::size_t events = 0;
  for (int run = 0; run < 15; ++run) {
    const auto start = std::chrono::steady_clock::now();
    const sv::Trace trace = sv::record_block_scan(config);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    events = trace.events.size();
  }
  std::sort(ms.begin(), ms.end());
  std::printf("kogge-stone-double-buffer n = 1024: %zu events, median %.1f ms, fastest %.1f ms\n", events, ms[ms.size() / 2],
              ms.front());
}
