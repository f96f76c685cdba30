// Races between the blocks of one launch (analysis/block_races.hpp): the flag protocol's order, on
// traces built here event by event, then on kernels run on the emulator.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "analysis/block_races.hpp"
#include "cuda_subset/check.hpp"
#include "cuda_subset/record_kernel.hpp"
#include "run/launch.hpp"
#include "trace/trace_json.hpp"

using namespace sv;

namespace {

// Two global buffers (data, flag) of 4 cells, blocks given by each event.
struct Builder {
  Trace t;
  Builder(std::int32_t grid = 2) {
    t.meta.type = ValueType::I32;
    t.meta.grid = grid;
    t.meta.block = 32;
    t.buffers = {{"data", Space::Global, 4}, {"flag", Space::Global, 4}};
  }
  Builder& add(EventKind kind, std::uint32_t block, std::uint32_t line, int buffer = 0, std::int64_t index = 0, bool atomic = false) {
    Event e;
    e.seq = t.events.size();
    e.kind = kind;
    e.block = block;
    e.line = line;
    e.atomic = atomic;
    if (kind == EventKind::Read || kind == EventKind::Write) {
      e.buffer = static_cast<std::uint8_t>(buffer);
      e.index = index;
      e.value = Payload::of(std::int32_t(1));
    }
    t.events.push_back(e);
    return *this;
  }
  // Block 0 publishes data[0] then raises flag[0], with a fence between or not; block 1 waits on
  // the flag, then reads the data.
  static Trace message(bool fence, bool reader_waits = true) {
    Builder b;
    b.add(EventKind::Write, 0, 10, 0, 0);
    if (fence) b.add(EventKind::Fence, 0, 11);
    b.add(EventKind::Write, 0, 12, 1, 0);
    if (reader_waits) b.add(EventKind::Read, 1, 20, 1, 0);
    b.add(EventKind::Read, 1, 21, 0, 0);
    return b.t;
  }
};

bool has_race(const std::vector<Hazard>& hs, HazardKind kind, std::uint32_t first_line, std::uint32_t second_line) {
  return std::any_of(hs.begin(), hs.end(), [&](const Hazard& h) {
    return h.kind == kind && h.between_blocks && h.first.line == first_line && h.second.line == second_line && h.first.block != h.second.block;
  });
}

}  // namespace

TEST_CASE("block races: data, fence, flag, then flag, data is the protocol, and no race") {
  CHECK(find_block_races(Builder::message(true)).empty());
}

TEST_CASE("block races: without the fence the data may arrive after the flag") {
  const auto hs = find_block_races(Builder::message(false));
  CHECK(has_race(hs, HazardKind::RAW, 10, 21));  // the data
  CHECK(has_race(hs, HazardKind::RAW, 12, 20));  // the flag, raised with no fence before it
  for (const Hazard& h : hs) CHECK(h.first.block == 0);
}

TEST_CASE("block races: a fence the reader never waits for orders nothing") {
  const auto hs = find_block_races(Builder::message(true, false));
  REQUIRE(hs.size() == 1);
  CHECK(has_race(hs, HazardKind::RAW, 10, 21));
  CHECK(hs[0].first.write);
  CHECK_FALSE(hs[0].second.write);
}

TEST_CASE("block races: one block's own accesses, and a trace of one block, never race between blocks") {
  Builder one(1);
  one.add(EventKind::Write, 0, 10).add(EventKind::Read, 0, 11);
  CHECK(find_block_races(one.t).empty());
  Builder same;
  same.add(EventKind::Write, 1, 10).add(EventKind::Read, 1, 11).add(EventKind::Write, 1, 12);
  CHECK(find_block_races(same.t).empty());
}

TEST_CASE("block races: atomics against atomics are a ticket, an atomic against a plain access is not") {
  Builder tickets;
  tickets.add(EventKind::Write, 0, 5, 1, 3, true).add(EventKind::Write, 1, 5, 1, 3, true);
  CHECK(find_block_races(tickets.t).empty());
  Builder mixed;
  mixed.add(EventKind::Write, 0, 5, 1, 3, true).add(EventKind::Write, 1, 6, 1, 3);
  CHECK(has_race(find_block_races(mixed.t), HazardKind::WAW, 5, 6));
}

