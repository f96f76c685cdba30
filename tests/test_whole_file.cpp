// Whole .cu files as students have them: host code around the kernels, several kernels and a launch
// naming one, __device__ functions, extern __shared__ arrays sized by the launch, file-scope constants,
// the integer types, casts, pointer arithmetic, printf and assert. Each construct is run, and the
// output judged against the one sequential reference (reference_scan), never against a copied result.
#include <doctest/doctest.h>

#include <string>

#include "core/values.hpp"
#include "cuda_subset/check.hpp"
#include "cuda_subset/parser.hpp"
#include "cuda_subset/printf_format.hpp"
#include "cuda_subset/record_kernel.hpp"
#include "run/launch.hpp"

using namespace sv;

namespace {

cuda::KernelRunConfig config(const std::string& source, std::int64_t n, const std::string& launch = "") {
  cuda::KernelRunConfig c;
  c.file = "student.cu";
  c.source = source;
  c.n = n;
  c.warp = 1;
  if (!launch.empty()) c.launch = parse_launch(launch);
  return c;
}

// The launch's output against the sequential scan of the whole input (the file computes that).
bool scans_whole_input(const Trace& t) {
  const std::vector<Payload> want = reference_scan(t.meta.op, t.meta.type, t.meta.input, t.meta.exclusive);
  return mismatches(t.meta.op, t.meta.type, t.meta.input, t.meta.exclusive, want, t.result.output).empty();
}

Trace run(const std::string& source, std::int64_t n, const std::string& launch = "") {
  return cuda::record_kernel_launch(config(source, n, launch)).trace;
}

cuda::KernelError parse_error(const std::string& source, const std::string& entry = "") {
  try {
    (void)cuda::parse_kernel(source, "student.cu", {}, entry);
  } catch (const cuda::KernelError& e) {
    return e;
  }
  FAIL("no error for: " << source);
  return cuda::KernelError("", "", {}, "");
}

// A student's file: includes, an error-checking macro, a helper, host code with strings, and a
// double-buffered Kogge-Stone kernel whose add is a __device__ function.
const std::string kWholeFile = R"(#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { printf("%s\n", cudaGetErrorString(e)); exit(1); } } while (0)
#define SECTION 16

struct Timer { float ms; };
static void fill(float* a, int n) { for (int i = 0; i < n; ++i) a[i] = 1.0f; }

__device__ __forceinline__ float combine(float a, float b) { return a + b; }

__global__ void ks_double(const float* __restrict__ X, float* Y, unsigned int n) {
  __shared__ float A[SECTION];
  __shared__ float B[SECTION];
  unsigned int i = threadIdx.x;
  A[i] = i < n ? X[i] : 0.0f;
  float* src = A;
  float* dst = B;
  for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
    __syncthreads();
    dst[i] = i >= stride ? combine(src[i], src[i - stride]) : src[i];
    float* t = src; src = dst; dst = t;
  }
  if (i < n) Y[i] = src[i];
}

int main(int argc, char** argv) {
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, SECTION * sizeof(float)));
  ks_double<<<1, SECTION>>>(d_in, d_out, SECTION);
  printf("done: %d\n", argc);
  return 0;
}
)";

}  // namespace

TEST_CASE("a whole file: host code, macros with arguments, structs and strings are read past, and its kernel runs") {
  for (const std::int64_t n : {16, 11, 1}) {
    const Trace t = run(kWholeFile, n, "ks_double<<<1, 16>>>(in, out, n)");
    CAPTURE(n);
    CHECK(t.meta.block == 16);
    CHECK(t.result.outcome == Outcome::Correct);
    CHECK(scans_whole_input(t));
  }
  // Without a launch, the file's only kernel runs as inferred.
  CHECK(cuda::parse_kernel(kWholeFile, "student.cu").name == "ks_double");
}

