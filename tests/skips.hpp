// Test cases that cannot run on this machine, skipped with the reason, decided when they register:
//   TEST_CASE("name" * sv_test::skip_unless(can_run(), "why it cannot run here")) { ... }
// doctest leaves a skipped test case out of a run and out of --list-test-cases; run_tests (the test
// executables' main) lists it all the same, so CTest registers it, and when a run's filters match
// only skipped test cases it prints each one's reason and exits with 77, which CTest reports as
// skipped (SKIP_RETURN_CODE 77 in tests/CMakeLists.txt).
#pragma once

#include <doctest/doctest.h>

namespace sv_test {

// doctest's skip decorator with the reason as the test case's description.
struct skip_unless {
  bool runs;
  const char* reason;  // a string literal: doctest keeps the pointer

  skip_unless(bool can_run, const char* why) : runs(can_run), reason(why) {}
  void fill(doctest::detail::TestCase& state) const {
    state.m_skip = !runs;
    if (!runs) state.m_description = reason;
  }
  void fill(doctest::detail::TestSuite& state) const {
    state.m_skip = !runs;
    if (!runs) state.m_description = reason;
  }
};

// doctest's run, as above: returns its exit code, or 77 when every test case the filters match is skipped.
int run_tests(int argc, char** argv);

}  // namespace sv_test
