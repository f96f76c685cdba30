// A kernel of the user's own as a run: its source read from a file (within the front end's limit),
// and a run request (run/request.hpp) as the kernel's run, for `scanviz trace --kernel`, the window
// and the page alike.
#pragma once

#include <string>

#include "cuda_subset/record_kernel.hpp"
#include "emulator/block_emulator.hpp"
#include "run/request.hpp"

namespace sv {

// The kernel's text, refused past the front end's size limit without reading on (a FIFO or /dev/zero
// must not fill the memory). Throws std::invalid_argument naming the path.
std::string read_kernel_source(const std::string& path);

// The request (its fields already checked by set_field) as a run of the kernel `source`, named
// `file` in messages: n, block, warp, operator (sum, or interval for the slides' symbolic values),
// exclusive, input, seed and schedule. The fields only built-in algorithms have are refused, naming
// the field as a flag (std::invalid_argument); the kernel's own errors are cuda::KernelError.
cuda::KernelRunConfig kernel_run_config(const std::string& file, std::string source, const RunRequest& request);

// The one line a kernel's fault ends in: FILE:LINE:COL: error: ... (the emulator's own faults name
// only the line).
std::string kernel_fault_line(const EmulationError& e, const std::string& file);

}  // namespace sv
