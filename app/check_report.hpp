// `scanviz check FILE.cu`: the report card of a scan kernel of the user's own (docs/cli.md).
#pragma once

#include <cstdint>
#include <string>

#include "cuda_subset/check.hpp"

namespace sv {

// Prints the report (text, or one JSON object) and returns the exit code: 0 correct, 1 wrong, 2 error.
// `gpu`: also run it on the device (check_gpu.hpp); without nvcc or a device one line says so.
int check_command(const std::string& file, const std::string& source, const cuda::CheckOptions& options, bool json, bool gpu = false);

}  // namespace sv
