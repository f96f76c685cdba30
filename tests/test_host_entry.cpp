// A host function as the entry (--launch 'scan_gpu(in, out, n)'): its allocations, copies of every
// kind, host loops and launches run on the emulator in order, one trace holds every launch, and the
// output is judged against the one sequential reference. Bugs of the host code (a launch missing, a
// copy past the end, exit) are found at their lines; what is not run is refused by name.
#include <doctest/doctest.h>

#include <string>

#include "analysis/analysis.hpp"
#include "core/values.hpp"
#include "cuda_subset/check.hpp"
#include "cuda_subset/parser.hpp"
#include "cuda_subset/record_kernel.hpp"
#include "emulator/block_emulator.hpp"
#include "run/launch.hpp"
#include "trace/trace_json.hpp"

using namespace sv;

namespace {

// A three-kernel hierarchical scan: each block scans its section and keeps its total, one block
// scans the totals, and the third kernel adds them back. `host` is the host function's body after
// the allocation of the totals.
std::string hierarchical(const std::string& host) {
  return R"(#include <cstdio>
#define SECTION 64
#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
__global__ void scan_sections(const float* x, float* y, float* sums, int n) {
  __shared__ float s[SECTION];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] : 0.0f;
  for (int stride = 1; stride < blockDim.x; stride *= 2) {
    __syncthreads();
    float t = threadIdx.x >= stride ? s[threadIdx.x - stride] : 0.0f;
    __syncthreads();
    s[threadIdx.x] += t;
  }
  __syncthreads();
  if (i < n) y[i] = s[threadIdx.x];
  if (sums != nullptr && threadIdx.x == blockDim.x - 1) sums[blockIdx.x] = s[threadIdx.x];
}
__global__ void add_sums(float* y, const float* sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x > 0 && i < n) y[i] += sums[blockIdx.x - 1];
}
void scan_gpu(const float* d_in, float* d_out, int n) {
  int blocks = (n + SECTION - 1) / SECTION;
  float* d_sums = NULL;
  CHECK(cudaMalloc((void**)&d_sums, blocks * sizeof(float)));
)" + host + R"(
  CHECK(cudaFree(d_sums));
}
int main() { std::vector<float> v(10); return 0; }
)";
}

const std::string kThreeLaunches = R"(
  scan_sections<<<blocks, SECTION>>>(d_in, d_out, d_sums, n);
  CHECK(cudaGetLastError());
  scan_sections<<<1, SECTION>>>(d_sums, d_sums, nullptr, blocks);
  add_sums<<<blocks, SECTION>>>(d_out, d_sums, n);
  CHECK(cudaDeviceSynchronize());)";

cuda::KernelRunConfig config(const std::string& source, std::int64_t n, const std::string& launch) {
  cuda::KernelRunConfig c;
  c.file = "student.cu";
  c.source = source;
  c.n = n;
  c.launch = parse_launch(launch);
  return c;
}

bool scans_whole_input(const Trace& t) {
  const std::vector<Payload> want = reference_scan(t.meta.op, t.meta.type, t.meta.input, t.meta.exclusive);
  return mismatches(t.meta.op, t.meta.type, t.meta.input, t.meta.exclusive, want, t.result.output).empty();
}

cuda::CheckReport check(const std::string& source, const std::string& launch) {
  cuda::CheckOptions o;
  o.launch = parse_launch(launch);
  return cuda::check_kernel("student.cu", source, o);
}

bool has_error(const cuda::CheckReport& r, const std::string& kind, std::uint32_t line) {
  for (const cuda::CheckError& e : r.errors)
    if (e.kind == kind && e.line == line && e.severity == "error") return true;
  return false;
}

