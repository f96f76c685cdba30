// The commands for a kernel of the user's own: `scanviz trace --kernel FILE.cu` (one more kind of
// trace run) and `scanviz check FILE.cu` (docs/cli.md).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "grade/check_options.hpp"
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

// `check`'s subcommand, filling its options (grade/check_options.hpp).
CLI::App* add_check_command(CLI::App& app, CheckOptions& o);

// One file: prints its report card, graded, and returns its exit code (grade/graded_check.hpp); a class
// (several files, or a folder): grades each in a process of its own (grade/class_run.hpp). A source
// that cannot be read, a bad rubric or bad options are one line and 2.
int check_kernel(const CheckOptions& o);

}  // namespace sv