TEST_CASE("several kernels: the launch names the one that runs, and without one the error lists them and shows a --launch") {
  const std::string two = R"(
__global__ void add(float* Y, const float* S, int n) { if (blockIdx.x > 0) Y[blockIdx.x * blockDim.x + threadIdx.x] += S[blockIdx.x - 1]; }
__global__ void copy(const float* X, float* Y, int n) { unsigned int i = threadIdx.x; if (i < n) Y[i] = X[i]; }
)";
  const cuda::KernelError e = parse_error(two);
  CHECK(e.message.find("2 kernels (add, copy)") != std::string::npos);
  CHECK(e.message.find("--launch 'add<<<") != std::string::npos);
  CHECK(cuda::parse_kernel(two, "f.cu", {}, "copy").name == "copy");
  CHECK(cuda::parse_kernel(two, "f.cu", {}, "copy").kernels == std::vector<std::string>{"add", "copy"});
  CHECK(parse_error(two, "scan").message.find("'scan' is not a kernel of this file (its kernels: add, copy)") != std::string::npos);
  // A copy is not a scan: judged against the reference, it is wrong from its second output on.
  const Trace t = run(two, 8, "copy<<<1, 8>>>(in, out, n)");
  CHECK(t.result.outcome == Outcome::Wrong);
}

TEST_CASE("__device__ functions: calls, returns from loops, default arguments, pointers passed, recursion refused") {
  const std::string src = R"(
__host__ __device__ inline int lowbit(int x, int unused = 0) { return x & -x; }
static __device__ float load_or_zero(const float* p, unsigned int i, unsigned int n) {
  if (i >= n) return 0.0f;
  return p[i];
}
__device__ void store(float* p, unsigned int i, float v) { p[i] = v; }
__device__ int first_at_least(int limit) {
  for (int k = 1;; k *= 2)
    if (k >= limit) return k;
}
__global__ void scan(const float* X, float* Y, unsigned int n) {
  __shared__ float XY[8];
  unsigned int i = threadIdx.x;
  XY[i] = load_or_zero(X, i, n);
  for (int stride = 1; stride < first_at_least(8); stride *= 2) {
    __syncthreads();
    float t = i >= stride ? XY[i - stride] : 0.0f;
    __syncthreads();
    XY[i] += t;
  }
  if (i < n && lowbit(8) == 8) store(Y, i, XY[i]);
}
)";
  const cuda::Kernel k = cuda::parse_kernel(src, "f.cu");
  CHECK(k.functions.size() == 4);
  for (const std::int64_t n : {8, 5}) {
    const Trace t = run(src, n, "scan<<<1, 8>>>(in, out, n)");
    CAPTURE(n);
    CHECK(t.result.outcome == Outcome::Correct);
  }
  // The pointer the kernel passes to store() is its output, as if it had stored through it itself.
  CHECK(k.params[1].written);
  CHECK(!k.params[0].written);

  const cuda::KernelError rec = parse_error(
      "__device__ int f(int x) { return x > 0 ? f(x - 1) : 0; }\n__global__ void k(float* a, float* b) { b[0] = f(3); }\n");
  CHECK(rec.message.find("'f' calls itself") != std::string::npos);
  const cuda::KernelError mutual = parse_error(
      "__device__ int g(int x);\n__device__ int f(int x) { return g(x); }\n__device__ int g(int x) { return f(x); }\n"
      "__global__ void k(float* a, float* b) { b[0] = f(3); }\n");
  CHECK(mutual.message.find("calls itself") != std::string::npos);
  const cuda::KernelError undefined = parse_error("__device__ int f(int x);\n__global__ void k(float* a, float* b) { b[0] = f(3); }\n");
  CHECK(undefined.message.find("declared but never defined") != std::string::npos);
}

