// The nvcc harness of `scanviz check --gpu`, natively: what it generates (the student's lines kept, the
// block macro set, the launch's arguments by the binding), its cases and outputs files both ways, and,
// where nvcc is installed, that nvcc compiles it (no GPU needed for that).
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "core/values.hpp"
#include "cuda_subset/gpu_harness.hpp"
#include "own_kernel_helpers.hpp"
#include "skips.hpp"

using namespace sv;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string nvcc_path() {
  if (const char* env = std::getenv("SCANVIZ_NVCC"); env && *env) return env;
  return fs::exists("/usr/local/cuda/bin/nvcc") ? "/usr/local/cuda/bin/nvcc" : "";
}
bool have_nvcc() { return !nvcc_path().empty(); }

}  // namespace

TEST_CASE("the harness keeps the student's lines, sets the block macro, and passes the bound parameters") {
  cuda::HarnessSpec spec;
  spec.file = "assets/kernels/pmpp_kogge_stone_double_buffer.cu";
  spec.source = "#include <cstdio>\n" + sv_test::read_source(spec.file);
  spec.case_threads = 8;
  const cuda::GpuHarness h = cuda::make_gpu_harness(spec);
  const auto src = lines_of(spec.source), cases = lines_of(h.cases_kernel), timed = lines_of(h.timed_kernel);
  REQUIRE(cases.size() == src.size());  // nvcc's messages name the student's lines
  REQUIRE(timed.size() == src.size());
  CHECK(cases[0].empty());  // the #include would land inside the harness's namespace
  std::size_t define = 0;
  for (std::size_t i = 0; i < src.size(); ++i)
    if (src[i].rfind("#define BLOCK_DIM", 0) == 0) define = i;
  REQUIRE(define > 0);
  CHECK(cases[define] == "#define BLOCK_DIM 8");
  CHECK(timed[define] == "#define BLOCK_DIM 1024");  // the file's own block, as it is written
  for (std::size_t i = 1; i < src.size(); ++i)
    if (i != define) CHECK(cases[i] == src[i]);
  CHECK(h.case_threads == 8);
  CHECK(h.case_capacity == 8);
  CHECK(h.timed_threads == 1024);
  CHECK(h.type == ValueType::F32);
  // input, output, partialSums, N, as docs/cli.md binds them
  CHECK(h.main.find("sv_cases::kogge_stone_double_buffer_scan_kernel<<<grid, kCaseThreads>>>((float*)in, (float*)out, (float*)sums, (unsigned int)n)") !=
        std::string::npos);
  CHECK(h.main.find("sv_timed::kogge_stone_double_buffer_scan_kernel<<<grid, kTimedThreads>>>") != std::string::npos);
  CHECK(h.main.find("#undef BLOCK_DIM") != std::string::npos);
  CHECK(h.main.find("InclusiveSum") != std::string::npos);
  CHECK(h.main.find('@') == std::string::npos);  // every placeholder filled

  spec.file = "assets/kernels/blelloch_exclusive.cu";
  spec.source = sv_test::read_source(spec.file);
  spec.exclusive = true;
  const cuda::GpuHarness b = cuda::make_gpu_harness(spec);
  CHECK(b.case_capacity == 16);  // SECTION_SIZE (2*BLOCK_DIM)
  CHECK(b.timed_capacity == 2048);
  CHECK(b.main.find("ExclusiveSum") != std::string::npos);

  spec.source = "#  define BLOCK_SIZE 256  // threads\n#define BLOCK_DIM_UNUSED 3\n__global__ void k(int* a, int* b, int n) {\n  __shared__ int s[BLOCK_SIZE];\n"
                "  s[threadIdx.x] = a[threadIdx.x];\n  __syncthreads();\n  b[threadIdx.x] = s[threadIdx.x];\n}\n";
  spec.exclusive = false;
  const cuda::GpuHarness k = cuda::make_gpu_harness(spec);
  CHECK(k.timed_threads == 256);  // the macro's value, its comment aside
  CHECK(lines_of(k.cases_kernel)[0] == "#define BLOCK_SIZE 8");
  CHECK(k.type == ValueType::I32);
  CHECK(k.main.find("(int*)in, (int*)out, (int)n)") != std::string::npos);
  CHECK(k.main.find("\" %d\"") != std::string::npos);
}

