// Every race-free block algorithm x every operator x sizes that are and are not powers of two x every
// schedule, on seeded random input, against the one sequential reference.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <stdexcept>

#include "algorithms.hpp"
#include "analysis/analysis.hpp"
#include "emulator/coroutine.hpp"
#include "emulator/fiber_stacks.hpp"
#include "helpers.hpp"

using namespace sv;

namespace {

const std::vector<std::int64_t> kSizes = {1, 2, 3, 16, 17, 31, 32, 33, 64, 65, 100, 1000, 1024};

// Checks the output cell by cell against the reference (not only the trace's own verdict).
void check_against_reference(const Trace& t) {
  const auto ref = reference_scan(t.meta.op, t.meta.type, t.meta.input, t.meta.exclusive);
  REQUIRE(t.result.output.size() == ref.size());
  CHECK(mismatches(t.meta.op, t.meta.type, t.meta.input, t.meta.exclusive, ref, t.result.output).empty());
  CHECK(t.result.outcome == Outcome::Correct);
}

void check_algorithm(const std::string& algo, bool exclusive) {
  for (auto [op, type] : sv_test::all_ops()) {
    for (std::int64_t n : kSizes) {
      for (const auto& schedule : sv_test::schedules()) {
        CAPTURE(algo);
        CAPTURE(op_name(op));
        CAPTURE(type_name(type));
        CAPTURE(n);
        CAPTURE(schedule);
        CAPTURE(exclusive);
        check_against_reference(sv_test::record(algo, n, op, type, schedule, exclusive, 1000 + n));
      }
    }
  }
}

}  // namespace

// A test case each for every race-free block-level row of the algorithm table, inclusive and
// exclusive (the warp-level rows: test_warp_scans.cpp, at every warp width).
#define REFERENCE_TESTS_Block_RaceFree(name)                                                  \
  TEST_CASE(name " matches the reference (inclusive)") { check_algorithm(name, false); } \
  TEST_CASE(name " matches the reference (exclusive)") { check_algorithm(name, true); }
#define REFERENCE_TESTS_Block_Racy(name)
#define REFERENCE_TESTS_WarpLevel_RaceFree(name)
#define REFERENCE_TESTS(name, kind, hazards) REFERENCE_TESTS_##kind##_##hazards(name)
#define SCANVIZ_BLOCK_ALGORITHM(name, Type, kind, hazards, ...) REFERENCE_TESTS(name, kind, hazards)
#define SCANVIZ_DEVICE_ALGORITHM(...)
#include "algorithms.def"
#undef SCANVIZ_BLOCK_ALGORITHM
#undef SCANVIZ_DEVICE_ALGORITHM

TEST_CASE("the algorithm table: the default algorithm is a name, found wherever its row stands") {
  const std::size_t i = block_algorithm_index(kDefaultBlockAlgorithm);
  REQUIRE(i < block_algorithms().size());
  CHECK(block_algorithms()[i].name == kDefaultBlockAlgorithm);
  CHECK(block_algorithm_index(block_algorithms().back().name) == block_algorithms().size() - 1);
  CHECK_THROWS_WITH_AS(block_algorithm_index("no-such-scan"), doctest::Contains("no-such-scan"), std::invalid_argument);
}

TEST_CASE("two-element algorithms scan a full 2048-element block") {
  for (const AlgorithmInfo& info : block_algorithms()) {
    if (info.items_per_thread != 2 || info.racy) continue;
    const std::string algo(info.name);
    CAPTURE(algo);
    check_against_reference(sv_test::record(algo, 2048, OpKind::Sum, ValueType::I64, "random:3"));
    check_against_reference(sv_test::record(algo, 1500, OpKind::Interval, ValueType::Interval, "round-robin", true));
  }
}

TEST_CASE("an explicit block larger than n pads with the identity and stays correct") {
  BlockRunConfig c;
  c.algorithm = "kogge-stone";
  c.n = 10;
  c.block = 64;
  c.op = OpKind::Max;
  c.type = ValueType::F32;
  const Trace t = record_block_scan(c);
  CHECK(t.meta.block == 64);
  CHECK(t.meta.capacity == 64);
  check_against_reference(t);
  c.algorithm = "blelloch";
  c.block = 32;
  const Trace b = record_block_scan(c);
  CHECK(b.meta.capacity == 64);
  check_against_reference(b);
}

