// The kernel's CUDA form (kernels/block/cuda/ALGO.cu): every block algorithm has one, every part of
// every step of recorded traces maps to one of its lines, every mark in it is reached, and the lines
// a step lights are the ones the slides' code does that step with.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "algorithms.hpp"
#include "helpers.hpp"
#include "kernel_source.hpp"

using namespace sv;

namespace {

std::string read_source(const std::string& file) {
  std::ifstream in(std::string(SCANVIZ_SOURCE_DIR) + "/kernels/" + file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<SourceLine> cuda_form(const std::string& algo) { return parse_cuda_form(read_source(cuda_form_file(algo))); }

// The traces the mapping must hold for: sizes that are and are not powers of two, from one element
// up, inclusive and exclusive, every warp width of the warp-level scans, two schedules, segmented.
std::vector<Trace> traces_of(const AlgorithmInfo& algo) {
  std::vector<Trace> traces;
  const std::vector<std::int32_t> warps = algo.warp_level ? std::vector<std::int32_t>{2, 4, 8, 32} : std::vector<std::int32_t>{1, 32};
  for (std::int64_t n : {1, 2, 3, 5, 8, 16, 33, 64, 128})
    for (bool exclusive : {false, true})
      for (std::int32_t warp : warps)
        for (const char* schedule : {"in-order", "random:7"}) {
          BlockRunConfig c = sv_test::config(std::string(algo.name), n, OpKind::Sum, ValueType::I32, schedule, exclusive);
          const std::int32_t capacity = block_shape(algo, n, 0).capacity;
          if (algo.warp_level && warp > capacity) continue;
          c.warp = warp;
          if (n == 16 && !exclusive) c.flags = {1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0};
          traces.push_back(record_block_scan(c));
        }
  return traces;
}

// The CUDA form's text of the lines the step lights.
std::vector<std::string> lit_text(const std::vector<SourceLine>& form, const Trace& t, int step) {
  std::vector<std::string> text;
  for (std::uint32_t line : cuda_lines(form, t, step)) text.push_back(form.at(line - 1).text);
  return text;
}

int count_containing(const std::vector<std::string>& lines, const std::string& what) {
  int count = 0;
  for (const std::string& l : lines) count += l.find(what) != std::string::npos;
  return count;
}

}  // namespace

TEST_CASE("CUDA form: every block algorithm has one, and every part of every step maps to a line of it") {
  for (const AlgorithmInfo& algo : block_algorithms()) {
    CAPTURE(algo.name);
    const std::string text = read_source(cuda_form_file(algo.name));
    REQUIRE_MESSAGE(!text.empty(), "no CUDA form at kernels/" << cuda_form_file(algo.name));
    CHECK(text.find("__global__ void") != std::string::npos);
    const std::vector<SourceLine> form = parse_cuda_form(text);
    // Each mark's kinds, as bits, that some step of some trace lit.
    std::map<std::pair<std::size_t, std::size_t>, std::uint8_t> reached;
    std::set<std::string> unmapped;
    for (const Trace& t : traces_of(algo)) {
      for (int k = 0; k < static_cast<int>(t.steps.size()); ++k) {
        for (const std::string& part : unmapped_parts(form, t, k)) unmapped.insert(part);
        const Step& s = t.steps[k];
        const std::uint8_t kinds = step_mark_kinds(t, s);
        for (std::size_t l = 0; l < form.size(); ++l)
          for (std::size_t m = 0; m < form[l].marks.size(); ++m)
            for (int kind = 0; kind < kMarkKindCount; ++kind)
              if ((kinds >> kind & 1) && form[l].marks[m].matches(s, static_cast<MarkKind>(kind)))
                reached[{l, m}] |= static_cast<std::uint8_t>(1u << kind);
      }
    }
    for (const std::string& part : unmapped) FAIL_CHECK("no line of the CUDA form is marked for " << part);
    // A mark no step reaches would light a line for something the kernel never does: each kind it
    // names is reached, one at least of a mark that names none.
    for (std::size_t l = 0; l < form.size(); ++l)
      for (std::size_t m = 0; m < form[l].marks.size(); ++m) {
        const std::uint8_t kinds = form[l].marks[m].kinds;
        const std::uint8_t got = reached[{l, m}] & kinds;
        if (kinds == kEveryMarkKind ? got == 0 : got != kinds)
          FAIL_CHECK("line " << l + 1 << " (" << form[l].text << "): a kind of its mark " << m + 1 << " is never reached");
      }
  }
}

TEST_CASE("CUDA form: Kogge-Stone's steps light the slides' lines, the two barriers of a stride among them") {
  const std::vector<SourceLine> form = cuda_form("kogge-stone");
  const Trace t = sv_test::record_interval("kogge-stone", 8);
  REQUIRE(t.steps.size() == 5);  // load, strides 1, 2, 4, store
  const std::vector<std::string> load = lit_text(form, t, 0);
  CHECK(count_containing(load, "buffer_s[threadIdx.x] = (i < N) ? input[i] : 0.0f;") == 1);
  CHECK(count_containing(load, "__syncthreads();") == 1);
  CHECK(load.size() == 2);
  const std::vector<std::string> stride = lit_text(form, t, 2);
  CHECK(count_containing(stride, "for(unsigned int stride = 1; stride <= BLOCK_DIM/2; stride *= 2)") == 1);
  CHECK(count_containing(stride, "v = buffer_s[threadIdx.x - stride];") == 1);
  CHECK(count_containing(stride, "__syncthreads();") == 2);
  CHECK(count_containing(stride, "buffer_s[threadIdx.x] += v;") == 1);
  CHECK(stride.size() == 5);
  const std::vector<std::string> store = lit_text(form, t, 4);
  REQUIRE(store.size() == 1);
  CHECK(store[0].find("output[i] = buffer_s[threadIdx.x];") != std::string::npos);
  // The marks are not shown.
  for (const SourceLine& line : form) CHECK(line.text.find('@') == std::string::npos);
}

TEST_CASE("CUDA form: the racy Kogge-Stone reads and writes in one statement, with one barrier a stride, as the slide marked Incorrect") {
  const std::vector<SourceLine> form = cuda_form("kogge-stone-racy");
  const Trace t = sv_test::record_interval("kogge-stone-racy", 8);
  const std::vector<std::string> stride = lit_text(form, t, 1);
  CHECK(count_containing(stride, "buffer_s[threadIdx.x] += buffer_s[threadIdx.x - stride];") == 1);
  CHECK(count_containing(stride, "__syncthreads();") == 1);
  CHECK(stride.size() == 3);  // the loop, the racy statement, the barrier
  for (const SourceLine& line : form) CHECK(line.text.find("float v") == std::string::npos);
}

TEST_CASE("CUDA form: a warp scan's step lights its shuffle, a raking lane's first and later items different lines") {
  const std::vector<SourceLine> form = cuda_form("warp-raking");
  BlockRunConfig c = sv_test::config("warp-raking", 16, OpKind::Sum, ValueType::I32);
  c.warp = 4;
  const Trace t = record_block_scan(c);
  int first = -1, later = -1;
  for (int k = 0; k < static_cast<int>(t.steps.size()); ++k) {
    if (t.steps[k].phase != Phase::RakeScan) continue;
    (t.steps[k].param == 0 ? first : later) = k;
  }
  REQUIRE(first >= 0);
  REQUIRE(later >= 0);
  for (int k = 0; k < static_cast<int>(t.steps.size()); ++k)
    if (t.steps[k].phase == Phase::WarpScan) CHECK(count_containing(lit_text(form, t, k), "__shfl_up_sync(FULL_MASK, mine, offset);") == 1);
  const std::vector<std::string> a = lit_text(form, t, first), b = lit_text(form, t, later);
  CHECK(count_containing(a, "data_s[first] += before;") == 1);
  CHECK(count_containing(a, "data_s[first + j] += data_s[first + j - 1];") == 0);
  CHECK(count_containing(b, "data_s[first] += before;") == 0);
  CHECK(count_containing(b, "data_s[first + j] += data_s[first + j - 1];") == 1);
}

TEST_CASE("CUDA form: marks keep a line's own comment, and a bad mark names its line") {
  const std::vector<SourceLine> form = parse_cuda_form("int a;\n  x = 1;  // the first @load:read,write @store\n  y;  // @up-sweep>2:op\n");
  REQUIRE(form.size() == 3);
  CHECK(form[0].marks.empty());
  CHECK(form[1].text == "  x = 1;  // the first");
  REQUIRE(form[1].marks.size() == 2);
  CHECK(form[1].marks[0].phase == Phase::Load);
  CHECK(form[1].marks[1].phase == Phase::Store);
  CHECK(form[2].text == "  y;");
  Step up;
  up.phase = Phase::UpSweep;
  up.param = 4;
  CHECK(form[2].marks[0].matches(up, MarkKind::Op));
  CHECK_FALSE(form[2].marks[0].matches(up, MarkKind::Read));
  up.param = 2;
  CHECK_FALSE(form[2].marks[0].matches(up, MarkKind::Op));
  CHECK_THROWS_WITH_AS(parse_cuda_form("a;\nb;  // @strides:read\n"), "line 2: mark '@strides:read': no phase is called 'strides'",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_cuda_form("b;  // @stride:add\n"),
                       "line 1: mark '@stride:add': 'add' is not step, read, write, op or barrier", std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_cuda_form("b;  // @stride=x\n"), "line 1: mark '@stride=x': the parameter is not a number",
                       std::invalid_argument);
}

TEST_CASE("CUDA form: device-wide algorithms have none, and the emulator form's file is the kernel header") {
  CHECK(cuda_form_file("chained").empty());
  CHECK(cuda_form_file("kogge-stone-double-buffer") == "block/cuda/kogge_stone_double_buffer.cu");
  CHECK(emulator_form_file("kogge-stone-double-buffer") == "block/kogge_stone_double_buffer.hpp");
  CHECK(emulator_form_file("decoupled-lookback") == "device/decoupled_lookback.hpp");
}