TEST_CASE("a function that runs off its end without its value is a fault at the call") {
  const std::string src = R"(
__device__ float pick(float a, int which) { if (which == 0) return a; }
__global__ void k(const float* X, float* Y, int n) { Y[threadIdx.x] = pick(X[threadIdx.x], threadIdx.x); }
)";
  CHECK_THROWS_WITH_AS((void)run(src, 2, "k<<<1, 2>>>(in, out, n)"), doctest::Contains("'pick' ended without returning a value"), EmulationError);
}

TEST_CASE("extern __shared__: one allocation a block, sized by the launch's bytes, carved with pointers") {
  // Blelloch's work-efficient exclusive scan, two elements a thread, in dynamic shared memory.
  const std::string src = R"(
__global__ void blelloch(float* g_odata, const float* g_idata, int n) {
  extern __shared__ float temp[];
  int thid = threadIdx.x;
  int offset = 1;
  temp[2 * thid] = 2 * thid < n ? g_idata[2 * thid] : 0;
  temp[2 * thid + 1] = 2 * thid + 1 < n ? g_idata[2 * thid + 1] : 0;
  int m = 2 * blockDim.x;
  for (int d = m >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1, bi = offset * (2 * thid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (thid == 0) temp[m - 1] = 0;
  for (int d = 1; d < m; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1, bi = offset * (2 * thid + 2) - 1;
      float t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  if (2 * thid < n) g_odata[2 * thid] = temp[2 * thid];
  if (2 * thid + 1 < n) g_odata[2 * thid + 1] = temp[2 * thid + 1];
}
)";
  for (const std::int64_t n : {16, 13}) {
    cuda::KernelRunConfig c = config(src, n, "blelloch<<<1, 8, 16 * sizeof(float)>>>(out, in, n)");
    c.exclusive = true;
    const Trace t = cuda::record_kernel_launch(c).trace;
    CAPTURE(n);
    CHECK(t.result.outcome == Outcome::Correct);
  }
  // Half the bytes it needs: the kernel's own store past them is out of bounds, at its line.
  cuda::KernelRunConfig small = config(src, 16, "blelloch<<<1, 8, 8 * sizeof(float)>>>(out, in, n)");
  small.exclusive = true;
  CHECK_THROWS_WITH_AS((void)cuda::record_kernel_launch(small), doctest::Contains("temp[8], outside its 8 elements"), EmulationError);
  // No bytes at all: said before anything runs.
  CHECK_THROWS_WITH_AS((void)run(src, 16, "blelloch<<<1, 8>>>(out, in, n)"), doctest::Contains("SHARED_BYTES"), cuda::KernelError);

  // Two extern arrays are one allocation: b is a, and carving b past a's half separates them.
  const std::string carve = R"(
__global__ void k(const float* X, float* Y, int n) {
  extern __shared__ float a[];
  extern __shared__ float b[];
  float* second = b + blockDim.x;
  a[threadIdx.x] = X[threadIdx.x];
  second[threadIdx.x] = 2.0f;
  __syncthreads();
  float s = 0;
  for (int j = 0; j <= threadIdx.x; ++j) s += b[j];
  Y[threadIdx.x] = s + *(a + blockDim.x) - second[0];
}
)";
  const Trace t = run(carve, 4, "k<<<1, 4, 8 * sizeof(float)>>>(in, out, n)");
  CHECK(t.result.outcome == Outcome::Correct);
}

TEST_CASE("file-scope and local constants size arrays, and the integer types, auto, casts, comma and nullptr run as C++ says") {
  const std::string src = R"(
const int TILE = 4;
constexpr unsigned WIDTH = TILE * 2;
typedef float real;
using index_t = size_t;
__global__ void k(const real* X, real* Y, int n) {
  __shared__ real s[WIDTH];
  const int half = WIDTH / 2;
  __shared__ int flags[half];
  index_t i = threadIdx.x;
  auto j = static_cast<int>(i);
  s[i] = X[i];
  if (i < half) flags[i] = 0;
  __syncthreads();
  long long big = 1LL << 40;
  uint32_t wrapped = 0xffffffffu;
  wrapped += 2;
  int64_t neg = -big;
  real* nothing = nullptr;
  float acc = 0, dummy;
  for (int m = 0, unused = 0; m <= j; ++m, ++unused) acc += s[m];
  dummy = (acc, 1.0f);
  bool ok = big == 1099511627776LL && wrapped == 1u && neg < 0 && nothing == nullptr && (int)3.9f == 3 && dummy == 1.0f &&
            reinterpret_cast<const float*>(X) == X && sizeof(long long) == 8 && sizeof(s) == WIDTH * sizeof(float);
  Y[i] = ok ? acc : -1.0f;
}
)";
  const Trace t = run(src, 8, "k<<<1, 8>>>(in, out, n)");
  CHECK(t.result.outcome == Outcome::Correct);
}