std::string refusal(const std::string& source, const std::string& entry) {
  try {
    (void)cuda::parse_kernel(source, "student.cu", {}, entry);
  } catch (const cuda::KernelError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("host entry: a launch without <<<>>> names a host function, and is printed back as it was given") {
  const LaunchSpec l = parse_launch("scan_gpu(in, out, n)");
  CHECK(l.host);
  CHECK(l.kernel == "scan_gpu");
  CHECK(launch_text(l) == "scan_gpu(in, out, n)");
  CHECK_FALSE(parse_launch("scan<<<1, 64>>>(in, out, n)").host);
  CHECK_THROWS_AS(parse_launch("scan_gpu in, out"), LaunchError);
}

TEST_CASE("host entry: a three-kernel hierarchical scan runs from its host function, every launch in one trace") {
  for (const std::int64_t n : {1, 63, 64, 65, 1000, 4096}) {
    CAPTURE(n);
    const Trace t = cuda::record_kernel_launch(config(hierarchical(kThreeLaunches), n, "scan_gpu(in, out, n)")).trace;
    CHECK(t.result.outcome == Outcome::Correct);
    CHECK(scans_whole_input(t));
    CHECK(t.meta.options.at("launches") == "3");
    CHECK(t.meta.block == 64);
    // The launches' buffers are the run's: input, output, the totals and each kernel's shared array.
    CHECK(t.find_buffer("d_sums") >= 0);
    CHECK(t.snapshots.size() == t.steps.size());
    for (const auto& snapshot : t.snapshots) {
      REQUIRE(snapshot.size() == t.buffers.size());
      for (std::size_t b = 0; b < snapshot.size(); ++b) CHECK(snapshot[b].values.size() == static_cast<std::size_t>(t.buffers[b].length));
    }
  }
  // The trace of every launch is a trace like any other: written and read back the same.
  const Trace t = cuda::record_kernel_launch(config(hierarchical(kThreeLaunches), 200, "scan_gpu(in, out, n)")).trace;
  CHECK(t.meta.grid == 4 + 1 + 4);  // the blocks of the three launches
  const Trace back = trace_from_json(trace_to_json(t));
  CHECK(back.events.size() == t.events.size());
  CHECK(back.meta.grid == t.meta.grid);
  CHECK(back.result.output == t.result.output);
  // Depth: a launch's deepest block (Kogge-Stone over 64 threads: 6 steps that add), and the
  // launches one after another: 6 for the sections, 6 for the totals, 1 to add them back.
  CHECK(compute_metrics(t).steps == 6 + 6 + 1);
  const cuda::CheckReport r = check(hierarchical(kThreeLaunches), "scan_gpu(in, out, n)");
  CHECK(r.verdict == "correct");
  CHECK(r.block == 64);
  CHECK(r.launch == "scan_gpu(in, out, n)");
  CHECK(r.cases.size() >= 16);
}

TEST_CASE("host entry: a launch left out, or a grid too small, is a wrong output, and launches are not races of each other") {
  // Without the third launch the sections are not joined: wrong from the second section on.
  const std::string two = R"(
  scan_sections<<<blocks, SECTION>>>(d_in, d_out, d_sums, n);
  scan_sections<<<1, SECTION>>>(d_sums, d_sums, nullptr, blocks);)";
  CHECK(cuda::record_kernel_launch(config(hierarchical(two), 63, "scan_gpu(in, out, n)")).trace.result.outcome == Outcome::Correct);
  CHECK(cuda::record_kernel_launch(config(hierarchical(two), 65, "scan_gpu(in, out, n)")).trace.result.outcome == Outcome::Wrong);
  const cuda::CheckReport missing = check(hierarchical(two), "scan_gpu(in, out, n)");
  CHECK(missing.verdict == "wrong");
  // One block too few: the last section and its total are never written, and the scan of the totals
  // reads that total.
  const std::string short_grid = R"(
  scan_sections<<<blocks - 1, SECTION>>>(d_in, d_out, d_sums, n);
  scan_sections<<<1, SECTION>>>(d_sums, d_sums, nullptr, blocks);
  add_sums<<<blocks, SECTION>>>(d_out, d_sums, n);)";
  const cuda::CheckReport short_run = check(hierarchical(short_grid), "scan_gpu(in, out, n)");
  CHECK(short_run.verdict == "wrong");
  CHECK(has_error(short_run, "uninitialized-read", 8));
  // The second launch reads what the first wrote, with no barrier between: no race (a launch ends first).
  const Trace t = cuda::record_kernel_launch(config(hierarchical(kThreeLaunches), 200, "scan_gpu(in, out, n)")).trace;
  CHECK(find_hazards(t, true).empty());
  CHECK(check(hierarchical(kThreeLaunches), "scan_gpu(in, out, n)").hazards.empty());
}

