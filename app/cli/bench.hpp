// `scanviz bench`: device-wide scans and block-level kernels timed on the GPU against CUB and a copy
// (docs/cli.md, docs/performance.md).
#pragma once

#include "cli/command.hpp"

namespace sv::cli {

Command add_bench(CLI::App& app);

}  // namespace sv::cli