TEST_CASE("block races: a read another block later overwrites is a WAR") {
  Builder b;
  b.add(EventKind::Read, 0, 7, 0, 2).add(EventKind::Write, 1, 8, 0, 2);
  const auto hs = find_block_races(b.t);
  REQUIRE(hs.size() == 1);
  CHECK(has_race(hs, HazardKind::WAR, 7, 8));
  CHECK_FALSE(hs[0].first.write);
}

TEST_CASE("block races: blocks of two launches are ordered by the launch boundary") {
  Builder b(3);
  b.add(EventKind::Write, 0, 10, 0, 1).add(EventKind::Read, 1, 20, 0, 1).add(EventKind::Read, 2, 30, 0, 1);
  CHECK(find_block_races(b.t).size() == 2);  // blocks 1 and 2 read block 0's write: one launch of three blocks
  b.t.meta.options["launch_blocks"] = "0,1";   // block 0 is a launch of its own, blocks 1 and 2 the next
  CHECK(find_block_races(b.t).empty());
  CHECK(launch_first_blocks(b.t.meta) == std::vector<std::uint32_t>{0, 1});
  b.t.meta.options["launch_blocks"] = "junk";
  CHECK(launch_first_blocks(b.t.meta) == std::vector<std::uint32_t>{0});
}


namespace {

// A chained scan of blocks of 4: thread 0 scans its block, waits for the block before's flag,
// publishes its total, then `publish` (a fence, or not) and raises its own flag.
std::string chained(const std::string& publish) {
  return R"(#define B 4
__global__ void chained(const int *in, int *out, int *carry, volatile int *flag, int n) {
  __shared__ int s[B];
  __shared__ int before;
  int i = blockIdx.x * B + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int k = 1; k < B; ++k) s[k] += s[k - 1];
    before = 0;
    if (blockIdx.x > 0) {
      while (flag[blockIdx.x] == 0) {}
      before = carry[blockIdx.x];
    }
    carry[blockIdx.x + 1] = before + s[B - 1];
    )" + publish + R"(
    flag[blockIdx.x + 1] = 1;
  }
  __syncthreads();
  if (i < n) out[i] = s[threadIdx.x] + before;
}
)";
}

const char* kChainedLaunch = "chained<<<(n + 3) / 4, 4>>>(in, out, zeros((n + 3) / 4 + 1), zeros((n + 3) / 4 + 1), n)";

cuda::CheckReport check_chained(const std::string& publish) {
  cuda::CheckOptions o;
  o.launch = parse_launch(kChainedLaunch);
  return cuda::check_kernel("chained.cu", chained(publish), o);
}

bool races_between_blocks(const cuda::CheckReport& r, std::uint32_t write_line, std::uint32_t read_line) {
  return std::any_of(r.hazards.begin(), r.hazards.end(), [&](const cuda::CheckHazard& h) {
    return h.block_first >= 0 && h.block_second > h.block_first && h.memory == "global" && h.line_write == write_line && h.line_read == read_line;
  });
}

}  // namespace

TEST_CASE("block races: a chained scan with __threadfence() between its total and its flag is correct") {
  const cuda::CheckReport r = check_chained("__threadfence();");
  CHECK(r.verdict == "correct");
  CHECK(r.hazards.empty());
}

TEST_CASE("block races: the chained scan without the fence, or with a block-scope one, races on its total") {
  for (const std::string publish : {"", "__threadfence_block();"}) {
    CAPTURE(publish);
    const cuda::CheckReport r = check_chained(publish);
    CHECK(r.verdict == "wrong");
    CHECK(races_between_blocks(r, 15, 13));  // carry[b + 1] written at line 15, read by the next block at line 13
    // Every case's outputs are right: the emulator runs the blocks in order, the race is the finding.
    CHECK(std::all_of(r.cases.begin(), r.cases.end(), [](const cuda::CheckCase& c) { return c.outcome == "correct"; }));
    const auto it = std::find_if(r.hazards.begin(), r.hazards.end(), [](const cuda::CheckHazard& h) { return h.line_read == 13; });
    REQUIRE(it != r.hazards.end());
    const std::string text = cuda::hazard_accesses(*it);
    CHECK(text.find("of block " + std::to_string(it->block_first) + " wrote it (line 15)") != std::string::npos);
    CHECK(text.find("no __threadfence() and flag between") != std::string::npos);
  }
}

