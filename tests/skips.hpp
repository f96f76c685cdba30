// Test cases that cannot run on this machine, skipped with the reason:
//   TEST_CASE("name" * sv_test::skip_unless(can_run, "why it cannot run here")) { ... }
// can_run is a function, asked when the run starts (run_tests), not while the test cases register:
// during static initialisation the CUDA runtime has not yet registered this program's kernels, so a
// probe of the device there says it has no code for it.
// doctest leaves a skipped test case out of a run and out of --list-test-cases; run_tests (the test
// executables' main) lists it all the same, so CTest registers it, and when a run's filters match
// only skipped test cases it prints each one's reason and exits with 77, which CTest reports as
// skipped (SKIP_RETURN_CODE 77 in tests/CMakeLists.txt).
#pragma once

#include <doctest/doctest.h>

namespace sv_test {

// A decorator that notes the test case with its condition; run_tests marks it skipped (doctest's
// m_skip, the reason as its description) when the condition does not hold.
struct skip_unless {
  bool (*can_run)();
  const char* reason;  // a string literal: doctest keeps the pointer

  skip_unless(bool (*condition)(), const char* why) : can_run(condition), reason(why) {}
  void fill(doctest::detail::TestCase& state) const;
};

// doctest's run, as above: returns its exit code, or 77 when every test case the filters match is skipped.
int run_tests(int argc, char** argv);

}  // namespace sv_test
