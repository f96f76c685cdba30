// The commands for a kernel of the user's own: `scanviz trace --kernel FILE.cu` (one more kind of
// trace run) and `scanviz check FILE.cu` (docs/cli.md).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "run/request.hpp"

namespace sv {

// Records the kernel in `file` on the emulator, run as `request` says (its n, block, warp, operator,
// type, exclusive, input, seed and schedule; the fields only built-in algorithms have are refused),
// and writes the trace to `out`. Returns the exit code: 0 written, 2 a kernel outside the subset or a
// request it cannot run, 1 a fault of the kernel as it runs; one line on standard error for each.
// The kernel's path is not a request field: the request is also the page's links and a trace's meta,
// which have no file system to read a kernel from.
// `grid`: the launch's blocks (0: as many as n needs), run one after another (docs/cli.md).
int trace_kernel(const std::string& file, const RunRequest& request, const std::string& out, std::int32_t grid = 0);

// `check`'s options, and the subcommand that fills them.
struct CheckOptions {
  std::string kernel;
  std::int32_t block = 0;
  bool exclusive = false, json = false, gpu = false;
  std::string launch;  // NAME<<<GRID, BLOCK, SHARED_BYTES>>>(ARGS), run/launch.hpp
  std::string sizes;   // the cases' sizes, "1,7,1024,2^12"
};
CLI::App* add_check_command(CLI::App& app, CheckOptions& o);

// Prints the report card and returns its exit code (check_report.hpp); a source that cannot be read
// is one line and 2.
int check_kernel(const CheckOptions& o);

}  // namespace sv
