// `scanviz stats`: a trace's steps, operations, hazards and correctness, as text or JSON (docs/cli.md).
#pragma once

#include "cli/command.hpp"

namespace sv::cli {

Command add_stats(CLI::App& app);

}  // namespace sv::cli