TEST_CASE("the harness's cases and outputs: floats exactly both ways, ints, errors and a missing device said") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<std::vector<Payload>> inputs(3);
  for (std::size_t c = 0; c < inputs.size(); ++c)
    for (std::size_t i = 0; i < 5 + c * 7; ++i) inputs[c].push_back(Payload::of(u(rng)));
  const std::string text = cuda::harness_cases(ValueType::F32, inputs);
  std::string written = "device NVIDIA H100 80GB HBM3\n";
  for (const std::string& line : lines_of(text)) written += "case " + line + "\n";
  written += "time 16777216 8192 0.250000 0.125000 0.062500\n";
  const cuda::HarnessResult r = cuda::read_harness_output(ValueType::F32, written);
  CHECK(r.device == "NVIDIA H100 80GB HBM3");
  REQUIRE(r.outputs.size() == inputs.size());
  for (std::size_t c = 0; c < inputs.size(); ++c) CHECK(r.outputs[c] == inputs[c]);  // bit for bit
  CHECK(r.timed);
  CHECK(r.timed_n == 16777216);
  CHECK(r.timed_grid == 8192);
  CHECK(r.kernel_ms == 0.25);
  CHECK(r.copy_ms == 0.0625);
  CHECK(r.error.empty());
  CHECK(r.own_outputs.empty());
  // The same cases again at the file's own block: their lines apart from the check's.
  const cuda::HarnessResult own = cuda::read_harness_output(ValueType::F32, written + "own " + lines_of(text)[1] + "\n");
  CHECK(own.outputs.size() == inputs.size());
  REQUIRE(own.own_outputs.size() == 1);
  CHECK(own.own_outputs[0] == inputs[1]);

  const std::vector<std::vector<Payload>> ints = {{Payload::of(3), Payload::of(-7), Payload::of(2147483647)}};
  CHECK(cuda::harness_cases(ValueType::I32, ints) == "3 3 -7 2147483647\n");
  const cuda::HarnessResult ri = cuda::read_harness_output(ValueType::I32, "device X\ncase 3 3 -7 2147483647\nerror the kernel: an illegal memory access was encountered\n");
  REQUIRE(ri.outputs.size() == 1);
  CHECK(ri.outputs[0] == ints[0]);
  CHECK(ri.error == "the kernel: an illegal memory access was encountered");
  CHECK(cuda::read_harness_output(ValueType::I32, "device X\ncase 3 1 2\n").error == "the harness wrote 2 values for a case of n = 3");
  CHECK(cuda::read_harness_output(ValueType::F32, "nodevice CUDA driver version is insufficient for CUDA runtime version\n").no_device ==
        "CUDA driver version is insufficient for CUDA runtime version");
  Payload p;
  CHECK(!cuda::parse_harness_value(ValueType::F32, "1.5x", p));
  CHECK(cuda::parse_harness_value(ValueType::F32, "-0x1.8p+0", p));
  CHECK(p.as<float>() == -1.5f);
}

TEST_CASE("nvcc compiles the harness of an atomic kernel and of a kernel with partial sums (compile only)" *
          sv_test::skip_unless(have_nvcc, "no nvcc at /usr/local/cuda/bin or $SCANVIZ_NVCC")) {
  for (const char* file : {"tests/kernels/atomic_ticket.cu", "assets/kernels/pmpp_kogge_stone_double_buffer.cu"}) {
    CAPTURE(file);
    cuda::HarnessSpec spec;
    spec.file = file;
    spec.source = sv_test::read_source(file);
    const cuda::GpuHarness h = cuda::make_gpu_harness(spec);
    const fs::path dir = fs::temp_directory_path() / ("scanviz_test_harness_" + std::to_string(std::random_device{}()));
    fs::create_directories(dir);
    std::ofstream(dir / "cases_kernel.cu") << h.cases_kernel;
    std::ofstream(dir / "timed_kernel.cu") << h.timed_kernel;
    std::ofstream(dir / "harness.cu") << h.main;
    const std::string command = "cd '" + dir.string() + "' && '" + nvcc_path() +
                                "' -std=c++17 -arch=sm_90 -c harness.cu -o harness.o >nvcc.log 2>&1";
    const int status = std::system(command.c_str());
    std::ifstream log(dir / "nvcc.log");
    std::stringstream text;
    text << log.rdbuf();
    INFO(text.str());
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
    CHECK((fs::exists(dir / "harness.o") && fs::file_size(dir / "harness.o") > 0));
    fs::remove_all(dir);
  }
}
