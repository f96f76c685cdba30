// Constructs of students' kernels beyond the slides' forms: warp votes with the bit intrinsics
// (__ballot_sync, __any_sync, __all_sync, __activemask, __popc, __ffs, __clz, __brev), a thread's
// own arrays, and switch. Each is run, and what it writes is checked against the same computation
// done here in C++ from the run's input, never against a copied result.
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <string>

#include "core/values.hpp"
#include "cuda_subset/parser.hpp"
#include "cuda_subset/record_kernel.hpp"
#include "run/launch.hpp"

using namespace sv;

namespace {

Trace run(const std::string& source, std::int64_t n, const std::string& launch, std::int32_t warp = 32) {
  cuda::KernelRunConfig c;
  c.file = "student.cu";
  c.source = source;
  c.n = n;
  c.warp = warp;
  c.launch = parse_launch(launch);
  return cuda::record_kernel_launch(c).trace;
}

std::int64_t in(const Trace& t, std::size_t i) { return t.meta.input[i].as<std::int32_t>(); }
std::int64_t out(const Trace& t, std::size_t i) { return t.result.output[i].as<std::int32_t>(); }

bool scans_whole_input(const Trace& t) {
  const std::vector<Payload> want = reference_scan(t.meta.op, t.meta.type, t.meta.input, t.meta.exclusive);
  return mismatches(t.meta.op, t.meta.type, t.meta.input, t.meta.exclusive, want, t.result.output).empty();
}

}  // namespace

TEST_CASE("__ballot_sync with __popc counts the lanes below that vote yes: each warp's share of an exclusive count") {
  const std::string src = R"(
__global__ void count_below(const int* X, int* Y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  unsigned yes = __ballot_sync(0xffffffffu, i < n && X[i] % 3 == 0);
  if (i < n) Y[i] = __popc(yes & ((1u << lane) - 1u));
}
)";
  for (const std::int64_t n : {32, 45, 64}) {
    CAPTURE(n);
    const Trace t = run(src, n, "count_below<<<(n + 63) / 64, 64>>>(in, out, n)");
    REQUIRE(t.result.output.size() == static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      std::int64_t want = 0;
      for (std::int64_t j = i / 32 * 32; j < i; ++j) want += in(t, static_cast<std::size_t>(j)) % 3 == 0;
      CHECK(out(t, static_cast<std::size_t>(i)) == want);
    }
  }
}

TEST_CASE("__any_sync, __all_sync and __activemask see the lanes of the warp that are there, masked as CUDA masks them") {
  const std::string src = R"(
__global__ void votes(const int* X, int* Y, int n) {
  int i = threadIdx.x;
  int big = X[i] % 2 == 0;
  int any = __any_sync(0xffffffffu, big);
  int all = __all_sync(0x0000000fu, big);
  unsigned active = __activemask();
  Y[i] = any + 2 * all + 4 * __popc(active) + 1024 * __ffs(__ballot_sync(active, big));
}
)";
  for (const std::int64_t n : {20, 32}) {
    CAPTURE(n);
    const Trace t = run(src, n, "votes<<<1, n>>>(in, out, n)");
    bool any = false, all_low = true;
    int first = 0;
    for (std::int64_t j = 0; j < n; ++j) {
      const bool big = in(t, static_cast<std::size_t>(j)) % 2 == 0;
      any |= big;
      if (j < 4) all_low &= big;
      if (big && first == 0) first = static_cast<int>(j) + 1;
    }
    for (std::int64_t i = 0; i < n; ++i)
      CHECK(out(t, static_cast<std::size_t>(i)) == (any ? 1 : 0) + 2 * (all_low ? 1 : 0) + 4 * n + 1024 * first);
  }
}

TEST_CASE("__clz, __ffs and __brev of 32 and 64 bits give what C++'s <bit> gives") {
  const std::string src = R"(
__global__ void bits(const int* X, int* Y, int n) {
  int i = threadIdx.x;
  unsigned v = (unsigned)X[i];
  unsigned long long w = (unsigned long long)v << 20;
  Y[i] = __clz(v) + 64 * __clzll(w) + 4096 * __ffsll(w) + (int)(__brev(v) & 1023u) * 262144;
}
)";
  const Trace t = run(src, 16, "bits<<<1, 16>>>(in, out, n)");
  for (std::size_t i = 0; i < 16; ++i) {
    const auto v = static_cast<std::uint32_t>(in(t, i));
    const std::uint64_t w = static_cast<std::uint64_t>(v) << 20;
    std::uint32_t reversed = 0;
    for (int b = 0; b < 32; ++b) reversed |= ((v >> b) & 1u) << (31 - b);
    const std::int64_t want = std::countl_zero(v) + 64 * std::countl_zero(w) + 4096 * (w ? std::countr_zero(w) + 1 : 0) +
                              static_cast<std::int64_t>(reversed & 1023u) * 262144;
    CHECK(out(t, i) == static_cast<std::int32_t>(want));
  }
}

