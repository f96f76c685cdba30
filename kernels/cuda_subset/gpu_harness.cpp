// Generates the nvcc harness of `scanviz check --gpu` and reads what it wrote (cuda_subset/gpu_harness.hpp).
#include "cuda_subset/gpu_harness.hpp"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include "cuda_subset/parser.hpp"
#include "cuda_subset/record_kernel.hpp"

namespace sv::cuda {

namespace {

// The source with its #include lines blanked (they would land inside the harness's namespace; the
// subset needs no header) and the block macro's #define set to `threads`. Lines are kept, so nvcc's
// messages name the student's lines.
std::string with_block(const std::string& source, const std::string& macro, std::int32_t threads) {
  std::istringstream in(source);
  std::string out;
  bool continued = false;  // the line continues a directive that is being blanked
  for (std::string line; std::getline(in, line);) {
    const bool blank_this = continued;
    std::size_t at = line.find_first_not_of(" \t");
    std::string head = at == std::string::npos ? std::string() : line.substr(at);
    bool directive = false, include = false;
    if (!blank_this && head.rfind('#', 0) == 0) {
      head = head.substr(1);
      head = head.substr(std::min(head.size(), head.find_first_not_of(" \t")));
      include = head.rfind("include", 0) == 0;
      if (!macro.empty() && head.rfind("define", 0) == 0) {
        std::istringstream words(head.substr(6));
        std::string name;
        words >> name;
        directive = name == macro;
      }
    }
    continued = (blank_this || include || directive) && !line.empty() && line.back() == '\\';
    if (directive) out += "#define " + macro + " " + std::to_string(threads);
    else if (!include && !blank_this) out += line;
    out += '\n';
  }
  return out;
}

// The block the file launches as written: its block macro's value where that is a number from 1 to
// 1024 (`#define BLOCK_DIM 1024`), else `otherwise`.
std::int32_t own_block(const std::string& source, const std::string& macro, std::int32_t otherwise) {
  if (macro.empty()) return otherwise;
  std::istringstream in(source);
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, std::min(line.find("//"), line.find("/*")));  // a comment after the value
    std::istringstream words(line);
    std::string hash, name, value, rest;
    words >> hash;
    if (hash == "#") words >> hash, hash = "#" + hash;
    if (hash != "#define" || !(words >> name >> value) || name != macro || (words >> rest)) continue;
    char* end = nullptr;
    const long v = std::strtol(value.c_str(), &end, 10);
    if (end == value.c_str() + value.size() && v >= 1 && v <= 1024) return static_cast<std::int32_t>(v);
  }
  return otherwise;
}

// What both harnesses hold (gpu_launch_harness.cpp the other): CUDA errors written out, values parsed
// and printed exactly, and the median of timed runs. @T@, @PARSE@, @FORMAT@ and @PRINTED@ are filled in.
constexpr const char* kCommon = R"(// Opens the outputs file at `path` and writes the device's name first: 0 to go on, 1 where there is no
// device (said in the file), 2 where the file cannot be written.
int start(const char* path) {
  out_file = std::fopen(path, "w");
  if (!out_file) return 2;
  int devices = 0;
  const cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    std::fprintf(out_file, "nodevice %s\n", e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device");
    return std::fclose(out_file) == 0 ? 1 : 2;
  }
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::fprintf(out_file, "device %s\n", prop.name);
  std::fflush(out_file);
  return 0;
}

bool ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(out_file, "error %s: %s\n", what, cudaGetErrorString(e));
  return false;
}

T parse(const std::string& s) { return static_cast<T>(@PARSE@); }
void print(T v) { std::fprintf(out_file, @FORMAT@, @PRINTED@); }

// One line of the cases file into `input`: n, then n values; false where it is not one.
bool read_case(const std::string& line, std::vector<T>& input) {
  std::istringstream words(line);
  long long n = 0;
  words >> n;
  input.clear();
  for (std::string w; words >> w;) input.push_back(parse(w));
  return n >= 1 && static_cast<long long>(input.size()) == n;
}

// The median of 20 timed runs of f after 3 warm-ups, in milliseconds; negative after a CUDA error.
template <class F>
float median_ms(F f) {
  cudaEvent_t start, stop;
  if (!ok(cudaEventCreate(&start), "cudaEventCreate") || !ok(cudaEventCreate(&stop), "cudaEventCreate")) return -1;
  std::vector<float> times;
  for (int run = 0; run < 23; ++run) {
    cudaEventRecord(start);
    f();
    cudaEventRecord(stop);
    if (!ok(cudaEventSynchronize(stop), "a timed run")) return -1;
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    if (run >= 3) times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return times[times.size() / 2];
}

)";

