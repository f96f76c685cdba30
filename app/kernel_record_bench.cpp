// Recording a kernel of the user's own against its built-in twin: Kogge-Stone double-buffered at
// n = 1024 from kernels/block/cuda/kogge_stone_double_buffer.cu (the interpreter) and from its
// templated form, float sums, the same input; the first recording and the median of 15 after a
// second of recordings, as app/web/record_bench.cpp times the lessons (docs/performance.md).
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

namespace {

double bench(const char* what, const std::function<sv::Trace()>& record) {
  std::vector<double> ms;
  double first = 0;
  std::size_t events = 0;
  const auto warm_until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (ms.size() < 15) {
    const auto start = std::chrono::steady_clock::now();
    const sv::Trace trace = record();
    const auto stop = std::chrono::steady_clock::now();
    const double took = std::chrono::duration<double, std::milli>(stop - start).count();
    if (first == 0) first = took;
    if (stop >= warm_until) ms.push_back(took);
    events = trace.events.size();
  }
  std::sort(ms.begin(), ms.end());
  std::printf("%s: %zu events, first %.1f ms, then median %.1f ms, fastest %.1f ms\n", what, events, first, ms[ms.size() / 2], ms.front());
  return ms[ms.size() / 2];
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
  sv::cuda::KernelRunConfig own;
  own.file = SCANVIZ_SOURCE_DIR "/kernels/block/cuda/kogge_stone_double_buffer.cu";
  std::ifstream in(own.file);
  std::ostringstream text;
  text << in.rdbuf();
  own.source = text.str();
  own.n = n;
  own.input = input;
  const double a = bench("kogge-stone-double-buffer n = 1024, built-in", [&] { return sv::record_block_scan(builtin); });
  const double b = bench("kogge_stone_double_buffer.cu n = 1024, interpreted", [&] { return sv::cuda::record_kernel_trace(own); });
  std::printf("interpreted / built-in: %.2fx\n", b / a);
}