TEST_CASE("a warp vote in a block emulated with narrower warps than the GPU's is refused, naming the warp") {
  const std::string src = "__global__ void k(const int* X, int* Y, int n) { Y[threadIdx.x] = __popc(__ballot_sync(0xffffffffu, 1)); }\n";
  CHECK_THROWS_WITH((void)run(src, 16, "k<<<1, 16>>>(in, out, n)", 4), doctest::Contains("warps of 4 lanes"));
  CHECK(out(run(src, 16, "k<<<1, 16>>>(in, out, n)", 32), 5) == 16);
}

// Thread coarsening as PMPP's chapter does it: each thread scans its own four values in registers.
const std::string kCoarsened = R"(
#define COARSE 4
__device__ void scan_own(int* v, int count) { for (int k = 1; k < count; ++k) v[k] += v[k - 1]; }

__global__ void coarse(const int* X, int* Y, int n) {
  __shared__ int totals[32];
  int v[COARSE];
  int base = threadIdx.x * COARSE;
  for (int k = 0; k < COARSE; ++k) v[k] = base + k < n ? X[base + k] : 0;
  scan_own(v, COARSE);
  totals[threadIdx.x] = v[COARSE - 1];
  __syncthreads();
  if (threadIdx.x == 0)
    for (int t = 1; t < blockDim.x; ++t) totals[t] += totals[t - 1];
  __syncthreads();
  int before = threadIdx.x > 0 ? totals[threadIdx.x - 1] : 0;
  for (int k = 0; k < COARSE; ++k)
    if (base + k < n) Y[base + k] = v[k] + before;
}
)";

TEST_CASE("a thread's own array: a coarsened scan keeps four values in registers and is correct at every size") {
  for (const std::int64_t n : {4, 13, 32, 61}) {
    CAPTURE(n);
    const Trace t = run(kCoarsened, n, "coarse<<<1, (n + 3) / 4>>>(in, out, n)", 1);
    CHECK(t.result.outcome == Outcome::Correct);
    CHECK(scans_whole_input(t));
    for (const BufferInfo& b : t.buffers) CHECK(b.name != "v");  // registers, not memory another thread sees
  }
}

TEST_CASE("a thread's own array: its initializer fills the rest with zeros, its bounds and its unwritten cells are faults at their lines") {
  const std::string filled = R"(
__global__ void k(const int* X, int* Y, int n) {
  int w[4] = {X[threadIdx.x], 7};
  Y[threadIdx.x] = w[0] + 100 * w[1] + 10000 * (w[2] + w[3] + 1);
}
)";
  const Trace t = run(filled, 8, "k<<<1, 8>>>(in, out, n)", 1);
  for (std::size_t i = 0; i < 8; ++i) CHECK(out(t, i) == in(t, i) + 700 + 10000);

  const std::string past_end = "__global__ void k(const int* X, int* Y, int n) {\n  int v[4];\n  v[threadIdx.x] = X[threadIdx.x];\n  Y[0] = 0;\n}\n";
  try {
    (void)run(past_end, 8, "k<<<1, 8>>>(in, out, n)", 1);
    FAIL("no fault for v[4]");
  } catch (const EmulationError& e) {
    CHECK(e.line == 3);
    CHECK(std::string(e.what()).find("its own array v[4], outside its 4 elements") != std::string::npos);
  }
  const std::string unwritten = "__global__ void k(const int* X, int* Y, int n) {\n  int v[4];\n  v[0] = X[threadIdx.x];\n  Y[threadIdx.x] = v[1];\n}\n";
  try {
    (void)run(unwritten, 8, "k<<<1, 8>>>(in, out, n)", 1);
    FAIL("no fault for v[1]");
  } catch (const EmulationError& e) {
    CHECK(e.kind == "uninitialized-read");
    CHECK(e.line == 4);
    CHECK(std::string(e.what()).find("its own array v[1]") != std::string::npos);
  }
  const std::string atomic = "__global__ void k(const int* X, int* Y, int n) { int v[2] = {0}; atomicAdd(&v[0], 1); Y[threadIdx.x] = v[0]; }\n";
  CHECK_THROWS_WITH((void)run(atomic, 4, "k<<<1, 4>>>(in, out, n)", 1), doctest::Contains("no other thread can see it"));
}

