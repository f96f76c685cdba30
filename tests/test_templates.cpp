// Templates as student files have them: a kernel over its element type and block size, instantiated
// by the launch (given with --launch, or in a host function), defaults, and __device__ function
// templates called with explicit arguments or with their types said by the call's arguments. Each
// instance runs and is judged against the one sequential reference.
#include <doctest/doctest.h>

#include <string>

#include "core/values.hpp"
#include "cuda_subset/check.hpp"
#include "cuda_subset/parser.hpp"
#include "cuda_subset/record_kernel.hpp"
#include "run/launch.hpp"

using namespace sv;

namespace {

// A Kogge-Stone over T in blocks of B, whose adds go through a function template (deduced, or
// explicit with ADD).
std::string kogge_stone(const std::string& add = "plus(s[threadIdx.x], t)") {
  return R"(
template <typename T>
__device__ T plus(T a, T b) { return a + b; }
template <typename T, int B = 32>
__global__ void ks(const T* in, T* out, int n) {
  __shared__ T s[B];
  int i = threadIdx.x;
  s[i] = i < n ? in[i] : T(0);
  for (int stride = 1; stride < B; stride *= 2) {
    __syncthreads();
    T t = i >= stride ? s[i - stride] : T(0);
    __syncthreads();
    s[i] = )" + add + R"(;
  }
  if (i < n) out[i] = s[i];
}
void scan_gpu(const int* d_in, int* d_out, int n) {
  ks<int, 64><<<1, 64>>>(d_in, d_out, n);
}
)";
}

Trace run(const std::string& source, std::int64_t n, const std::string& launch) {
  cuda::KernelRunConfig c;
  c.file = "student.cu";
  c.source = source;
  c.n = n;
  c.launch = parse_launch(launch);
  return cuda::record_kernel_launch(c).trace;
}

bool scans_whole_input(const Trace& t) {
  const std::vector<Payload> want = reference_scan(t.meta.op, t.meta.type, t.meta.input, t.meta.exclusive);
  return mismatches(t.meta.op, t.meta.type, t.meta.input, t.meta.exclusive, want, t.result.output).empty();
}

std::string refusal(const std::string& source, const std::string& launch) {
  try {
    (void)run(source, 8, launch);
  } catch (const cuda::KernelError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("templates: a kernel over its type and block, instantiated by the launch, with its default") {
  for (const std::int64_t n : {1, 7, 32}) {
    CAPTURE(n);
    const Trace f = run(kogge_stone(), n, "ks<float, 32><<<1, 32>>>(in, out, n)");
    CHECK(f.meta.type == ValueType::F32);
    CHECK(scans_whole_input(f));
    CHECK(f.meta.algorithm == "kernel:ks");  // an instance traces as its template
    const Trace i = run(kogge_stone(), n, "ks<int><<<1, 32>>>(in, out, n)");  // B = 32, the default
    CHECK(i.meta.type == ValueType::I32);
    CHECK(scans_whole_input(i));
    CHECK(i.find_buffer("s") >= 0);
  }
  // The block size is the template's: 64 cells of shared memory, 64 elements scanned.
  const Trace wide = run(kogge_stone(), 64, "ks<double, 64><<<1, 64>>>(in, out, n)");
  CHECK(wide.meta.type == ValueType::F64);
  CHECK(wide.buffers[static_cast<std::size_t>(wide.find_buffer("s"))].length == 64);
  CHECK(scans_whole_input(wide));
}

TEST_CASE("templates: function templates called with explicit arguments or deduced, and a host launch of an instance") {
  CHECK(scans_whole_input(run(kogge_stone("plus<T>(s[threadIdx.x], t)"), 32, "ks<float, 32><<<1, 32>>>(in, out, n)")));
  // Deduced from the arguments: T is the kernel's T in each instance.
  CHECK(scans_whole_input(run(kogge_stone(), 20, "ks<int, 32><<<1, 32>>>(in, out, n)")));
  const Trace host = run(kogge_stone(), 50, "scan_gpu(in, out, n)");
  CHECK(host.meta.block == 64);
  CHECK(scans_whole_input(host));
  cuda::CheckOptions o;
  o.launch = parse_launch("ks<float, 32><<<1, 32>>>(in, out, n)");
  CHECK(cuda::check_kernel("student.cu", kogge_stone(), o).verdict == "correct");
  // A wrong instance is graded as wrong: the block of 16 threads leaves half the template's 32 cells.
  o.launch = parse_launch("ks<float, 32><<<1, 16>>>(in, out, n)");
  CHECK(cuda::check_kernel("student.cu", kogge_stone(), o).verdict != "correct");
}

TEST_CASE("templates: arguments that do not fit the template are refused by name") {
  CHECK(refusal(kogge_stone(), "ks<float, 32, 4><<<1, 32>>>(in, out, n)").find("takes 2 template arguments") != std::string::npos);
  CHECK(refusal(kogge_stone(), "ks<float, int><<<1, 32>>>(in, out, n)").find("is a number") != std::string::npos);
  CHECK(refusal(kogge_stone(), "ks<><<<1, 32>>>(in, out, n)").find("needs its template argument 'T'") != std::string::npos);
  CHECK(refusal(kogge_stone(), "ks<float, 32><<<1, 32>>>(in, out, n)").empty());
}
