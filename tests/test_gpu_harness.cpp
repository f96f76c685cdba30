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
#include "cuda_subset/gpu_launch_harness.hpp"
#include "run/launch.hpp"
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

// Compiles dir/harness.cu for sm_90 (no GPU needed) and removes dir: nvcc's log where it failed.
void check_nvcc_compiles(const fs::path& dir) {
  const std::string command = "cd '" + dir.string() + "' && '" + nvcc_path() + "' -std=c++17 -arch=sm_90 -c harness.cu -o harness.o >nvcc.log 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream log(dir / "nvcc.log");
  std::stringstream text;
  text << log.rdbuf();
  INFO(text.str());
  CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  CHECK((fs::exists(dir / "harness.o") && fs::file_size(dir / "harness.o") > 0));
  fs::remove_all(dir);
}

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
    check_nvcc_compiles(dir);
  }
}

TEST_CASE("the launch harness keeps the whole file as written, renames its main away and launches as the line says") {
  const std::string file = "tests/fixtures/whole_files/single_pass_chained_scan.cu";
  const std::string source = sv_test::read_source(file);
  const LaunchSpec launch =
      parse_launch("chained_scan<<<(n + 255) / 256, 256, 0>>>(in, out, zeros(1), zeros((n + 255) / 256 + 1), buf((n + 255) / 256 + 1), n)");
  const cuda::LaunchHarness h = cuda::make_launch_harness(file, source, launch, false);
  CHECK(h.student == source);  // includes, macros and its main untouched: nvcc's messages name its lines
  CHECK(h.timed);
  CHECK(h.type == ValueType::I32);  // its out is an int*
  const std::size_t rename = h.main.find("#define main scanviz_student_main\n#include \"student.cu\"\n#undef main");
  REQUIRE(rename != std::string::npos);
  // The launch comes after the file (its names), the harness's own code before (the file's macros cannot touch it).
  const std::size_t launched = h.main.find("::chained_scan<<<((n + 255) / 256), (256), (0)>>>(");
  REQUIRE(launched != std::string::npos);
  CHECK(launched > rename);
  CHECK(h.main.find("int run_cases(") < rename);
  CHECK(h.main.find("int main(int argc") < rename);
  // zeros set to 0 before every launch (a ticket, flags), buf to 0xff once.
  CHECK(h.main.find("cudaMemsetAsync(scanviz_cells_2, 0,") != std::string::npos);
  CHECK(h.main.find("cudaMemsetAsync(scanviz_cells_3, 0,") != std::string::npos);
  CHECK(h.main.find("cudaMemset(scanviz_cells_4, 0xff,") != std::string::npos);
  CHECK(h.main.find("cudaMemsetAsync(scanviz_cells_4") == std::string::npos);
  const cuda::LaunchHarness host = cuda::make_launch_harness("h.cu", sv_test::read_source("tests/fixtures/whole_files/pmpp_ch11_hierarchical_kogge_stone.cu"),
                                                             parse_launch("hierarchical_scan(in, out, n)"), false);
  CHECK_FALSE(host.timed);
  CHECK(host.main.find("::hierarchical_scan((") != std::string::npos);
  CHECK(host.main.find("cudaMallocManaged(&in") != std::string::npos);  // host code may copy from it, a kernel read it
  CHECK_THROWS_AS(cuda::make_launch_harness(file, source, parse_launch("chained_scan<<<1, 256>>>(in, out, n)"), false), LaunchError);
}

TEST_CASE("nvcc compiles whole student files with their own main, launched by a kernel line, a template's or a host function (compile only)" *
          sv_test::skip_unless(have_nvcc, "no nvcc at /usr/local/cuda/bin or $SCANVIZ_NVCC")) {
  const std::vector<std::pair<std::string, std::string>> files = {
      {"single_pass_chained_scan.cu", "chained_scan<<<(n + 255) / 256, 256, 0>>>(in, out, zeros(1), zeros((n + 255) / 256 + 1), buf((n + 255) / 256 + 1), n)"},
      {"blelloch_block_template_unpadded.cu", "blelloch_scan<512><<<1, 512, 0>>>(in, out, n)"},
      {"pmpp_ch11_hierarchical_kogge_stone.cu", "hierarchical_scan(in, out, n)"}};
  for (const auto& [name, line] : files) {
    CAPTURE(name);
    const std::string file = "tests/fixtures/whole_files/" + name;
    const cuda::LaunchHarness h = cuda::make_launch_harness(file, sv_test::read_source(file), parse_launch(line), false);
    const fs::path dir = fs::temp_directory_path() / ("scanviz_test_launch_harness_" + std::to_string(std::random_device{}()));
    fs::create_directories(dir);
    std::ofstream(dir / "student.cu") << h.student;
    std::ofstream(dir / "harness.cu") << h.main;
    check_nvcc_compiles(dir);
  }
}
