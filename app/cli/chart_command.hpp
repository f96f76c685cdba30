// `scanviz chart`: work-steps (steps and operations against n, work-depth) and floats (the largest
// and mean error in ULPs against n), as CSV, SVG or PNG (docs/cli.md).
#pragma once

#include "cli/command.hpp"

namespace sv::cli {

Command add_chart(CLI::App& app);

}  // namespace sv::cli