TEST_CASE("64-bit integers wrap at 64 bits and shift up to 63, and a shift by the width is undefined and named") {
  const std::string src = R"(
__global__ void k(const long long* X, long long* Y, int n) {
  unsigned long long u = 0xffffffffffffffffull;
  u += 1;
  long long s = 0;
  for (int m = 0; m <= threadIdx.x; ++m) s += X[m];
  Y[threadIdx.x] = u == 0 ? s + (1LL << 62) - (1LL << 62) : 0;
}
)";
  const Trace t = run(src, 4, "k<<<1, 4>>>(in, out, n)");
  CHECK(t.meta.type == ValueType::I64);
  CHECK(t.result.outcome == Outcome::Correct);
  const std::string bad = "__global__ void k(const int* X, int* Y, int n) { int s = 32; Y[0] = 1 << s; }\n";
  CHECK_THROWS_WITH_AS((void)run(bad, 1, "k<<<1, 1>>>(in, out, n)"), doctest::Contains("shift by 32 (outside 0..31, undefined in C++)"), EmulationError);
}

TEST_CASE("printf arguments are read as the kernel reads them, and assert, min, max and abs run") {
  const std::string src = R"(
__global__ void k(const int* X, int* Y, int n) {
  __shared__ int s[4];
  s[threadIdx.x] = X[threadIdx.x];
  __syncthreads();
  int acc = 0;
  for (int m = 0; m <= threadIdx.x; ++m) acc += s[m];
  printf("thread %d: "
         "%d\n", threadIdx.x, s[threadIdx.x]);
  assert(acc == acc);
  Y[threadIdx.x] = max(min(acc, 1 << 30), -(1 << 30)) + abs(0);
}
)";
  const Trace t = run(src, 4, "k<<<1, 4>>>(in, out, n)");
  CHECK(t.result.outcome == Outcome::Correct);
  std::int64_t reads_of_own_cell = 0;  // the load's and printf's reads of s[threadIdx.x]
  for (const Event& e : t.events)
    if (e.kind == EventKind::Read && t.buffers[static_cast<std::size_t>(e.buffer)].name == "s" && e.index == e.thread) ++reads_of_own_cell;
  CHECK(reads_of_own_cell >= 8);  // each thread reads its own cell in the loop and again in printf
  const std::string failing = "__global__ void k(const int* X, int* Y, int n) { assert(threadIdx.x < 2); Y[threadIdx.x] = X[threadIdx.x]; }\n";
  CHECK_THROWS_WITH_AS((void)run(failing, 4, "k<<<1, 4>>>(in, out, n)"), doctest::Contains("assert failed in thread 2"), EmulationError);
}

