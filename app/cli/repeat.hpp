// `scanviz repeat`: one scan run several times on one input, each run's outputs compared bit for bit
// with the first run's (docs/cli.md). A float scan by decoupled look-back changes its bits from run to
// run, as each tile's look-back stops at whichever predecessor has published its prefix first; with
// --option deterministic=on it does not. On the GPU the runs differ in how the blocks happen to be
// scheduled; on the emulator, run r is run under jitter=r+1 (a seeded latency for every round trip)
// on 16 multiprocessors of 4 blocks unless sms or resident is given, so where the look-backs stop
// changes from run to run there too.
#pragma once

#include "cli/command.hpp"
#include "run_flags.hpp"

namespace sv::cli {

struct RepeatOptions {
  RunFlags flags;
  int runs = 10;
};

// Runs and prints one line a run and a summary; 0. Bad options throw RequestError or
// std::invalid_argument (one line from main), GpuError where the GPU fails.
Command add_repeat(CLI::App& app);

}  // namespace sv::cli
