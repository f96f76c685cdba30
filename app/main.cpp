// scanviz: the command line (docs/cli.md). Each subcommand is a file of its own in cli/; this
// registers them, runs the one given, and says its errors in one line on stderr with exit code 2
// (1 when a kernel fails inside the emulator or a bench row is wrong). With no subcommand it opens
// the window, or in a build without one prints the terminal demo.
#include <CLI/CLI.hpp>

#include <iostream>
#include <vector>

#include "cli/algos.hpp"
#include "cli/bench.hpp"
#include "cli/chart_command.hpp"
#include "cli/check.hpp"
#include "cli/demo.hpp"
#include "cli/export.hpp"
#include "cli/lesson.hpp"
#include "cli/race.hpp"
#include "cli/repeat.hpp"
#include "cli/show.hpp"
#include "cli/stats.hpp"
#include "cli/trace.hpp"
#include "emulator/block_emulator.hpp"
#include "run_flags.hpp"
#include "standard_output.hpp"
#ifdef SCANVIZ_HAVE_GUI
#include "cli/gui.hpp"
#include "cli/render.hpp"
#endif

namespace {

using namespace sv;

// The command line's work; main adds the check of standard output.
int run_command_line(int argc, char** argv) {
  CLI::App app{"scanviz: GPU parallel prefix sum (scan), made visible"};
  app.require_subcommand(0, 1);
  // In the order `scanviz --help` lists them.
  std::vector<cli::Command> commands = {cli::add_algos(app),  cli::add_demo(app),   cli::add_trace(app),
                                        cli::add_check(app),  cli::add_export(app), cli::add_lesson(app),
                                        cli::add_race(app),   cli::add_repeat(app), cli::add_bench(app),
                                        cli::add_chart(app)};
  cli::Command fallback{nullptr, cli::run_demo};  // no subcommand: the window, or the demo without one
#ifdef SCANVIZ_HAVE_GUI
  fallback = cli::add_gui(app);
  commands.push_back(fallback);
  commands.push_back(cli::add_render(app));
#endif
  commands.push_back(cli::add_show(app));
  commands.push_back(cli::add_stats(app));

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "scanviz: " << e.what() << " (scanviz --help for usage)\n";
    return 2;
  }

  try {
    for (const cli::Command& c : commands)
      if (*c.app) return c.run();
    return fallback.run();
  } catch (const EmulationError& e) {
    std::cerr << "scanviz: the kernel failed in the emulator: " << e.what() << "\n";
    return 1;
  } catch (const RequestError& e) {  // a run request's field, said as its flag
    std::cerr << "scanviz: " << cli::flag_text(e) << "\n";
    return 2;
  } catch (const std::exception& e) {  // bad arguments (UsageError, invalid_argument) and files (TraceError)
    std::cerr << "scanviz: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

int main(int argc, char** argv) {
  sv::ignore_sigpipe();
  const int code = run_command_line(argc, argv);
  return code == 0 ? sv::checked_stdout(code) : code;
}
