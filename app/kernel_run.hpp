// A kernel of the user's own from a file: its source and its includes read (within the front end's
// limit), and its refusals and faults as the command line says them. The run itself is
// entry/own_run.hpp's, for the command line, the window and the page alike.
#pragma once

#include <optional>
#include <string>

#include "cuda_subset/record_kernel.hpp"
#include "emulator/block_emulator.hpp"
#include "entry/own_run.hpp"
#include "run/request.hpp"

namespace sv {

// The kernel's text, refused past the front end's size limit without reading on (a FIFO or /dev/zero
// must not fill the memory). Throws std::invalid_argument naming the path.
std::string read_kernel_source(const std::string& path);

// Reads the files a kernel #includes ("local.h") from the folder of the kernel at `path`, each within
// the same size limit.
cuda::IncludeReader kernel_include_reader(const std::string& path);

// The refusal as the command line says it: "--kernel with --KEY VALUE: WHY".
std::string kernel_refusal_line(const KernelRefusal& no);

// The one line a kernel's fault ends in: FILE:LINE:COL: error: ... (the emulator's own faults name
// only the line).
std::string kernel_fault_line(const EmulationError& e, const std::string& file);

}  // namespace sv
