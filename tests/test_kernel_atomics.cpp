// atomicAdd and __threadfence in a kernel of your own: one atomic read-modify-write event each, the
// old value returned, no race between two atomics to one cell, a race against a plain access; the
// trace's JSON keeps the mark (version 2) and still reads and writes version 1.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "analysis/analysis.hpp"
#include "core/values.hpp"
#include "cuda_subset/check.hpp"
#include "cuda_subset/parser.hpp"
#include "run/launch.hpp"
#include "own_kernel_helpers.hpp"
#include "trace/trace_json.hpp"

using namespace sv;

namespace {

// The line of the first line of `source` that holds `text` (1-based), or 0.
std::uint32_t line_of(const std::string& source, const std::string& text) {
  std::uint32_t line = 1;
  for (std::size_t at = 0; at < source.size(); ++line) {
    const std::size_t end = std::min(source.find('\n', at), source.size());
    if (source.substr(at, end - at).find(text) != std::string::npos) return line;
    at = end + 1;
  }
  return 0;
}

// A kernel whose threads add their element to a counter with atomicAdd and store what it held before
// (plus their element): an inclusive scan only when the atomics happen in thread order.
std::string order_kernel(const char* type) {
  return std::string("__global__ void order(") + type + "* in, " + type + "* out, " + type +
         "* partialSums) {\n"
         "  __shared__ " + type + " total;\n"
         "  if (threadIdx.x == 0) { total = 0; partialSums[blockIdx.x] = 0; }\n"
         "  __syncthreads();\n"
         "  " + type + " x = in[threadIdx.x];\n"
         "  " + type + " before = atomicAdd(&total, x);\n"
         "  atomicAdd(&partialSums[blockIdx.x], x);\n"
         "  __threadfence();\n"
         "  out[threadIdx.x] = before + x;\n"
         "}\n";
}

std::vector<Payload> small_integers(ValueType type, std::size_t n) {
  std::vector<Payload> v;
  for (std::size_t i = 0; i < n; ++i)
    v.push_back(type == ValueType::I32 ? Payload::of(static_cast<std::int32_t>(i % 5 + 1)) : Payload::of(static_cast<float>(i % 5 + 1)));
  return v;
}

}  // namespace

TEST_CASE("atomicAdd returns the old value and updates one cell indivisibly, on shared and global memory") {
  for (const char* type : {"float", "int"}) {
    const ValueType vt = std::string(type) == "int" ? ValueType::I32 : ValueType::F32;
    for (std::int32_t warp : {32, 4, 1})
      for (const char* schedule : {"in-order", "reverse", "random:3"}) {
        CAPTURE(type);
        CAPTURE(warp);
        CAPTURE(schedule);
        cuda::KernelRunConfig c;
        c.file = "order.cu";
        c.source = order_kernel(type);
        c.n = 16;
        c.block = 16;
        c.warp = warp;
        c.schedule = *Schedule::parse(schedule);
        c.input = small_integers(vt, 16);
        const Trace t = cuda::record_kernel_trace(c);
        // Every atomic is one write event marked atomic; nothing else is.
        std::int64_t atomics = 0;
        for (const Event& e : t.events) {
          if (e.atomic) CHECK(e.kind == EventKind::Write);
          atomics += e.atomic;
        }
        CHECK(atomics == 32);  // two a thread: the shared total and the global partial sum
        // The counters end at the input's sum whatever the order (no update lost), and each thread's
        // old value is the sum of the elements whose atomics came before its own.
        const double sum = 46;  // 1..5 three times, then a 1
        const auto as_double = [&](const Payload& p) { return vt == ValueType::I32 ? double(p.as<std::int32_t>()) : double(p.as<float>()); };
        CHECK(as_double(t.snapshots.back()[2].values[0]) == sum);  // partialSums[0]
        std::vector<double> outs;
        for (const Payload& p : t.result.output) outs.push_back(as_double(p));
        CHECK(*std::max_element(outs.begin(), outs.end()) == sum);
        std::vector<double> reference;
        for (const Payload& p : reference_scan(OpKind::Sum, vt, c.input, false)) reference.push_back(as_double(p));
        // In thread order (one lane at a time in order, or a warp's lanes taking turns in lane order)
        // the outputs are the inclusive scan; reverse order gives another permutation of sums.
        if (std::string(schedule) == "in-order") CHECK(outs == reference);
        if (std::string(schedule) == "reverse" && warp == 1) CHECK(outs != reference);
        CHECK(find_hazards(t).empty());  // two atomics to one cell are no race
      }
  }
}

