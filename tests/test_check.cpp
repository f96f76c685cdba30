// `scanviz check` on planted bugs (tests/kernels/*.cu): each is named with its kind and the line marked
// `@bug KIND` in the file; the correct kernels (the built-in CUDA forms, a student's) are called correct.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>

#include "cuda_subset/check.hpp"
#include "own_kernel_helpers.hpp"

using namespace sv;

namespace {

struct Marked {
  std::string kind;
  std::uint32_t line = 0;
};

// The `// @bug KIND` comment of a planted-bug kernel and its line.
Marked marked_bug(const std::string& source) {
  std::istringstream in(source);
  std::uint32_t line = 0;
  for (std::string text; std::getline(in, text);) {
    ++line;
    const auto at = text.find("// @bug ");
    if (at != std::string::npos) return {text.substr(at + 8), line};
  }
  return {};
}

bool names(const cuda::CheckReport& r, const Marked& bug) {
  if (bug.kind == "hazard")
    return std::any_of(r.hazards.begin(), r.hazards.end(), [&](const cuda::CheckHazard& h) { return h.line_write == bug.line; });
  const auto& list = bug.kind == "wrong-value" ? r.diagnoses : r.errors;
  return std::any_of(list.begin(), list.end(), [&](const cuda::CheckError& e) { return e.kind == bug.kind && e.line == bug.line; });
}

}  // namespace

TEST_CASE("check names each planted bug with its line") {
  struct Planted {
    const char* file;
    const char* verdict;
    bool exclusive;
  };
  const Planted planted[] = {
      // A bug found by running the kernel (a fault too) makes it wrong; error is for a file that cannot
      // run. The cells past n that uninitialized_read's tree reads reach no output: a warning only.
      {"missing_barrier", "wrong", false},           {"barrier_in_branch", "wrong", false},
      {"off_by_one_load", "wrong", false},           {"uninitialized_read", "correct", false},
      {"wrong_identity", "wrong", true},             {"powers_of_two_only", "wrong", false},
      {"store_off_by_one", "wrong", false},          {"endless_loop", "wrong", false},
      {"brent_kung_missing_barrier", "wrong", false}, {"early_return", "wrong", false},
      {"uninitialized_local", "wrong", false},       {"inclusive_not_exclusive", "wrong", true},
      {"ticket_plus_equals", "wrong", false},  // two threads take one ticket, so a cell is never loaded
  };
  for (const Planted& p : planted) {
    const std::string file = std::string("tests/kernels/") + p.file + ".cu";
    CAPTURE(file);
    const std::string source = sv_test::read_source(file);
    const Marked bug = marked_bug(source);
    REQUIRE(bug.line > 0);
    const cuda::CheckReport r = cuda::check_kernel(file, source, {0, p.exclusive});
    CHECK(r.verdict == p.verdict);
    CHECK(names(r, bug));
  }
}

TEST_CASE("check calls the correct kernels correct and names the algorithm they match") {
  struct Correct {
    const char* file;
    bool exclusive;
    const char* matches;  // nullptr: no closed form matches
  };
  const Correct correct[] = {
      {"kernels/block/cuda/kogge_stone.cu", false, "kogge-stone"},
      {"kernels/block/cuda/kogge_stone_double_buffer.cu", false, "kogge-stone"},
      {"kernels/block/cuda/brent_kung.cu", false, "brent-kung"},
      {"kernels/block/cuda/sklansky.cu", false, "sklansky"},
      {"kernels/block/cuda/blelloch.cu", true, "blelloch"},
      {"assets/kernels/blelloch_exclusive.cu", true, "blelloch"},
      {"tests/kernels/correct_kogge_stone.cu", false, "kogge-stone"},
  };
  for (const Correct& c : correct) {
    CAPTURE(c.file);
    const cuda::CheckReport r = cuda::check_kernel(c.file, sv_test::read_source(c.file));
    CHECK(r.verdict == "correct");
    CHECK(r.errors.empty());
    CHECK(r.hazards.empty());
    CHECK(r.exclusive == c.exclusive);  // told from the outputs
    CHECK(r.cases.size() > 100);
    REQUIRE(r.matches.has_value());
    CHECK(*r.matches == c.matches);
  }
}

TEST_CASE("check on the seeds' kernels: the race of slide 14, the unguarded loads, the blog's flag") {
  const std::string pmpp = "assets/kernels/pmpp_kogge_stone_incorrect.cu";
  cuda::CheckReport r = cuda::check_kernel(pmpp, sv_test::read_source(pmpp));
  CHECK(std::any_of(r.hazards.begin(), r.hazards.end(), [](const cuda::CheckHazard& h) { return h.line_write == 20 && h.buffer == "buffer_s"; }));
  const std::string blog = "assets/kernels/blog_kogge_stone_t0_t1.cu";
  r = cuda::check_kernel(blog, sv_test::read_source(blog));
  CHECK(r.verdict != "correct");  // the race on the flag also sends threads to cells nothing wrote
  CHECK(std::any_of(r.hazards.begin(), r.hazards.end(), [](const cuda::CheckHazard& h) { return h.buffer == "reverse" && h.line_write == 33; }));
  // Slide 19 loads input[i] without a bound: right for whole blocks, out of bounds below one.
  const std::string db = "assets/kernels/pmpp_kogge_stone_double_buffer.cu";
  r = cuda::check_kernel(db, sv_test::read_source(db));
  CHECK(r.verdict == "wrong");  // found by running it: wrong, not a file that cannot run
  CHECK(std::any_of(r.errors.begin(), r.errors.end(), [](const cuda::CheckError& e) { return e.kind == "out-of-bounds" && e.line == 17; }));
  for (const cuda::CheckCase& c : r.cases)
    if (c.n % 8 == 0) CHECK(c.outcome == "correct");
}

TEST_CASE("check lists every source error of a file at once, each at its line, and runs nothing") {
  const cuda::CheckReport r = cuda::check_kernel("bad.cu",
                                                 "__global__ void k(float* a, float* b) {\n  a[0] = b[0] +;\n  a[1] = nothing;\n  a[2] = b[2];\n}\n");
  CHECK(r.verdict == "error");
  REQUIRE(r.errors.size() == 2);
  CHECK(r.errors[0].line == 2);
  CHECK(r.errors[1].line == 3);
  CHECK(r.errors[1].message.find("'nothing'") != std::string::npos);
  CHECK(r.cases.empty());
}

TEST_CASE("check says a source error in one place and runs nothing") {
  const cuda::CheckReport r = cuda::check_kernel("bad.cu", "__global__ void k(float* a, float* b) { a[0] = b[0] +; }");
  CHECK(r.verdict == "error");
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].kind == "syntax");
  CHECK(r.errors[0].line == 1);
  CHECK(r.cases.empty());
}
