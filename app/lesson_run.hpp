// The lesson's run: what the window's lesson, the page's and `scanviz lesson` record for a request,
// so that all three show the same steps (the slides' picture: the racy kernel's threads each on their
// own, warps of 4 as Merrill and Garland's Fig. 2 draws them). No GUI here.
#pragma once

#include "run/request.hpp"

namespace sv {

// The lesson when nothing names another: kogge-stone-double-buffer on the slides' eight values under
// the interval operator, recorded on the emulator (the predicate waits for a compaction the scan
// control may choose).
RunRequest default_lesson_request();

// The options' request as the lesson takes it: without a named input, an n over the slides' eight
// takes seeded random values (the slides have eight).
void seeded_input_past_the_slides(RunRequest& r, bool input_given);

// The float lesson's named inputs (scaled, uniform, mixed, cancel) are sums of floats: where the
// options named neither an operator nor a type, the lesson's interval operator gives way to a float
// sum. The command line and the page's links both apply it.
void float_input_defaults(RunRequest& r, bool op_given, bool type_given);

// The run the lesson records for `r`, whose `warp` is the warp width of a warp-level algorithm or,
// for the others, the threads the emulator advances in lockstep: the fields its scan does not use
// left out, an unset warp resolved for the algorithm's kind (4 for a warp-level one, 1 for the racy
// kernel, a GPU's warp for the others), the executor's own fields only.
RunRequest lesson_run(RunRequest r);

}  // namespace sv
