// `scanviz gui`: the window (what scanviz with no subcommand opens), its options checked in one place
// (docs/cli.md). Built with the window's libraries only.
#pragma once

#include "cli/command.hpp"

namespace sv::cli {

Command add_gui(CLI::App& app);

}  // namespace sv::cli