TEST_CASE("the launch binds every argument: io in place, sums one cell a block, zeros(K), numbers and n") {
  // An in-place scan of each block's section, then its total to sums, with a scale of 1.0 passed.
  const std::string src = R"(
__global__ void k(float* data, float* totals, int* scratch, float scale, int n) {
  __shared__ float s[4];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? data[i] * scale : 0.0f;
  scratch[i] += 1;
  __syncthreads();
  float acc = 0;
  for (int m = 0; m <= threadIdx.x; ++m) acc += s[m];
  if (i < n) data[i] = acc;
  if (threadIdx.x == blockDim.x - 1) totals[blockIdx.x] = acc;
}
)";
  const Trace t = run(src, 8, "k<<<(n + 3) / 4, 4>>>(io, sums, zeros(n), 1.0, n)");
  CHECK(t.meta.grid == 2);
  CHECK(t.meta.capacity == 4);
  CHECK(t.result.outcome == Outcome::Correct);  // each block's section, scanned in place
  CHECK(t.buffers.size() == 4 + 1);             // input, data, totals, scratch and the shared s
  // A buffer never written (buf) is an uninitialized read where the kernel adds to it.
  CHECK_THROWS_AS((void)run(src, 8, "k<<<(n + 3) / 4, 4>>>(io, sums, buf(n), 1.0, n)"), EmulationError);
  // One argument short: said with the parameters' count.
  CHECK_THROWS_WITH_AS((void)run(src, 8, "k<<<2, 4>>>(io, sums, zeros(n), n)"), doctest::Contains("takes 5 parameters; the launch passes 4"),
                       cuda::KernelError);
}

TEST_CASE("launch text: expressions in n with sizeof, and errors that quote at most a short piece") {
  CHECK(eval_launch_expr("(n + 255) / 256", 1000) == 4);
  CHECK(eval_launch_expr("2 * 256 * sizeof(float)", 0) == 2048);
  CHECK(eval_launch_expr("n < 1024 ? n : 1024", 5000) == 1024);
  CHECK(eval_launch_expr("min(n, 512) << 1", 300) == 600);
  CHECK(eval_launch_expr("0x10 + 1u", 0) == 17);
  CHECK_THROWS_WITH_AS((void)eval_launch_expr("n / (n - n)", 4), doctest::Contains("division by zero"), LaunchError);
  CHECK_THROWS_WITH_AS((void)eval_launch_expr("1 << 63", 0), doctest::Contains("shift by 63"), LaunchError);
  CHECK_THROWS_WITH_AS((void)eval_launch_expr("blocks * 2", 0), doctest::Contains("unknown name 'blocks'"), LaunchError);
  const LaunchSpec l = parse_launch("  scan<float, 256><<<(n + 511) / 512, 256, 512 * sizeof(float)>>>(in, out, sums, n)  ");
  CHECK(l.kernel == "scan");
  CHECK(l.template_args == std::vector<std::string>{"float", "256"});
  CHECK(l.grid == "(n + 511) / 512");
  CHECK(l.shared == "512 * sizeof(float)");
  CHECK(l.args.size() == 4);
  CHECK(launch_text(l) == "scan<float, 256><<<(n + 511) / 512, 256, 512 * sizeof(float)>>>(in, out, sums, n)");
  CHECK(parse_launch("k<<<n >> 8, 256>>>(in, out)").grid == "n >> 8");
  CHECK_THROWS_WITH_AS(parse_launch("k<<<1, 32>>>(in, n)"), doctest::Contains("name the scan's output once"), LaunchError);
  CHECK_THROWS_WITH_AS(parse_launch("k in, out, n"), doctest::Contains("no <<<GRID, BLOCK>>>"), LaunchError);
  CHECK(parse_launch("k(in, out, n)").host);  // a host function of the file that launches the kernels
  CHECK_THROWS_WITH_AS(parse_launch("k<<<1, 32>>>(in, out, bogus(3))"), doctest::Contains("'bogus(3)'"), LaunchError);
  try {
    (void)parse_launch("k<<<1, 32>>>(in, out, " + std::string(3000, 'x') + ")");
    FAIL("no error");
  } catch (const LaunchError& e) {
    CHECK(std::string(e.what()).size() < 200);  // the 3000 x's are not echoed
  }
  const cuda::KernelRunConfig c = config("__global__ void k(const float* X, float* Y, int n) { }\n", 4096,
                                         "k<<<1, n>>>(in, out, n)");
  CHECK_THROWS_WITH_AS((void)cuda::launch_at(c), doctest::Contains("the launch's block is 4096 threads at n = 4096"), LaunchError);
}

