// The report card's lines, one function a kind of entry: the text card (check_report.cpp) and the
// rubric's items (each item's output in Gradescope, JUnit and the class table) say them alike.
#pragma once

#include <string>

#include "cuda_subset/check.hpp"

namespace sv::card {

// A number as the card writes points and factors: 4, 2.5, 0.125.
std::string number(double v);

// "file.cu: wrong (kernel K, blocks of 8 threads scanning 8 elements, inclusive scan)"
std::string headline(const cuda::CheckReport& r);
// "cases: 240 run (sizes, ...): 200 correct, 40 wrong, 0 faulted"
std::string cases_line(const cuda::CheckReport& r);
// "wrong: n = 9 (2 blocks), integers, schedule in-order, warp 1: output[3] = ..."
std::string case_line(const cuda::CheckCase& c);
// "error: out-of-bounds at line 12: ..." (or "warning: ...")
std::string error_line(const cuda::CheckError& e);
// "hazard: RAW on XY[1] (shared memory) in step 0: thread 0 wrote it (line 9), thread 1 read it (line 9) ..."
std::string hazard_line(const cuda::CheckHazard& h);
// "why (line 9): ..."
std::string why_line(const cuda::CheckError& d);
// "work and steps at n = 8: 17 operations, 4 steps; matches X's closed forms" (empty when not measured)
std::string work_line(const cuda::CheckReport& r);

}  // namespace sv::card
