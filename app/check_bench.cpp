// The report card of a kernel graded as the page grades it: the check run a slice at a time
// (TimeSlicedJob, 10 ms a slice as the page's frames give it), printing the whole check's time, the
// longest slice (a frame's longest pause), each also in processor time (which moves less with other
// work on the machine), and when the first case's result was there. The web build runs the same file under Node (build/web/check_bench.js, which reads the .cu
// file through Node's file system); the two side by side are the page's cost (docs/performance.md).
//   check_bench FILE.cu 'LAUNCH' [SLICE_MS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "cuda_subset/check.hpp"
#include "emulator/time_slice.hpp"
#include "processor_time.hpp"
#include "run/launch.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: check_bench FILE.cu 'LAUNCH' [SLICE_MS]\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in || text.str().empty()) {
    std::fprintf(stderr, "check_bench: cannot read %s\n", argv[1]);
    return 2;
  }
  double slice_ms = 10;
  sv::cuda::CheckOptions options;
  try {
    if (argc == 4) slice_ms = std::stod(argv[3]);
    options.launch = sv::parse_launch(argv[2]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "check_bench: %s\n", e.what());
    return 2;
  }
  std::optional<sv::cuda::CheckRun> run;
  run.emplace(argv[1], text.str(), options);
  sv::cuda::CheckReport report;
  sv::TimeSlicedJob job([&] {
    while (run->step()) {
    }
    report = run->finish();
  });
  const double cpu_start = sv::processor_ms();
  const auto start = Clock::now();
  double longest = 0, longest_cpu = 0, first_case = -1;
  for (bool done = false; !done;) {
    const auto slice = Clock::now();
    const double slice_cpu = sv::processor_ms();
    done = job.run_for(slice_ms);
    const auto end = Clock::now();
    longest = std::max(longest, ms_between(slice, end));
    longest_cpu = std::max(longest_cpu, sv::processor_ms() - slice_cpu);
    if (first_case < 0 && run->cases_run() > 0) first_case = ms_between(start, end);
  }
  const double wall = ms_between(start, Clock::now());
  std::printf("%s: %s, %zu cases; check %.0f ms (processor %.0f ms) in %zu slices of %.0f ms, longest slice %.1f ms (processor %.1f ms), "
              "first case's result at %.0f ms\n",
              argv[1], report.verdict.c_str(), report.cases.size(), wall, sv::processor_ms() - cpu_start, job.slices(), slice_ms, longest,
              longest_cpu, first_case);
}
