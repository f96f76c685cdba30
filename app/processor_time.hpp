// The process's processor time, for the benchmarks that run natively and under Node alike
// (kernel_record_bench, check_bench): on a machine shared with other work, wall time moves with the
// load and processor time much less, so the two are printed side by side. Include it in one
// translation unit of a program.
#pragma once

#include <ctime>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
// Node's process.cpuUsage(), user and system, in microseconds: these programs run under Node only,
// and a browser's clock() is the wall clock.
EM_JS(double, node_cpu_microseconds, (), {
  var used = process.cpuUsage();
  return used.user + used.system;
});
#endif

namespace sv {

// In milliseconds, since the process started.
inline double processor_ms() {
#ifdef __EMSCRIPTEN__
  return node_cpu_microseconds() / 1000.0;
#else
  return 1000.0 * static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
#endif
}

}  // namespace sv
