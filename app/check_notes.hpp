// What the report card says besides its findings, the same in `scanviz check` and the window's card.
#pragma once

#include <string>

#include "cuda_subset/check.hpp"

namespace sv {

// Why the check's block is not the file's, where a file's block macro names another size (8 threads
// against `#define BLOCK_DIM 1024`): without a launch the check sets the macro small enough to try
// every schedule and lockstep width, and a launch checks it at the file's size. "" when they agree,
// when the file has no such macro, or when a launch was given.
std::string block_note(const cuda::CheckReport& r, const std::string& source, bool launch_given);

}  // namespace sv
