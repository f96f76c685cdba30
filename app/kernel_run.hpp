// A kernel of the user's own as a run: its source read from a file (within the front end's limit),
// and a run request (run/request.hpp) as the kernel's run, for `scanviz trace --kernel`, the window
// and the page alike.
#pragma once

#include <optional>
#include <string>

#include "cuda_subset/record_kernel.hpp"
#include "emulator/block_emulator.hpp"
#include "run/request.hpp"

namespace sv {

// The kernel's text, refused past the front end's size limit without reading on (a FIFO or /dev/zero
// must not fill the memory). Throws std::invalid_argument naming the path.
std::string read_kernel_source(const std::string& path);

// A field of the request a kernel of your own cannot honour: `key` as the request names it ("algo",
// "flags", "executor"...), the `value` refused where the key alone does not say it ("gpu", "max"),
// and why. Each view says it its own way: "--kernel with --executor gpu: WHY", or a link's key.
struct KernelRefusal {
  std::string key;
  std::string value;
  std::string why;
};

// The first field of `r` a kernel of your own refuses, or none: the fields only built-in algorithms
// have, where they differ from `base` (the request the kernel's run starts from: none for `trace
// --kernel`, the default lesson in the window and the page), the GPU executor and operators other
// than + and the slides' symbolic one. The one list `trace --kernel`, `gui --kernel` and the page's
// kernel links refuse from.
std::optional<KernelRefusal> kernel_refusal(const RunRequest& r, const RunRequest& base = {});

// The refusal as the command line says it: "--kernel with --KEY VALUE: WHY".
std::string kernel_refusal_line(const KernelRefusal& no);

// The request (its fields already checked by set_field) as a run of the kernel `source`, named
// `file` in messages: n, block, warp, operator (sum, or interval for the slides' symbolic values),
// exclusive, input, seed and schedule. The fields only built-in algorithms have are refused, naming
// the field as a flag (std::invalid_argument); the kernel's own errors are cuda::KernelError.
cuda::KernelRunConfig kernel_run_config(const std::string& file, std::string source, const RunRequest& request);

// The one line a kernel's fault ends in: FILE:LINE:COL: error: ... (the emulator's own faults name
// only the line).
std::string kernel_fault_line(const EmulationError& e, const std::string& file);

}  // namespace sv
