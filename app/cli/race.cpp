// `scanviz race` (race.hpp).
#include "cli/race.hpp"

#include <iostream>
#include <memory>
#include <string>

#include "cli/trace.hpp"
#include "core/values.hpp"
#include "gpu/executor.hpp"
#include "run/prepare.hpp"

namespace sv::cli {

namespace {

// Counts wrong outputs over repeated untraced GPU runs, without and with the race amplifier.
int count_wrong(const TraceOptions& o, const RunRequest& request) {
  const BlockRunConfig config = run_config(request);
  if (o.runs < 1) throw UsageError("--runs must be at least 1");
  const GpuStatus gpu = probe_gpu();
  if (!gpu.usable) throw UsageError("race needs a CUDA device (" + gpu.error + ")");
  std::cout << config.algorithm << ", n = " << config.n << ", " << op_name(config.op) << " (" << type_name(config.type)
            << "), untraced on " << gpu.name << ", " << o.runs << " runs each\n";
  for (std::uint64_t seed : {std::uint64_t{0}, request.amplify ? request.amplify : std::uint64_t{1}}) {
    const WrongCount c = count_wrong_outputs_gpu(config, o.runs, seed);
    std::cout << (seed ? "amplifier on (seed " + std::to_string(seed) + "+run)" : std::string("amplifier off")) << ": "
              << c.wrong << " of " << c.runs << " outputs wrong (" << 100.0 * c.wrong / c.runs
              << "%), median kernel time " << c.median_kernel_us << " us\n";
  }
  return 0;
}

}  // namespace

Command add_race(CLI::App& app) {
  auto o = std::make_shared<TraceOptions>();
  auto* race = app.add_subcommand("race", "GPU: count wrong outputs over repeated untraced runs, without and with the amplifier");
  add_run_flags(*race, o->flags, {
      {"algo", "algorithm (default kogge-stone-racy)"},
      {"n", "number of elements (default 1024)"},
      {"op", "operator (default sum)"},
      {"type", "value type"},
      {"amplify", "amplifier seed (default 1)"},
      {"seed", "seed of the random input"},
  });
  race->add_option("--runs", o->runs, "runs in each mode (default 1000)");
  return {race, [o, race] {
    RunRequest defaults;
    defaults.algorithm = "kogge-stone-racy";
    defaults.n = 1024;
    return count_wrong(*o, request_of(*race, o->flags, defaults));
  }};
}

}  // namespace sv::cli