TEST_CASE("__device__ and __constant__ variables: global memory every block sees, set at the start of every run") {
  // A tile ticket and the blocks' carry through a __device__ array: the blocks run in order here.
  const std::string src = R"(
__device__ unsigned int next_tile = 0;
__device__ float carry[64];
__constant__ float scale = 1.0f;
__global__ void k(const float* X, float* Y, int n) {
  __shared__ unsigned int tile;
  __shared__ float s[4];
  if (threadIdx.x == 0) tile = atomicAdd(&next_tile, 1u);
  __syncthreads();
  int i = tile * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? X[i] * scale : 0.0f;
  __syncthreads();
  float acc = tile > 0 ? carry[tile - 1] : 0.0f;
  for (int m = 0; m <= threadIdx.x; ++m) acc += s[m];
  if (i < n) Y[i] = acc;
  if (threadIdx.x == blockDim.x - 1) carry[tile] = acc;
}
)";
  for (const std::int64_t n : {8, 13}) {
    CAPTURE(n);
    const Trace t = run(src, n, "k<<<(n + 3) / 4, 4>>>(in, out, n)");
    CHECK(t.result.outcome == Outcome::Correct);
    CHECK(scans_whole_input(t));  // the carry joins the blocks: the whole input's scan
  }
  // Set again at every run: a second run of the same kernel takes tickets from 0 again.
  CHECK(run(src, 8, "k<<<2, 4>>>(in, out, n)").result.outcome == Outcome::Correct);
  CHECK(parse_error("__device__ float* p;\n__global__ void k(float* a, float* b) { }\n").message.find("__device__ pointer") != std::string::npos);
}

TEST_CASE("what is not read is one error naming it: a template kernel without its arguments, a two-dimensional array") {
  CHECK(parse_error("template <int B> __global__ void k(float* a, float* b) { }\n").message.find("say its arguments with --launch 'k<...>") != std::string::npos);
  CHECK(parse_error("template <int B> __global__ void k(float* a, float* b) { }\n", "k").message.find("is a template kernel") != std::string::npos);
  const cuda::KernelError local = parse_error("__global__ void k(float* a, float* b) {\n  float r[4][4];\n}\n");
  CHECK(local.pos.line == 2);
  CHECK(local.message.find("multi-dimensional arrays are not read") != std::string::npos);
}

TEST_CASE("a signed overflow of an index or a stride is undefined behaviour at its line, and the data's own wrap-around is not") {
  // The stride doubles until it wraps negative: nvcc keeps the loop running, so it is a fault here.
  const std::string stride = R"(__global__ void k(const int* in, int* out, int n) {
  __shared__ int s[8];
  s[threadIdx.x] = in[threadIdx.x];
  for (int stride = 1; stride > 0; stride *= 2) {
    __syncthreads();
  }
  out[threadIdx.x] = s[threadIdx.x];
}
)";
  try {
    (void)run(stride, 8, "k<<<1, 8>>>(in, out, n)");
    FAIL("no fault");
  } catch (const EmulationError& e) {
    CHECK(e.kind == "runtime");
    CHECK(e.line == 4);
    CHECK(std::string(e.what()).find("signed overflow") != std::string::npos);
  }
  // A counter's ++ past INT_MAX too.
  const std::string counter = R"(__global__ void k(const int* in, int* out, int n) {
  int c = 2147483646;
  c++;
  c++;
  out[threadIdx.x] = in[threadIdx.x];
}
)";
  CHECK_THROWS_WITH_AS(run(counter, 8, "k<<<1, 8>>>(in, out, n)"), doctest::Contains("signed overflow"), EmulationError);
  // The scan's values wrap as the reference's do: full-range inputs, no fault, the reference's output.
  const std::string scan = R"(__global__ void k(const int* in, int* out, int n) {
  __shared__ int s[8];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) for (int i = 1; i < n; ++i) s[i] += s[i - 1];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
)";
  cuda::KernelRunConfig c = config(scan, 8, "k<<<1, 8>>>(in, out, n)");
  for (int i = 0; i < 8; ++i) c.input.push_back(Payload::of(std::int32_t{2000000000} - i));
  const Trace t = cuda::record_kernel_launch(c).trace;
  CHECK(scans_whole_input(t));
  CHECK(t.result.output[1].as<std::int32_t>() < 0);  // 4e9 wrapped
}

