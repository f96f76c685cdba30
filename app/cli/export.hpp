// `scanviz export`: a trace in another program's format (docs/cli.md). Today one format,
// chrome-trace, the Chrome Trace Event Format that Perfetto and chrome://tracing open.
#pragma once

#include "cli/command.hpp"

namespace sv::cli {

Command add_export(CLI::App& app);

}  // namespace sv::cli
