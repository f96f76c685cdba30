// Kernels of the user's own as untrusted input: every construct outside the subset is one error at
// its file, line and column; huge and deeply nested sources, endless loops, runaway writes and
// barriers not every thread reaches each end in one line naming what and where.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "cuda_subset/parser.hpp"
#include "cuda_subset/record_kernel.hpp"

using namespace sv;

namespace {

std::string kernel_with(const std::string& body) {
  return "#define BLOCK_DIM 8\n__global__ void k(float* in, float* out, unsigned int N) {\n" + body + "\n}\n";
}

// Parses `source`, expecting one KernelError; returns it.
cuda::KernelError parse_error(const std::string& source) {
  try {
    (void)cuda::parse_kernel(source, "k.cu");
  } catch (const cuda::KernelError& e) {
    return e;
  }
  FAIL("no error for: " << source);
  return cuda::KernelError("", "", {}, "");
}

EmulationError run_fault(const std::string& source, const cuda::Budget& budget = {}) {
  cuda::KernelRunConfig c;
  c.file = "k.cu";
  c.source = source;
  c.n = 8;
  c.budget = budget;
  try {
    (void)cuda::record_kernel_trace(c);
  } catch (const EmulationError& e) {
    return e;
  }
  FAIL("no fault for: " << source);
  return EmulationError("");
}

}  // namespace

TEST_CASE("constructs outside the subset are one error at their line and column, naming them") {
  struct Case {
    std::string body;
    const char* kind;
    std::uint32_t line, col;
    const char* says;
  };
  const Case cases[] = {
      {"  asm(\"trap;\");", "unsupported", 3, 3, "'asm'"},
      {"  float** p = 0;", "unsupported", 3, 9, "pointers to pointers"},
      {"  float a[4][4];", "unsupported", 3, 13, "multi-dimensional"},
      {"  half x = 0;", "unsupported", 3, 3, "type 'half'"},
      {"  out[0] = \"text\"[0];", "unsupported", 3, 12, "string literal outside printf"},
      {"  out[0] = sqrtf(in[0]);", "unsupported", 3, 12, "call of 'sqrtf'"},
      {"  int x = alignof(float);", "unsupported", 3, 11, "call of 'alignof'"},
      {"  int* p = &N;", "unsupported", 3, 12, "address of a local"},
      {"  int& r = N;", "unsupported", 3, 6, "references"},
      {"  goto done;", "unsupported", 3, 3, "'goto'"},
      {"  out[0] = in[0]", "syntax", 4, 1, "expected ';'"},
      {"  out[0] = missing;", "syntax", 3, 12, "undeclared identifier 'missing'"},
      {"  __syncthreads", "syntax", 4, 1, "expected '('"},
      {"  out[0] = in[0] %% 2.0f;", "syntax", 3, 19, ""},
      {"  threadIdx.w = 0;", "syntax", 3, 13, "members x, y and z"},
  };
  for (const Case& c : cases) {
    const cuda::KernelError e = parse_error(kernel_with(c.body));
    CAPTURE(c.body);
    CAPTURE(e.what());
    CHECK(e.kind == c.kind);
    CHECK(e.pos.line == c.line);
    CHECK(e.pos.col == c.col);
    CHECK(std::string(e.what()).rfind("k.cu:" + std::to_string(c.line) + ":" + std::to_string(c.col) + ": error: ", 0) == 0);
    CHECK(std::string(e.what()).find(c.says) != std::string::npos);
    CHECK(std::string(e.what()).find('\n') == std::string::npos);
  }
  CHECK(parse_error("#if\n#endif\n").message == "#if with no expression");
  CHECK(parse_error("#foo\n").kind == "unsupported");  // a directive the preprocessor does not know
  CHECK(parse_error("__device__ float f() { return 0; }\n").message == "no __global__ kernel in this file");
  CHECK(parse_error("").message == "no __global__ kernel in this file");
  // Two kernels and no launch to say which runs.
  CHECK(parse_error(kernel_with("") + "__global__ void k2(float* a, float* b) { }").message.find("2 kernels (k, k2)") != std::string::npos);
}

