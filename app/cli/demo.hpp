// `scanviz demo`: Kogge-Stone on the slides' input, step by step, in the terminal; what a build
// without the window runs with no subcommand.
#pragma once

#include "cli/command.hpp"

namespace sv::cli {

Command add_demo(CLI::App& app);
int run_demo();

}  // namespace sv::cli
