// The front end and the interpreter over mutated copies of the seeds' kernels and the CUDA forms:
// every mutant is refused with one KernelError, or runs, or faults with one EmulationError (a budget,
// a bound, a barrier); nothing crashes, hangs or grows without bound.
#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cuda_subset/record_kernel.hpp"
#include "own_kernel_helpers.hpp"
#include "run/launch.hpp"

using namespace sv;

namespace {

const char* const kSeeds[] = {
    "assets/kernels/pmpp_kogge_stone_incorrect.cu", "assets/kernels/pmpp_kogge_stone_double_buffer.cu",
    "assets/kernels/cs677_brent_kung.cu",           "assets/kernels/blog_kogge_stone_t0_t1.cu",
    "assets/kernels/blelloch_exclusive.cu",         "kernels/block/cuda/kogge_stone.cu",
    "kernels/block/cuda/sklansky.cu",               "kernels/block/cuda/warp_sklansky.cu",
    "tests/kernels/atomic_ticket.cu",
};

// Pieces a mutation inserts: the subset's own tokens and the constructs that stress it.
const char* const kPieces[] = {
    "{", "}", "(", ")", "[", "]", ";", ",", "*", "/ 0", "% 0", "<< 40", "-", "++", "--", "?", ":", "=", "+=", "&&", "!",
    "__syncthreads();", "if (threadIdx.x & 1) __syncthreads();", "while (1) ;", "for (;;) { }", "return;", "break;",
    "continue;", "threadIdx.x", "blockDim.x", "stride", "1024", "-1", "0x7fffffff", "4294967295u", "1e38f", "0.5f",
    "__shared__ float big[1000000];", "__shared__ double d[4096];", "float* p = input;", "p[1 << 30] = 0.0f;",
    "input[-1]", "output[threadIdx.x - 1]", "/*", "*/", "//", "#define X X X\n", "#define Y (Y)\n", "\"s\"", "'c'",
    "__shfl_up_sync(0xffffffffu, 1.0f, 1)", "__shfl_down_sync(0xffffffffu, 1.0f, 1)", "atomicAdd(&output[0], 1.0f);",
    "__syncwarp();", "__threadfence();", "do { } while (0);", "unsigned int", "bool", "double", "(float)", "(int)",
    "__ballot_sync(0xffffffffu, threadIdx.x & 1)", "__activemask()", "__any_sync(1u, 1)", "__popc(4294967295u)",
    "__ffsll(0ull)", "__brev(1u)", "float v[4];", "int w[300];", "v[4] = 0;", "int q[2] = {1, 2, 3};",
    "switch (threadIdx.x) { case 0: break; default: ; }", "case 1:", "default:", "switch (1.0f) { }",
    "enum { E0, E1 = 1 << 31 };", "@@ syntax @@;",
    "\n", "\\\n", "\x01", "\xff",
};

std::string mutate(std::string s, std::mt19937_64& rng) {
  const int count = 1 + static_cast<int>(rng() % 3);
  for (int m = 0; m < count && !s.empty(); ++m) {
    const std::size_t at = rng() % s.size();
    switch (rng() % 6) {
      case 0: s.erase(at, 1 + rng() % 12); break;
      case 1: s.insert(at, std::string(" ") + kPieces[rng() % std::size(kPieces)] + " "); break;
      case 2: s[at] = static_cast<char>(rng() % 256); break;
      case 3: {  // duplicate a span
        const std::size_t len = 1 + rng() % 80;
        s.insert(rng() % s.size(), s.substr(at, len));
        break;
      }
      case 4: {  // swap two spans
        const std::size_t other = rng() % s.size();
        const std::size_t len = 1 + rng() % 20;
        std::string a = s.substr(at, len), b = s.substr(other, len);
        s.replace(at, a.size(), b);
        if (other + a.size() <= s.size()) s.replace(other, std::min(a.size(), s.size() - other), a);
        break;
      }
      default: {  // change a digit
        const std::size_t d = s.find_first_of("0123456789", at);
        if (d != std::string::npos) s[d] = static_cast<char>('0' + rng() % 10);
      }
    }
  }
  return s;
}

}  // namespace

