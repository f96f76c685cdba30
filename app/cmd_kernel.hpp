// The commands for a kernel of the user's own: `scanviz trace --kernel FILE.cu` and
// `scanviz check FILE.cu` (docs/cli.md).
#pragma once

#include <optional>

namespace sv {

// Runs the command when argv is one of them (trace with --kernel, or check) and returns its exit
// code; nothing otherwise.
std::optional<int> run_kernel_command(int argc, char** argv);

}  // namespace sv