TEST_CASE("host entry: copies of every kind, cudaMemset, malloc and new[] with a loop on the host, pointer offsets and dim3") {
  // The totals copied to the host, scanned there by a loop, and copied back; the input staged through
  // a device copy and a host array; the add kernel launched on a pointer past the first section.
  const std::string host = R"(
  float* d_stage;
  CHECK(cudaMalloc(&d_stage, n * sizeof(float)));
  CHECK(cudaMemset(d_stage, 0, n * sizeof(float)));
  float* h_copy = new float[n];
  CHECK(cudaMemcpy(h_copy, d_in, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(d_stage, h_copy, n * sizeof(float), cudaMemcpyHostToDevice));
  delete[] h_copy;
  dim3 grid(blocks);
  scan_sections<<<grid, SECTION>>>(d_stage, d_out, d_sums, n);
  float* h_sums = (float*)malloc(blocks * sizeof(float));
  CHECK(cudaMemcpy(h_sums, d_sums, blocks * sizeof(float), cudaMemcpyDeviceToHost));
  for (int b = 1; b < blocks; ++b) h_sums[b] += h_sums[b - 1];
  CHECK(cudaMemcpy(d_sums, h_sums, blocks * sizeof(float), cudaMemcpyDefault));
  free(h_sums);
  if (blocks > 1) add_sums<<<blocks, SECTION>>>(d_out, d_sums, n);
  CHECK(cudaMemcpy(d_stage, d_out, n * sizeof(float), cudaMemcpyDeviceToDevice));)";
  for (const std::int64_t n : {1, 64, 200, 1000}) {
    CAPTURE(n);
    const Trace t = cuda::record_kernel_launch(config(hierarchical(host), n, "scan_gpu(in, out, n)")).trace;
    CHECK(t.result.outcome == Outcome::Correct);
    CHECK(scans_whole_input(t));
  }
  // A pointer moved into the output: the second half scanned on its own, as the launch says.
  const std::string offset = R"(
  scan_sections<<<1, SECTION>>>(d_in, d_out, nullptr, SECTION);
  scan_sections<<<1, SECTION>>>(d_in + SECTION, d_out + SECTION, nullptr, SECTION);
  add_sums<<<1, SECTION>>>(d_out, d_sums, n);)";
  const Trace t = cuda::record_kernel_launch(config(hierarchical(offset), 128, "scan_gpu(in, out, n)")).trace;
  const std::vector<Payload> second(t.meta.input.begin() + 64, t.meta.input.end());
  const std::vector<Payload> want = reference_scan(t.meta.op, t.meta.type, second, false);
  for (std::size_t i = 0; i < 64; ++i) CHECK(t.result.output[64 + i] == want[i]);
}

TEST_CASE("host entry: exit, a copy past the end and a launch of 2000 threads are faults at their lines") {
  const std::string exits = R"(
  if (n > 100) { fprintf(stderr, "too large\n"); exit(EXIT_FAILURE); })" + kThreeLaunches;
  const cuda::CheckReport r = check(hierarchical(exits), "scan_gpu(in, out, n)");
  CHECK(r.verdict == "wrong");
  CHECK(has_error(r, "runtime", 28));
  const std::string past = R"(
  CHECK(cudaMemcpy(d_sums, d_in, n * sizeof(float), cudaMemcpyDeviceToDevice));)" + kThreeLaunches;
  CHECK_THROWS_AS(cuda::record_kernel_launch(config(hierarchical(past), 200, "scan_gpu(in, out, n)")), EmulationError);
  CHECK(has_error(check(hierarchical(past), "scan_gpu(in, out, n)"), "out-of-bounds", 28));
  const std::string wide = R"(
  scan_sections<<<1, 2000>>>(d_in, d_out, d_sums, n);)";
  CHECK(has_error(check(hierarchical(wide), "scan_gpu(in, out, n)"), "runtime", 28));
}