TEST_CASE("10000 mutated kernels: refused, run or faulted in one error, never a crash or a hang") {
  std::vector<std::string> seeds;
  for (const char* f : kSeeds) seeds.push_back(sv_test::read_source(f));
  std::mt19937_64 rng(20261126);
  int refused = 0, ran = 0, faulted = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 10000; ++i) {
    cuda::KernelRunConfig c;
    c.file = "mutant.cu";
    c.source = mutate(seeds[static_cast<std::size_t>(i) % seeds.size()], rng);
    c.n = 1 + static_cast<std::int64_t>(rng() % 16);
    c.block = rng() % 2 ? 0 : 8;
    c.warp = rng() % 2 ? 32 : 1;
    c.budget.statements = 200000;
    c.budget.events = 100000;
    c.budget.steps = 256;
    try {
      const Trace t = cuda::record_kernel_trace(c);
      CHECK(static_cast<std::int64_t>(t.result.output.size()) == c.n);
      ++ran;
    } catch (const cuda::KernelError& e) {
      CHECK(std::string(e.what()).find('\n') == std::string::npos);
      ++refused;
    } catch (const EmulationError&) {
      ++faulted;
    } catch (const std::invalid_argument&) {  // a size the kernel cannot hold in one block
      ++refused;
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE(refused << " refused, " << ran << " ran, " << faulted << " faulted in " << seconds << " s");
  CHECK(ran > 100);  // the mutations leave many kernels that still run: the interpreter is fuzzed too
  CHECK(faulted > 10);
}

namespace {

// Whole student files and the launches that run them, in blocks of 8 threads (the fuzz's budget);
// the mutations add the preprocessor's and the whole file's constructs.
struct WholeSeed {
  const char* file;
  const char* launch;
};
const WholeSeed kWholeSeeds[] = {
    {"tests/fixtures/whole_files/gpugems3_prescan_bank_conflict_free.cu", "prescan<<<(n + 15) / 16, 8, 32 * sizeof(float)>>>(out, in, n)"},
    {"tests/fixtures/whole_files/blog_scan_versions_benchmark.cu", "scan_v2_brent_kung<<<1, 8>>>(in, out, n)"},
    {"tests/fixtures/whole_files/single_pass_chained_scan.cu", "chained_scan<<<(n + 7) / 8, 8>>>(in, out, zeros(1), zeros(n + 1), buf(n + 1), n)"},
    {"tests/fixtures/whole_files/warp_shuffle_exclusive_forgot_subtract.cu", "exclusive_scan_shfl<<<1, 8>>>(in, out, n)"},
    {"tests/fixtures/whole_files/double_buffer_missing_else_copy.cu", "ks_double_buffer<<<1, 8>>>(in, out, n)"},
    // host functions as the entry: their allocations, copies and launches
    {"tests/fixtures/whole_files/kogge_stone_double_buffer_cpu_sums.cu", "gpu_scan(in, out, n)"},
    {"tests/fixtures/whole_files/cmu418_exclusive_scan_upsweep_downsweep.cu", "exclusive_scan(io, n)"},
    {"tests/fixtures/whole_files/hierarchical_add_own_block_sum.cu", "scan3(in, out, n)"},
};

const char* const kWholePieces[] = {
    "#define F(x) F(x) F(x)\n", "#define G(a, ...) a ## __VA_ARGS__ #a\n", "#if 1\n", "#else\n", "#endif\n", "#ifdef __CUDACC__\n",
    "#elif defined(X) && X / 0\n", "#include \"self.h\"\n", "#include \"cycle.h\"\n", "#include <cstdio>\n", "#error stop\n",
    "#undef BLOCK_SIZE\n", "__device__ float f(float a) { return f(a); }\n", "__device__ int g(int x = 1) { return x; }\n",
    "extern __shared__ float dyn[];", "template <int B>", "static_cast<int>(", "reinterpret_cast<float*>(", "nullptr", ", ",
    "int main() { return 0; }\n", "__global__ void other(float* a) { }\n", "size_t", "long long", "auto", "printf(\"%d\", 1);",
    "assert(0);", "min(1, 2)", "&", "*", "sizeof(float)", "(float*)", "cudaMalloc(&", "cudaMemcpy(", "cudaMemset(", "<<<1, 8>>>",
    "<<<0, 2000>>>", "exit(1);", "malloc(", "new float[", "delete[] ", "(void**)&", "dim3 g(",
};

std::string mutate_whole(std::string s, std::mt19937_64& rng) {
  if (rng() % 2) s.insert(rng() % s.size(), std::string(" ") + kWholePieces[rng() % std::size(kWholePieces)] + " ");
  return mutate(std::move(s), rng);
}

}  // namespace

TEST_CASE("2000 mutated whole-file kernels with their launches: refused, run or faulted in one error, never a crash or a hang") {
  std::vector<std::string> seeds;
  for (const WholeSeed& s : kWholeSeeds) seeds.push_back(sv_test::read_source(s.file));
  const std::map<std::string, std::string> includes = {{"self.h", "#include \"self.h\"\n"}, {"cycle.h", "#include \"other.h\"\n"},
                                                       {"other.h", "#include \"cycle.h\"\n"}};
  std::mt19937_64 rng(20261129);
  int refused = 0, ran = 0, faulted = 0;
  for (int i = 0; i < 2000; ++i) {
    const std::size_t seed = static_cast<std::size_t>(i) % seeds.size();
    cuda::KernelRunConfig c;
    c.file = "mutant.cu";
    c.source = mutate_whole(seeds[seed], rng);
    c.include = [&](const std::string& name, const std::string&) -> std::optional<std::string> {
      const auto it = includes.find(name);
      return it == includes.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
    c.n = 1 + static_cast<std::int64_t>(rng() % 16);
    c.warp = rng() % 2 ? 32 : 1;
    c.budget.statements = 200000;
    c.budget.events = 100000;
    c.budget.steps = 256;
    try {
      c.launch = parse_launch(kWholeSeeds[seed].launch);
      const Trace t = cuda::record_kernel_launch(c).trace;
      CHECK(static_cast<std::int64_t>(t.result.output.size()) == c.n);
      ++ran;
    } catch (const cuda::KernelError& e) {
      CHECK(std::string(e.what()).find('\n') == std::string::npos);
      CHECK(std::string(e.what()).size() < 2000);
      ++refused;
    } catch (const EmulationError&) {
      ++faulted;
    } catch (const std::invalid_argument&) {  // a launch that cannot run at this n
      ++refused;
    }
  }
  MESSAGE(refused << " refused, " << ran << " ran, " << faulted << " faulted");
  CHECK(ran > 50);
  CHECK(refused > 50);
}