TEST_CASE("block races: the fence is recorded where the kernel calls it, once a thread that runs it") {
  cuda::KernelRunConfig c;
  c.file = "chained.cu";
  c.source = chained("__threadfence();");
  c.n = 12;
  c.launch = parse_launch(kChainedLaunch);
  const Trace t = cuda::record_kernel_launch(c).trace;
  const auto fences = std::count_if(t.events.begin(), t.events.end(), [](const Event& e) { return e.kind == EventKind::Fence; });
  CHECK(fences == 3);  // thread 0 of each of the 3 blocks
  for (const Event& e : t.events)
    if (e.kind == EventKind::Fence) CHECK((e.thread == 0 && e.line == 16));
}

TEST_CASE("block races: a fence event survives the trace file (version 3), and a trace without one is written as before") {
  cuda::KernelRunConfig c;
  c.file = "chained.cu";
  c.n = 12;
  c.launch = parse_launch(kChainedLaunch);
  c.source = chained("__threadfence();");
  const Trace t = cuda::record_kernel_launch(c).trace;
  const std::string text = trace_to_json(t);
  CHECK(text.find("\"version\": 3") != std::string::npos);
  const Trace back = trace_from_json(text);
  REQUIRE(back.events.size() == t.events.size());
  for (std::size_t i = 0; i < t.events.size(); ++i) CHECK(back.events[i].kind == t.events[i].kind);
  CHECK(find_block_races(back).empty());
  c.source = chained("");
  const Trace unfenced = cuda::record_kernel_launch(c).trace;
  CHECK(trace_to_json(unfenced).find("\"version\": 1") != std::string::npos);  // no fence, no atomic: as before
  CHECK_FALSE(find_block_races(trace_from_json(trace_to_json(unfenced))).empty());
}

TEST_CASE("block races: a host function's launches are ordered, but one launch's blocks reading each other are not") {
  const std::string source = R"(__global__ void copy(const int *in, int *tmp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) tmp[i] = in[i];
}
__global__ void sum(const int *tmp, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = 0;
    for (int k = 0; k <= i; ++k) s += tmp[k];
    out[i] = s;
  }
}
__global__ void sum_in_place(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i > 0) out[i] += out[i - 1];
}
void scan(const int *in, int *out, int n) {
  int *tmp;
  cudaMalloc(&tmp, n * sizeof(int));
  copy<<<(n + 3) / 4, 4>>>(in, tmp, n);
  sum<<<(n + 3) / 4, 4>>>(tmp, out, n);
  sum_in_place<<<(n + 3) / 4, 4>>>(out, n);
  cudaFree(tmp);
}
)";
  cuda::KernelRunConfig c;
  c.file = "two.cu";
  c.source = source;
  c.n = 12;
  c.launch = parse_launch("scan(in, out, n)");
  const Trace t = cuda::record_kernel_launch(c).trace;
  CHECK(t.meta.options.at("launch_blocks") == "0,3,6");
  const auto hs = find_block_races(t);
  // sum reads tmp across its blocks (written by copy, an earlier launch), and sum_in_place's blocks
  // read out, written by sum: no race. In sum_in_place, thread 0 of a block reads the cell thread 3
  // of the block before wrote: a race between blocks 6 to 8, the third launch's, only.
  REQUIRE_FALSE(hs.empty());
  for (const Hazard& h : hs) {
    CHECK(h.first.block >= 6);
    CHECK(h.second.block >= 6);
    CHECK(h.first.line == 15);
    CHECK(h.second.line == 15);
  }
}

TEST_CASE("block races: show and stats say both blocks of a race between them") {
  const auto hs = find_block_races(Builder::message(false, false));
  REQUIRE(hs.size() == 1);
  Trace t = Builder::message(false, false);
  const std::string said = describe_hazard(t, hs[0]);
  CHECK(said.find("thread 0 of block 0 wrote") != std::string::npos);
  CHECK(said.find("thread 0 of block 1 read it") != std::string::npos);
  CHECK(said.find("[between blocks: no __threadfence() and flag between]") != std::string::npos);
  // One block's own race says no blocks.
  Hazard inside = hs[0];
  inside.between_blocks = false;
  CHECK(describe_hazard(t, inside).find("block") == std::string::npos);
}