TEST_CASE("an atomic against a plain access of the same cell is still a race") {
  cuda::KernelRunConfig c;
  c.file = "mixed.cu";
  c.source =
      "__global__ void mixed(float* in, float* out) {\n"
      "  __shared__ int count;\n"
      "  if (threadIdx.x == 0) count = 0;\n"
      "  __syncthreads();\n"
      "  atomicAdd(&count, 1);\n"
      "  if (threadIdx.x == 3) count = 7;\n"
      "  out[threadIdx.x] = in[threadIdx.x];\n"
      "}\n";
  c.n = 8;
  c.block = 8;
  c.warp = 1;
  const Trace t = cuda::record_kernel_trace(c);
  const std::vector<Hazard> hz = find_hazards(t);
  REQUIRE(!hz.empty());
  for (const Hazard& h : hz) {
    CHECK(t.buffers[static_cast<std::size_t>(h.buffer)].name == "count");
    CHECK((h.first.line == 6 || h.second.line == 6));  // each pairs the plain write with an atomic
    CHECK(h.first.line + h.second.line == 11);
  }
}

TEST_CASE("the ticket kernel: a shared counter via atomicAdd is race-free and correct, with += it races at its lines") {
  const std::string good = "tests/kernels/atomic_ticket.cu";
  const cuda::CheckReport r = cuda::check_kernel(good, sv_test::read_source(good));
  CHECK(r.verdict == "correct");
  CHECK(r.hazards.empty());
  CHECK(r.errors.empty());

  const std::string bad = "tests/kernels/ticket_plus_equals.cu";
  const std::string source = sv_test::read_source(bad);
  const std::uint32_t read_line = line_of(source, "unsigned int ticket = next;");
  const std::uint32_t add_line = line_of(source, "next += 1;");
  REQUIRE(read_line > 0);
  REQUIRE(add_line == read_line + 1);
  // One thread at a time in order: the outputs come out right, and the race is still found.
  const Trace t = cuda::record_kernel_trace(sv_test::kernel_config(bad, 8, 8, "in-order", 1));
  CHECK(t.result.outcome == Outcome::Correct);
  std::set<std::pair<std::uint32_t, std::uint32_t>> lines;  // (write, other access) on the counter
  for (const Hazard& h : find_hazards(t)) {
    CHECK(t.buffers[static_cast<std::size_t>(h.buffer)].name == "next");
    const HazardAccess& w = h.first.write ? h.first : h.second;
    const HazardAccess& o = h.first.write ? h.second : h.first;
    lines.insert({w.line, o.line});
  }
  CHECK(lines.count({add_line, read_line}) == 1);  // thread 0's += then thread 1's read
  const cuda::CheckReport rb = cuda::check_kernel(bad, source);
  CHECK(rb.verdict != "correct");
  CHECK(std::any_of(rb.hazards.begin(), rb.hazards.end(), [&](const cuda::CheckHazard& h) { return h.buffer == "next" && h.line_write == add_line; }));
}

TEST_CASE("atomicAdd's target: a bool is refused, a cell before it was written is an uninitialized read") {
  cuda::KernelRunConfig c;
  c.file = "k.cu";
  c.n = 4;
  c.block = 4;
  c.source = "__global__ void k(float* in, float* out) {\n  __shared__ bool b;\n  atomicAdd(&b, true);\n  out[threadIdx.x] = in[threadIdx.x];\n}\n";
  CHECK_THROWS_WITH_AS(cuda::record_kernel_trace(c), doctest::Contains("k.cu:3:14: error: atomicAdd on a bool"), cuda::KernelError);
  c.source = "__global__ void k(float* in, float* out) {\n  __shared__ int n;\n  atomicAdd(&n, 1);\n  out[threadIdx.x] = in[threadIdx.x];\n}\n";
  try {
    cuda::record_kernel_trace(c);
    FAIL("no fault");
  } catch (const EmulationError& e) {
    CHECK(e.kind == "uninitialized-read");
    CHECK(e.line == 3);
  }
}