// The harness's body; @NAME@ are filled in by make_gpu_harness.
constexpr const char* kMain = R"(// Generated by scanviz check --gpu for @FILE@: runs its kernel @KERNEL@ on the cases in argv[1]
// (and, given argv[4], on those at the file's own block), writes the outputs to argv[2] and, when
// argv[3] is above 0, times it at that many elements against
// CUB's @CUB@ and a device-to-device copy (CUDA events, the median of 20 runs after 3 warm-ups).
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace sv_cases {
#include "cases_kernel.cu"
}
@UNDEFS@namespace sv_timed {
#include "timed_kernel.cu"
}
@UNDEFS@
namespace {

using T = @T@;
constexpr int kCaseThreads = @CT@, kTimedThreads = @TT@;
constexpr long long kCaseCapacity = @CC@, kTimedCapacity = @TC@;
FILE* out_file = nullptr;

void launch_case(int grid, T* in, T* out, T* sums, long long n) {
  sv_cases::@KERNEL@<<<grid, kCaseThreads>>>(@ARGS@);
}
void launch_timed(int grid, T* in, T* out, T* sums, long long n) {
  sv_timed::@KERNEL@<<<grid, kTimedThreads>>>(@ARGS@);
}

@COMMON@// Each case of the file at `path` in blocks of `capacity` elements by `launch`, its outputs a line
// starting with `tag`.
template <class Launch>
int run_cases(const char* path, const char* tag, long long capacity, Launch launch) {
  std::ifstream cases(path);
  std::vector<T> input;
  for (std::string line; std::getline(cases, line);) {
    if (!read_case(line, input)) return 1;
    const long long n = static_cast<long long>(input.size());
    const long long grid = (n + capacity - 1) / capacity;
    T *in = nullptr, *out = nullptr, *sums = nullptr;
    if (!ok(cudaMalloc(&in, n * sizeof(T)), "cudaMalloc") || !ok(cudaMalloc(&out, n * sizeof(T)), "cudaMalloc") ||
        !ok(cudaMalloc(&sums, grid * sizeof(T)), "cudaMalloc"))
      return 3;
    cudaMemcpy(in, input.data(), n * sizeof(T), cudaMemcpyHostToDevice);
    cudaMemset(out, 0xff, n * sizeof(T));  // a cell the kernel never writes reads as NaN (-1 for int)
    launch(static_cast<int>(grid), in, out, sums, n);
    if (!ok(cudaGetLastError(), "the launch") || !ok(cudaDeviceSynchronize(), "the kernel")) return 3;
    std::vector<T> output(n);
    cudaMemcpy(output.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost);
    std::fprintf(out_file, "%s %lld", tag, n);
    for (T v : output) print(v);
    std::fprintf(out_file, "\n");
    cudaFree(in);
    cudaFree(out);
    cudaFree(sums);
  }
  return 0;
}

int run_timing(long long n) {
  const long long grid = (n + kTimedCapacity - 1) / kTimedCapacity;
  T *in = nullptr, *out = nullptr, *sums = nullptr;
  void* temp = nullptr;
  size_t temp_bytes = 0;
  if (!ok(cudaMalloc(&in, n * sizeof(T)), "cudaMalloc") || !ok(cudaMalloc(&out, n * sizeof(T)), "cudaMalloc") ||
      !ok(cudaMalloc(&sums, grid * sizeof(T)), "cudaMalloc"))
    return 3;
  const std::vector<T> ones(n, T(1));
  cudaMemcpy(in, ones.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  cub::DeviceScan::@CUB@(nullptr, temp_bytes, in, out, static_cast<int>(n));
  if (!ok(cudaMalloc(&temp, temp_bytes), "cudaMalloc")) return 3;
  const float kernel = median_ms([&] { launch_timed(static_cast<int>(grid), in, out, sums, n); });
  const float scan = median_ms([&] { cub::DeviceScan::@CUB@(temp, temp_bytes, in, out, static_cast<int>(n)); });
  const float copy = median_ms([&] { cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice); });
  if (kernel < 0 || scan < 0 || copy < 0) return 3;
  std::fprintf(out_file, "time %lld %lld %.6f %.6f %.6f\n", n, grid, kernel, scan, copy);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 && argc != 5) return 2;
  if (const int started = start(argv[2])) return started == 1 ? 0 : 2;
  int code = run_cases(argv[1], "case", kCaseCapacity, launch_case);
  if (code == 0 && argc == 5) code = run_cases(argv[4], "own", kTimedCapacity, launch_timed);  // at the file's own block
  const long long timed = std::atoll(argv[3]);
  if (code == 0 && timed > 0) code = run_timing(timed);
  return std::fclose(out_file) == 0 ? code : 2;
}
)";

}  // namespace

const char* harness_c_type(ValueType t) { return t == ValueType::F64 ? "double" : t == ValueType::I32 ? "int" : "float"; }

void fill_harness(std::string& text, const std::string& key, const std::string& value) {
  const std::string mark = "@" + key + "@";
  for (std::size_t at = text.find(mark); at != std::string::npos; at = text.find(mark, at + value.size()))
    text.replace(at, mark.size(), value);
}

std::string harness_comment(std::string text) {
  for (char& ch : text)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == '@') ch = '?';
  return text;
}

std::string harness_common(ValueType type) {
  std::string text = kCommon;
  const bool integer = type == ValueType::I32;
  fill_harness(text, "PARSE", integer ? "std::strtoll(s.c_str(), nullptr, 10)" : "std::strtod(s.c_str(), nullptr)");
  fill_harness(text, "FORMAT", integer ? "\" %d\"" : "\" %a\"");
  fill_harness(text, "PRINTED", integer ? "v" : "static_cast<double>(v)");
  return text;
}