TEST_CASE("a file with several errors gets all of them at once, in order, each at its line, as a compiler lists them") {
  const std::string src =
      "__device__ float twice(float x) { return x * ; }\n"
      "__global__ void k(float* in, float* out, unsigned int N) {\n"
      "  float y = in[threadIdx.x];\n"
      "  y = y + missing;\n"
      "  half h = 0;\n"
      "  for (int i = 0; i < 4; ++i) { y += i }\n"
      "  y = y * missing;\n"
      "  out[threadIdx.x] = y;\n"
      "}\n"
      "__global__ void k2(float* in, float* out { }\n";
  const cuda::KernelError e = parse_error(src);
  std::vector<std::pair<std::uint32_t, std::string>> all{{e.pos.line, e.kind}};
  for (const cuda::KernelError& m : e.more) all.emplace_back(m.pos.line, m.kind);
  CAPTURE(e.what());
  // The undeclared name is said once; the line after each error is read as it would be without it.
  const std::vector<std::pair<std::uint32_t, std::string>> want{
      {1, "syntax"}, {4, "syntax"}, {5, "unsupported"}, {6, "syntax"}, {10, "syntax"}};
  CHECK(all == want);
  CHECK(std::string(e.what()).find('\n') == std::string::npos);
  CHECK(e.more.at(1).message.find("'half'") != std::string::npos);

  // A budget stops the reading: what came before it is kept.
  std::string many = "__global__ void k(float* in, float* out) {\n";
  for (int i = 0; i < 30; ++i) many += "  out[0] = in[0] +;\n";
  const cuda::KernelError capped = parse_error(many + "}\n");
  CHECK(capped.more.size() + 1 == 20);
  CHECK(capped.more.back().pos.line == 21);

  // A correct file reads as before: one kernel, no error.
  CHECK(cuda::parse_kernel(kernel_with("  out[threadIdx.x] = in[threadIdx.x];"), "k.cu").name == "k");
}

TEST_CASE("huge and deeply nested sources are refused up front") {
  const cuda::KernelError big = parse_error(kernel_with(std::string(10 * 1024 * 1024, ' ')));
  CHECK(big.kind == "limit");
  CHECK(std::string(big.what()).find("262144") != std::string::npos);
  std::string deep = "  out[0] = ";
  for (int i = 0; i < 10000; ++i) deep += "(";
  deep += "in[0]";
  for (int i = 0; i < 10000; ++i) deep += ")";
  const cuda::KernelError nested = parse_error(kernel_with(deep + ";"));
  CHECK(nested.kind == "limit");
  CHECK(nested.pos.line == 3);
  std::string chain = "  out[0] = in[0]";
  for (int i = 0; i < 10000; ++i) chain += " + -in[0]";
  CHECK(parse_error(kernel_with(chain + ";")).kind == "limit");
  std::string blocks;
  for (int i = 0; i < 10000; ++i) blocks += "{";
  CHECK(parse_error(kernel_with(blocks)).kind == "limit");
  std::string macros = "#define M0 1\n";
  for (int i = 1; i < 40; ++i) macros += "#define M" + std::to_string(i) + " M" + std::to_string(i - 1) + " + M" + std::to_string(i - 1) + "\n";
  CHECK(parse_error(macros + kernel_with("  out[0] = M39;")).kind == "limit");
}

TEST_CASE("the deepest nesting the front end accepts runs on the emulator's fiber stacks") {
  std::string deep = "  out[threadIdx.x] = ";
  const int levels = cuda::kMaxExpressionDepth - 4;
  for (int i = 0; i < levels; ++i) deep += "(in[threadIdx.x] + ";
  deep += "in[threadIdx.x]";
  for (int i = 0; i < levels; ++i) deep += ")";
  cuda::KernelRunConfig c;
  c.file = "k.cu";
  c.source = kernel_with(deep + ";");
  c.n = 8;
  const Trace t = cuda::record_kernel_trace(c);
  CHECK(t.result.output.size() == 8);
}