TEST_CASE("printf's lines go to the run and the card, formatted as C formats them, each with its thread and line") {
  CHECK(cuda::format_printf("%d|%5.2f|%-3u|%x|%s|%%|%c", {{false, false, -7}, {true, false, 0, 3.14159}, {false, false, 4},
                                                          {false, false, 255}, {false, true}, {false, false, 65}}) ==
        "-7| 3.14|4  |ff|(string)|%|A");
  CHECK(cuda::format_printf("%lld %zu %ld", {{false, false, -5000000000}, {false, false, 12}}) == "-5000000000 12 0");  // a missing argument is 0
  const std::string source = R"(#include <cstdio>
__global__ void k(const float* in, float* out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = in[i];
  if (i == 0) printf("block %d saw n = %d, first %.1f\n", blockIdx.x, n, in[0]);
}
)";
  cuda::KernelRunConfig c = config(source, 4, "k<<<1, 4>>>(in, out, n)");
  c.input = {Payload::of(2.5f), Payload::of(1.0f), Payload::of(1.0f), Payload::of(1.0f)};
  const cuda::KernelRun run = cuda::record_kernel_launch(c);
  REQUIRE(run.printed.size() == 1);
  CHECK(run.printed[0] == "block 0, thread 0, line 5: block 0 saw n = 4, first 2.5");
  CHECK(run.trace.meta.options.at("printf") == run.printed[0]);
  cuda::CheckOptions o;
  o.launch = parse_launch("k<<<1, 4>>>(in, out, n)");
  o.exclusive = false;
  const cuda::CheckReport r = cuda::check_kernel("student.cu", source, o);
  REQUIRE(!r.printed.empty());
  CHECK(r.printed[0].find("saw n = ") != std::string::npos);
  CHECK(r.printed_case.find("n = ") == 0);
}

TEST_CASE("an integer scan runs on integers over their whole range too: a float temporary that loses digits is wrong there") {
  const auto source = [](const std::string& temporary) {
    return R"(__global__ void k(const int* in, int* out, int n) {
  __shared__ int s[8];
  int i = threadIdx.x;
  s[i] = i < n ? in[i] : 0;
  for (int stride = 1; stride < 8; stride *= 2) {
    __syncthreads();
    )" + temporary + R"( t = i >= stride ? s[i - stride] : 0;
    __syncthreads();
    s[i] += t;
  }
  if (i < n) out[i] = s[i];
}
)";
  };
  cuda::CheckOptions o;
  o.launch = parse_launch("k<<<1, 8>>>(in, out, n)");
  o.exclusive = false;
  const cuda::CheckReport exact = cuda::check_kernel("student.cu", source("int"), o);
  CHECK(exact.verdict == "correct");
  const cuda::CheckReport rounded = cuda::check_kernel("student.cu", source("float"), o);
  CHECK(rounded.verdict == "wrong");
  bool small_ok = true, full_wrong = false;
  for (const cuda::CheckCase& c : rounded.cases) {
    if (c.input == "integers") small_ok &= c.outcome == "correct";  // small values are exact in float
    if (c.input == "full-range integers") full_wrong |= c.outcome == "wrong";
  }
  CHECK(small_ok);
  CHECK(full_wrong);
}
