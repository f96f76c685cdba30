// Recording a kernel of the user's own against its built-in twin: Kogge-Stone double-buffered at
// n = 1024 from its templated form, from kernels/block/cuda/kogge_stone_double_buffer.cu and from
// the slide's text in assets/kernels/pmpp_kogge_stone_double_buffer.cu (both through the
// interpreter), float sums, the same input; the first recording and the median of 15 after three
// seconds of recordings, as app/web/record_bench.cpp times the lessons, and the median processor
// time (docs/performance.md). The web build runs the same file under Node
// (build/web/kernel_record_bench.js, which reads the .cu files from the source tree through Node's
// file system).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "core/values.hpp"
#include "cuda_subset/record_kernel.hpp"
#include "emulator/record.hpp"
#include "processor_time.hpp"

namespace {

struct Times {
  double wall = 0, cpu = 0;  // medians, ms
};

Times bench(const char* what, const std::function<sv::Trace()>& record) {
  std::vector<double> wall, cpu;
  double first = 0;
  std::size_t events = 0;
  // Three seconds of recordings first: V8 compiles the interpreter's large functions with its
  // optimizing compiler in the background, which took over a second here on busy cores.
  const auto warm_until = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while (wall.size() < 15) {
    const double cpu_start = sv::processor_ms();
    const auto start = std::chrono::steady_clock::now();
    const sv::Trace trace = record();
    const auto stop = std::chrono::steady_clock::now();
    const double took = std::chrono::duration<double, std::milli>(stop - start).count();
    if (first == 0) first = took;
    if (stop >= warm_until) {
      wall.push_back(took);
      cpu.push_back(sv::processor_ms() - cpu_start);
    }
    events = trace.events.size();
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  const Times t{wall[wall.size() / 2], cpu[cpu.size() / 2]};
  std::printf("%s: %zu events, first %.1f ms, then median %.1f ms (processor %.1f ms), fastest %.1f ms\n", what, events, first,
              t.wall, t.cpu, wall.front());
  return t;
}

}  // namespace

int main() {
  const std::int64_t n = 1024;
  const std::vector<sv::Payload> input = sv::random_input(sv::OpKind::Sum, sv::ValueType::F32, n, 1);
  sv::BlockRunConfig builtin;
  builtin.algorithm = "kogge-stone-double-buffer";
  builtin.n = n;
  builtin.type = sv::ValueType::F32;
  builtin.input = input;
  const Times a = bench("kogge-stone-double-buffer n = 1024, built-in", [&] { return sv::record_block_scan(builtin); });
  for (const char* file : {"kernels/block/cuda/kogge_stone_double_buffer.cu", "assets/kernels/pmpp_kogge_stone_double_buffer.cu"}) {
    sv::cuda::KernelRunConfig own;
    own.file = std::string(SCANVIZ_SOURCE_DIR) + "/" + file;
    std::ifstream in(own.file);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in || text.str().empty()) {
      std::fprintf(stderr, "kernel_record_bench: cannot read %s\n", own.file.c_str());
      return 2;
    }
    own.source = text.str();
    own.n = n;
    own.input = input;
    const Times b = bench((std::string(file) + " n = 1024, interpreted").c_str(), [&] { return sv::cuda::record_kernel_trace(own); });
    std::printf("interpreted / built-in: %.2fx (processor time %.2fx)\n", b.wall / a.wall, b.cpu / a.cpu);
  }
}