GpuHarness make_gpu_harness(const HarnessSpec& spec) {
  GpuHarness h;
  const std::string macro = block_macro(spec.source, spec.file);
  h.case_threads = spec.case_threads;
  h.timed_threads = spec.timed_threads ? spec.timed_threads : spec.case_threads;
  if (!spec.timed_threads) h.timed_threads = own_block(spec.source, macro, h.case_threads);
  const auto block_is = [&](std::int32_t threads) {
    return macro.empty() ? std::map<std::string, std::string>{} : std::map<std::string, std::string>{{macro, std::to_string(threads)}};
  };
  const Kernel cases = parse_kernel(spec.source, spec.file, block_is(h.case_threads));
  const Kernel timed = parse_kernel(spec.source, spec.file, block_is(h.timed_threads));
  h.type = run_type_of(cases, false);
  h.case_capacity = elements_per_block(cases, h.case_threads);
  h.timed_capacity = elements_per_block(timed, h.timed_threads);
  const ParamBinding binding = bind_params(cases, 0);
  static constexpr const char* kBuffers[] = {"in", "out", "sums"};
  std::string args;
  for (std::size_t p = 0; p < cases.params.size(); ++p) {
    if (p) args += ", ";
    const std::int32_t buffer = binding.buffer[p];
    args += "(" + type_name(cases.params[p].type) + ")" + (buffer >= 0 ? kBuffers[buffer] : "n");
  }
  std::string undefs;
  for (const auto& [name, pos] : defined_macros(spec.source, spec.file)) undefs += "#undef " + name + "\n";
  h.cases_kernel = with_block(spec.source, macro, h.case_threads);
  h.timed_kernel = with_block(spec.source, macro, h.timed_threads);
  h.main = kMain;
  fill_harness(h.main, "COMMON", harness_common(h.type));
  fill_harness(h.main, "FILE", harness_comment(spec.file));
  fill_harness(h.main, "KERNEL", cases.name);
  fill_harness(h.main, "CUB", spec.exclusive ? "ExclusiveSum" : "InclusiveSum");
  fill_harness(h.main, "UNDEFS", undefs);
  fill_harness(h.main, "T", harness_c_type(h.type));
  fill_harness(h.main, "CT", std::to_string(h.case_threads));
  fill_harness(h.main, "TT", std::to_string(h.timed_threads));
  fill_harness(h.main, "CC", std::to_string(h.case_capacity));
  fill_harness(h.main, "TC", std::to_string(h.timed_capacity));
  fill_harness(h.main, "ARGS", args);
  return h;
}

std::string harness_cases(ValueType type, const std::vector<std::vector<Payload>>& inputs) {
  std::string out;
  char buf[64];
  for (const std::vector<Payload>& input : inputs) {
    out += std::to_string(input.size());
    for (const Payload& p : input) {
      if (type == ValueType::I32) std::snprintf(buf, sizeof buf, " %d", p.as<std::int32_t>());
      else std::snprintf(buf, sizeof buf, " %a", type == ValueType::F64 ? p.as<double>() : static_cast<double>(p.as<float>()));
      out += buf;
    }
    out += '\n';
  }
  return out;
}

bool parse_harness_value(ValueType type, const std::string& text, Payload& out) {
  char* end = nullptr;
  if (type == ValueType::I32) {
    const long long v = std::strtoll(text.c_str(), &end, 10);
    out = Payload::of(static_cast<std::int32_t>(v));
  } else {
    const double v = std::strtod(text.c_str(), &end);
    out = type == ValueType::F64 ? Payload::of(v) : Payload::of(static_cast<float>(v));
  }
  return !text.empty() && end == text.c_str() + text.size();
}

HarnessResult read_harness_output(ValueType type, const std::string& text) {
  HarnessResult r;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string kind;
    words >> kind;
    std::string rest;
    std::getline(words, rest);
    if (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
    if (kind == "device") r.device = rest;
    else if (kind == "nodevice") r.no_device = rest;
    else if (kind == "error") r.error = rest;
    else if (kind == "case" || kind == "own") {
      std::istringstream values(rest);
      long long n = 0;
      values >> n;
      std::vector<Payload> out;
      for (std::string w; values >> w;) {
        Payload p;
        if (!parse_harness_value(type, w, p)) break;
        out.push_back(p);
      }
      if (static_cast<long long>(out.size()) != n) {
        r.error = "the harness wrote " + std::to_string(out.size()) + " values for a case of n = " + std::to_string(n);
        break;
      }
      (kind == "own" ? r.own_outputs : r.outputs).push_back(std::move(out));
    } else if (kind == "time") {
      std::istringstream values(rest);
      values >> r.timed_n >> r.timed_grid >> r.kernel_ms >> r.cub_ms >> r.copy_ms;
      r.timed = static_cast<bool>(values);
    }
  }
  return r;
}

}  // namespace sv::cuda