TEST_CASE("block shapes: limits and padding are enforced with a reason") {
  const AlgorithmInfo& ks = *find_algorithm("kogge-stone");
  const AlgorithmInfo& bk = *find_algorithm("brent-kung");
  CHECK(block_shape(ks, 17, 0).threads == 17);
  CHECK(block_shape(bk, 17, 0).capacity == 32);
  CHECK(block_shape(bk, 17, 0).threads == 16);
  CHECK(block_shape(bk, 1, 0).capacity == 2);
  CHECK_THROWS_WITH_AS(block_shape(ks, 1025, 0), doctest::Contains("exceeds"), std::invalid_argument);
  CHECK_THROWS_AS(block_shape(bk, 2049, 0), std::invalid_argument);
  CHECK_THROWS_WITH_AS(block_shape(bk, 100, 48), doctest::Contains("power-of-two"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(block_shape(ks, 100, 50), doctest::Contains("fewer than n"), std::invalid_argument);
  CHECK_THROWS_AS(block_shape(ks, 0, 0), std::invalid_argument);
  CHECK_THROWS_AS(block_shape(ks, 10, 1025), std::invalid_argument);
}

TEST_CASE("record_block_scan rejects a configuration that cannot run") {
  CHECK_THROWS_AS(sv_test::record("no-such-scan", 8, OpKind::Sum, ValueType::I32), std::invalid_argument);
  CHECK_THROWS_AS(sv_test::record("kogge-stone", 8, OpKind::Interval, ValueType::I32), std::invalid_argument);
  CHECK_THROWS_AS(sv_test::record("kogge-stone", 8, OpKind::Sum, ValueType::I32, "in-order", false, 1,
                                  std::vector<Payload>(3, Payload::of(1))),
                  std::invalid_argument);
}

TEST_CASE("recording reserves room for every event the block algorithms record, so the event vector never moves") {
  for (const AlgorithmInfo& info : block_algorithms()) {
    const std::string algo(info.name);
    for (std::int64_t n : {std::int64_t{1}, std::int64_t{2}, std::int64_t{17}, std::int64_t{100},
                           std::int64_t{1024} * info.items_per_thread})
      for (bool exclusive : {false, true}) {
        CAPTURE(algo);
        CAPTURE(n);
        CAPTURE(exclusive);
        const Trace t = sv_test::record(algo, n, OpKind::Sum, ValueType::I32, "random:5", exclusive, 7);
        CHECK(t.events.size() <= expected_events(t.meta));
      }
  }
}

TEST_CASE("fiber stacks: each stack sits above a page that faults, and the next block on the thread reuses the mapping") {
  const void* first_top = nullptr;
  {
    const FiberStacks stacks(3, 64 * 1024);
    first_top = stacks.slot(0).stack.sp;
    for (std::size_t i = 0; i < 3; ++i) {
      CAPTURE(i);
      const FiberStacks::Slot slot = stacks.slot(i);
      CHECK(slot.stack.size >= 64 * 1024);
      char* top = static_cast<char*>(slot.stack.sp);
      char* bottom = top - slot.stack.size;
      top[-1] = 1;  // the whole stack is writable
      bottom[0] = 1;
      const pid_t child = ::fork();
      REQUIRE(child >= 0);
      if (child == 0) {
        bottom[-1] = 1;  // one byte past the stack: the guard page
        ::_exit(0);
      }
      int status = 0;
      REQUIRE(::waitpid(child, &status, 0) == child);
      CHECK(WIFSIGNALED(status));
      CHECK(WTERMSIG(status) == SIGSEGV);
    }
  }
  const FiberStacks again(2, 64 * 1024);
  CHECK(again.slot(0).stack.sp == first_top);
}

TEST_CASE("coroutine: what the body throws after suspending is thrown by the resume() that ran it") {
  Coroutine c;
  int reached = 0;
  c.start(64 * 1024, [&] {
    reached = 1;
    c.suspend();
    reached = 2;
    throw std::runtime_error("lane failed");
  });
  c.resume();
  CHECK(reached == 1);
  CHECK_THROWS_WITH_AS(c.resume(), "lane failed", std::runtime_error);
  CHECK(reached == 2);
  // The slot is usable again: a new body runs from its start.
  c.start(64 * 1024, [&] { reached = 3; });
  c.resume();
  CHECK(reached == 3);
}
