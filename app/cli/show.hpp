// `scanviz show`: a trace's steps printed like the slides (docs/cli.md).
#pragma once

#include "cli/command.hpp"

namespace sv::cli {

Command add_show(CLI::App& app);

}  // namespace sv::cli
