// `scanviz stats` (stats.hpp).
#include "cli/stats.hpp"

#include <iostream>
#include <memory>
#include <string>

#include "text_view.hpp"
#include "trace/trace_json.hpp"

namespace sv::cli {

namespace {
struct StatsFlags {
  std::string file;
  bool json = false;
};
}  // namespace

Command add_stats(CLI::App& app) {
  auto o = std::make_shared<StatsFlags>();
  auto* stats = app.add_subcommand("stats", "steps, operations, hazards and correctness of a trace");
  stats->add_option("FILE", o->file, "trace file (- for standard input)")->required();
  stats->add_flag("--json", o->json, "print one JSON object");
  return {stats, [o] {
    const Trace t = load_trace(o->file);
    if (o->json) std::cout << stats_json(t).dump(2) << "\n";
    else print_stats(std::cout, t);
    return 0;
  }};
}

}  // namespace sv::cli