TEST_CASE("arrays that are refused name why: a size not constant, two dimensions, more cells than a thread keeps") {
  const auto refusal = [](const std::string& body) {
    try {
      (void)cuda::parse_kernel("__global__ void k(int* a, int* b, int n) {\n  " + body + "\n}\n", "student.cu", {}, "");
    } catch (const cuda::KernelError& e) {
      CHECK(e.pos.line == 2);
      return e.message;
    }
    FAIL("accepted: " << body);
    return std::string();
  };
  CHECK(refusal("int v[n];").find("is not a constant") != std::string::npos);
  CHECK(refusal("int v[2][2];").find("multi-dimensional") != std::string::npos);
  CHECK(refusal("float v[100000];").find("up to 256") != std::string::npos);
  CHECK(refusal("int v[2] = {1, 2, 3};").find("2 cells and 3 initializers") != std::string::npos);
}

TEST_CASE("a host function's own array is a host buffer: filled in a loop, copied to the device and back") {
  const std::string src = R"(
__global__ void add_one(int* A, int n) { int i = threadIdx.x; if (i < n) A[i] += 1; }
void run_it(const int* in, int* out, int n) {
  int h[64];
  int* d;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemcpy(h, in, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 1; i < n; ++i) h[i] += h[i - 1];
  cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
  add_one<<<1, 64>>>(d, n);
  cudaMemcpy(out, d, n * sizeof(int), cudaMemcpyDeviceToHost);
}
)";
  const Trace t = run(src, 20, "run_it(in, out, n)", 1);
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < 20; ++i) {
    sum += in(t, i);
    CHECK(out(t, i) == static_cast<std::int32_t>(sum + 1));
  }
}

TEST_CASE("switch: cases fall through until break, default where no case matches, continue goes round the loop around it") {
  const std::string src = R"(
__global__ void k(const int* X, int* Y, int n) {
  int i = threadIdx.x;
  int acc = 0;
  for (int r = 0; r < 3; ++r) {
    switch ((i + r) % 5) {
      case 0: acc += 1;
      case 1: acc += 10; break;
      case 3: continue;
      default: acc += 100;
      case 4: acc += 1000;
    }
    acc += 10000;
  }
  Y[i] = acc;
}
)";
  const Trace t = run(src, 10, "k<<<1, 10>>>(in, out, n)", 1);
  for (int i = 0; i < 10; ++i) {
    int acc = 0;
    for (int r = 0; r < 3; ++r) {
      switch ((i + r) % 5) {
        case 0: acc += 1; [[fallthrough]];
        case 1: acc += 10; break;
        case 3: continue;
        default: acc += 100; [[fallthrough]];
        case 4: acc += 1000;
      }
      acc += 10000;
    }
    CAPTURE(i);
    CHECK(out(t, static_cast<std::size_t>(i)) == acc);
  }
}

TEST_CASE("switch errors: a case twice, a case not constant, continue outside a loop, a switch on a float") {
  const auto refusal = [](const std::string& body) {
    try {
      (void)cuda::parse_kernel("__global__ void k(int* a, int* b, int n) {\n  " + body + "\n}\n", "student.cu", {}, "");
    } catch (const cuda::KernelError& e) {
      return e.message;
    }
    FAIL("accepted: " << body);
    return std::string();
  };
  CHECK(refusal("switch (n) { case 1: case 1: break; }").find("case 1 twice") != std::string::npos);
  CHECK(refusal("switch (n) { case n: break; }").find("a case label is a constant") != std::string::npos);
  CHECK(refusal("switch (n) { case 1: continue; }").find("'continue' outside a loop") != std::string::npos);
  CHECK(refusal("float f = 1; switch (f) { default: break; }").find("a switch takes an integer") != std::string::npos);
  CHECK(refusal("switch (n) { default: break; default: break; }").find("a second default") != std::string::npos);
}
