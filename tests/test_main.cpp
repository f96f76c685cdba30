// doctest's main for the scanviz test executables: test cases this machine cannot run are skipped
// with their reason (skips.hpp).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "skips.hpp"

int main(int argc, char** argv) { return sv_test::run_tests(argc, argv); }
