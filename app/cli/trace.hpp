// `scanviz trace`: run a scan and record its trace (docs/cli.md); its run options are shared with
// `scanviz race`.
#pragma once

#include <cstdint>
#include <string>

#include "cli/command.hpp"
#include "gpu/executor.hpp"
#include "run_flags.hpp"

namespace sv::cli {

// trace and race: the run request's flags, and what only the command line adds.
struct TraceOptions {
  RunFlags flags;
  std::string out;
  std::uint64_t trace_capacity = GpuOptions{}.trace_capacity;
  int runs = 1000;
};

Command add_trace(CLI::App& app);

}  // namespace sv::cli
