// `scanviz algos`: the algorithms, their switches, the operators and schedules (docs/cli.md).
#pragma once

#include "cli/command.hpp"

namespace sv::cli {

Command add_algos(CLI::App& app);

}  // namespace sv::cli
