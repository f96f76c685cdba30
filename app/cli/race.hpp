// `scanviz race`: wrong outputs counted over repeated untraced GPU runs, without and with the race
// amplifier (docs/cli.md).
#pragma once

#include "cli/command.hpp"

namespace sv::cli {

Command add_race(CLI::App& app);

}  // namespace sv::cli