TEST_CASE("trace json: an atomic event round trips as version 2, a trace without one stays version 1") {
  cuda::KernelRunConfig c = sv_test::kernel_config("tests/kernels/atomic_ticket.cu", 8, 8);
  const Trace t = cuda::record_kernel_trace(c);
  const std::string text = trace_to_json(t);
  CHECK(text.find("\"version\": 2") != std::string::npos);
  CHECK(text.find("\"b\", \"atomic\"]") != std::string::npos);
  const Trace back = trace_from_json(text);
  REQUIRE(back.events.size() == t.events.size());
  for (std::size_t i = 0; i < t.events.size(); ++i) CHECK(back.events[i].atomic == t.events[i].atomic);
  CHECK(std::count_if(back.events.begin(), back.events.end(), [](const Event& e) { return e.atomic; }) == 8);
  CHECK(trace_to_json(back) == text);

  const Trace plain = cuda::record_kernel_trace(sv_test::kernel_config("kernels/block/cuda/kogge_stone.cu", 8, 8));
  const std::string v1 = trace_to_json(plain);
  CHECK(v1.find("\"version\": 1") != std::string::npos);
  CHECK(v1.find("atomic") == std::string::npos);
  CHECK(trace_to_json(trace_from_json(v1)) == v1);

  // A version 2 file is read by its own event fields; an atomic read is refused.
  std::string wrong = text;
  wrong.replace(wrong.find("\"version\": 2"), 12, "\"version\": 1");
  CHECK_THROWS_WITH_AS(trace_from_json(wrong), doctest::Contains("event_fields"), TraceError);
  std::string atomic_read = text;  // the first read event's last field, its mark, set
  const std::size_t mark = atomic_read.find("false", atomic_read.find("\"read\""));
  REQUIRE(mark != std::string::npos);
  atomic_read.replace(mark, 5, "true");
  CHECK_THROWS_WITH_AS(trace_from_json(atomic_read), doctest::Contains("only a write is atomic"), TraceError);
}

TEST_CASE("the other atomics: atomicMax, atomicMin, atomicExch, atomicSub, atomicOr and atomicCAS update one cell indivisibly") {
  // Every thread takes part; the cells end as the sequential meaning of each atomic says, whatever the
  // order, and a lock taken with atomicCAS and given back with atomicExch counts each thread once.
  const std::string source = R"(__global__ void k(const int* in, int* out, int* cells, int n) {
  int i = threadIdx.x;
  atomicMax(&cells[0], in[i]);
  atomicMin(&cells[1], in[i]);
  atomicSub(&cells[2], 1);
  atomicOr(&cells[3], 1 << i);
  while (atomicCAS(&cells[4], 0, 1) != 0) { }
  cells[5] = cells[5] + 1;
  atomicExch(&cells[4], 0);
  __syncthreads();
  out[i] = in[i];
}
)";
  for (const char* schedule : {"in-order", "reverse", "random:3"}) {
    CAPTURE(schedule);
    cuda::KernelRunConfig c;
    c.file = "atomics.cu";
    c.source = source;
    c.n = 8;
    c.launch = parse_launch("k<<<1, 8>>>(in, out, zeros(6), n)");
    c.schedule = *Schedule::parse(schedule);
    c.input = {Payload::of(3), Payload::of(-4), Payload::of(9), Payload::of(0), Payload::of(7), Payload::of(-1), Payload::of(2), Payload::of(5)};
    const Trace t = cuda::record_kernel_launch(c).trace;
    const int cells = t.find_buffer("cells");
    REQUIRE(cells >= 0);
    const auto& last = t.snapshots.back()[static_cast<std::size_t>(cells)].values;
    CHECK(last[0].as<std::int32_t>() == 9);   // max(0, inputs)
    CHECK(last[1].as<std::int32_t>() == -4);  // min(0, inputs)
    CHECK(last[2].as<std::int32_t>() == -8);
    CHECK(last[3].as<std::int32_t>() == 0xff);
    CHECK(last[4].as<std::int32_t>() == 0);  // the lock given back
  }
  CHECK_THROWS_WITH_AS(cuda::parse_kernel("__global__ void k(float* a, float* b) { atomicMax(&a[0], 1.0f); }\n", "f.cu"),
                       doctest::Contains("atomicMax of a floating cell"), cuda::KernelError);
}
