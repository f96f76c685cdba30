// A kernel of the user's own as a run request: the fields it honours (n, block, warp, operator,
// type, exclusive, input, seed, schedule, launch) turned into the emulator's run, and the fields only
// the built-in algorithms have refused, each naming the field.
#pragma once

#include <optional>
#include <string>

#include "cuda_subset/record_kernel.hpp"
#include "run/request.hpp"

namespace sv {

struct OwnSource;

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

// The request as a run of the kernel `own`. Throws RequestError naming the field (a refused one, a
// warp, a type the kernel does not scan, an input that does not parse, a launch that cannot be read);
// the kernel's own errors are cuda::KernelError.
cuda::KernelRunConfig own_kernel_config(const RunRequest& r, const OwnSource& own);

}  // namespace sv