TEST_CASE("host entry: a host function that calls itself scans the block sums by recursion, three levels deep") {
  const std::string recursive = R"(
  scan_sections<<<blocks, SECTION>>>(d_in, d_out, d_sums, n);
  if (blocks > 1) {
    float* d_scanned;
    CHECK(cudaMalloc(&d_scanned, blocks * sizeof(float)));
    scan_gpu(d_sums, d_scanned, blocks);
    add_sums<<<blocks, SECTION>>>(d_out, d_scanned, n);
  })";
  for (const std::int64_t n : {1, 64, 65, 5000}) {  // 5000: 79 sections, their 2 sections of totals, then 1
    CAPTURE(n);
    const Trace t = cuda::record_kernel_launch(config(hierarchical(recursive), n, "scan_gpu(in, out, n)")).trace;
    CHECK(t.result.outcome == Outcome::Correct);
    CHECK(scans_whole_input(t));
    if (n == 5000) CHECK(t.meta.options.at("launches") == "5");
  }
  // A recursion that never ends is stopped: by the run's buffers where each level allocates (at the
  // allocation), else by its depth (at the call).
  const cuda::CheckReport endless = check(hierarchical(R"(
  scan_gpu(d_in, d_out, n);)"), "scan_gpu(in, out, n)");
  CHECK(endless.verdict == "wrong");
  CHECK(has_error(endless, "budget", 26));
  std::string deep = hierarchical(R"(
  scan_gpu(d_in, d_out, n);)");
  deep.replace(deep.find("  CHECK(cudaMalloc((void**)&d_sums"), 0, "  if (n > 0) { scan_gpu(d_in, d_out, n); return; }\n");
  const cuda::CheckReport deeper = check(deep, "scan_gpu(in, out, n)");
  CHECK(deeper.verdict == "wrong");
  CHECK(has_error(deeper, "budget", 26));
}

TEST_CASE("host entry: what the host code may not do is refused by name and line") {
  CHECK(refusal(hierarchical("  __syncthreads();"), "scan_gpu").find("host code") != std::string::npos);
  CHECK(refusal(hierarchical("  int t = threadIdx.x;"), "scan_gpu").find("host code") != std::string::npos);
  CHECK(refusal(hierarchical("  add_sums<<<1, SECTION>>>(d_out, d_sums);"), "scan_gpu").find("takes 3 parameters") != std::string::npos);
  CHECK(refusal(hierarchical("  add_sums<<<1, SECTION>>>(d_out, 5, n);"), "scan_gpu").find("pointer") != std::string::npos);
  // main is never the entry; a host function the entry does not call may hold anything.
  CHECK(refusal(hierarchical(kThreeLaunches), "main").find("not a kernel") != std::string::npos);
  CHECK(refusal(hierarchical(kThreeLaunches), "scan_gpu").empty());
}

TEST_CASE("host entry: a file of several kernels without --launch runs as its host function launches them") {
  const std::vector<std::string> hosts = cuda::host_launches(hierarchical(kThreeLaunches), "student.cu");
  REQUIRE(hosts.size() == 1);
  CHECK(hosts[0] == "scan_gpu(in, out, n)");  // the const pointer is the input
  const cuda::CheckReport r = cuda::check_kernel("student.cu", hierarchical(kThreeLaunches), {});
  CHECK(r.verdict == "correct");
  CHECK(r.launch == "scan_gpu(in, out, n)");
  // Where the file has no such host function, the error still lists the kernels and a launch to give.
  const std::string no_host = R"(__global__ void a(const float* x, float* y, int n) { }
__global__ void b(float* y, int n) { }
)";
  const cuda::CheckReport refused = cuda::check_kernel("student.cu", no_host, {});
  CHECK(refused.verdict == "error");
  REQUIRE(!refused.errors.empty());
  CHECK(refused.errors[0].message.find("a<<<GRID, BLOCK>>>") != std::string::npos);
}

TEST_CASE("host entry: a host function that launches nothing is no launch to run, even when main after it launches") {
  const std::string source = hierarchical(kThreeLaunches) + R"(
void fill(float* h, int n) { for (int i = 0; i < n; ++i) h[i] = 1.0f; }
void other() { float* d = nullptr; scan_sections<<<1, SECTION>>>(d, d, d, 1); }
)";
  const std::vector<std::string> hosts = cuda::host_launches(source, "student.cu");
  REQUIRE(hosts.size() == 1);  // other() takes nothing to bind; fill() launches nothing
  CHECK(hosts[0] == "scan_gpu(in, out, n)");
}
