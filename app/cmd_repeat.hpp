// `scanviz repeat`: one scan run several times on one input, each run's outputs compared bit for bit
// with the first run's (docs/cli.md). A float scan by decoupled look-back changes its bits from run to
// run, as each tile's look-back stops at whichever predecessor has published its prefix first; with
// --option deterministic=on it does not. On the GPU the runs differ in how the blocks happen to be
// scheduled; on the emulator, run r is run under jitter=r+1 (a seeded latency for every round trip)
// on 16 multiprocessors of 4 blocks unless sms or resident is given, so where the look-backs stop
// changes from run to run there too.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>

#include "run_flags.hpp"

namespace sv {

struct RepeatOptions {
  cli::RunFlags flags;
  int runs = 10;
};

// The subcommand and the options it fills: main registers it and runs it, one line each.
struct RepeatCommand {
  CLI::App* app = nullptr;
  std::shared_ptr<RepeatOptions> options;

  // Runs and prints one line a run and a summary; 0. Bad options throw RequestError or
  // std::invalid_argument (one line from main), GpuError where the GPU fails.
  int run() const;
};

RepeatCommand add_repeat_command(CLI::App& app);

}  // namespace sv