TEST_CASE("endless loops, runaway writes and barriers not every thread reaches end in one line") {
  cuda::Budget small;
  small.statements = 100000;
  EmulationError e = run_fault(kernel_with("  float v = 0.0f;\n  while (v >= 0.0f) v = v + 1.0f;"), small);
  CHECK(e.kind == "budget");
  CHECK(e.line == 4);
  CHECK(std::string(e.what()).find("does this loop end?") != std::string::npos);

  cuda::Budget events;
  events.events = 5000;
  e = run_fault(kernel_with("  for (int j = 0; j < 1000000000; j++) out[threadIdx.x] = 1.0f;"), events);
  CHECK(e.kind == "budget");
  CHECK(std::string(e.what()).find("5000 events") != std::string::npos);

  e = run_fault(kernel_with("  for (unsigned int s = 1; s > 0; s++) { __syncthreads(); }"));
  CHECK(e.kind == "budget");
  CHECK(e.line == 3);

  cuda::KernelRunConfig wide;  // a million cells of input and output, snapshotted at every barrier
  wide.file = "k.cu";
  wide.source = kernel_with("  for (int j = 0; j < 100; j++) __syncthreads();");
  wide.n = 1 << 20;
  wide.block = 8;
  wide.budget.snapshot_cells = 4000000;
  try {
    (void)cuda::record_kernel_trace(wide);
    FAIL("no fault");
  } catch (const EmulationError& f) {
    CHECK(std::string(f.kind) == "budget");
    CHECK(std::string(f.what()).find("smaller n") != std::string::npos);
  }

  e = run_fault(kernel_with("  if (threadIdx.x < 4) __syncthreads();\n  out[threadIdx.x] = in[threadIdx.x];"));
  CHECK(e.kind == "barrier-divergence");
  CHECK(e.line == 3);

  e = run_fault(kernel_with("  __shared__ float s[8];\n  out[threadIdx.x] = s[threadIdx.x];"));
  CHECK(e.kind == "uninitialized-read");
  CHECK(e.line == 4);

  e = run_fault(kernel_with("  out[threadIdx.x + 1] = in[threadIdx.x];"));
  CHECK(e.kind == "out-of-bounds");
  CHECK(std::string(e.what()).find("out[8]") != std::string::npos);

  e = run_fault(kernel_with("  int z = 0;\n  out[threadIdx.x] = in[threadIdx.x] + (float)(1 / z);"));
  CHECK(e.kind == "runtime");
  CHECK(std::string(e.what()).find("division by zero") != std::string::npos);
}

TEST_CASE("a kernel's parameters that cannot be bound are refused in one line") {
  cuda::KernelRunConfig c;
  c.file = "k.cu";
  c.n = 8;
  c.source = "#define BLOCK_DIM 8\n__global__ void k(float* data, int n) { data[threadIdx.x] += 1.0f; }\n";
  CHECK_THROWS_AS(cuda::record_kernel_trace(c), cuda::KernelError);
  c.source = "#define BLOCK_DIM 8\n__global__ void k(float* in, float* out, float scale) { out[threadIdx.x] = in[threadIdx.x]; }\n";
  CHECK_THROWS_WITH_AS(cuda::record_kernel_trace(c), doctest::Contains("cannot bind parameter 'scale'"), cuda::KernelError);
  c.source = "__global__ void k(float* in, float* out) { out[threadIdx.x] = in[threadIdx.x]; }\n";
  CHECK_THROWS_WITH_AS(cuda::record_kernel_trace(c), doctest::Contains("cannot infer the block size"), cuda::KernelError);
  c.block = 8;
  CHECK(cuda::record_kernel_trace(c).result.outcome == Outcome::Wrong);  // a copy is no scan
}
