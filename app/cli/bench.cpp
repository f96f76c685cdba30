// `scanviz bench` (bench.hpp).
#include "cli/bench.hpp"

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "cli/output_options.hpp"
#include "core/files.hpp"
#include "core/values.hpp"
#include "gpu/bench.hpp"
#include "gpu/executor.hpp"
#include "run_flags.hpp"

namespace sv::cli {

namespace {

struct BenchFlags {
  std::string sizes, json, algorithms, type = "int32";
  int runs = 20, rounds = 3;
};

int time_scans(const std::string& sizes, int runs, int rounds, const std::string& json_path, const std::string& algorithms,
              const std::string& type) {
  BenchOptions options;
  const auto parsed_type = parse_type_name(type);
  if (!parsed_type || *parsed_type == ValueType::Interval)
    throw UsageError("--type: '" + type + "' is not a type bench times (int32, int64, float or double)");
  options.type = *parsed_type;
  if (!sizes.empty()) options.sizes = cli::parse_sizes(sizes, 30);
  if (runs < 1) throw UsageError("--runs must be at least 1");
  options.runs = runs;
  if (rounds < 1 || rounds > 100) throw UsageError("--rounds must be from 1 to 100");
  options.rounds = rounds;
  options.algorithms = comma_list(algorithms);
  check_bench_options(options);  // before the device: a bad name is reported the same with or without one
  const GpuStatus gpu = probe_gpu();
  if (!gpu.usable) throw UsageError("bench needs a usable CUDA device (" + gpu.error + ")");
  const BenchResult r = run_bench(options, [](const std::string& line) { std::cerr << line << "\n"; });
  std::FILE* table = stream_named(json_path) == 1 ? stderr : stdout;  // --json -: the JSON alone on stdout
  std::fputs(bench_table_text(r).c_str(), table);
  if (!json_path.empty()) write_file_atomically(json_path, bench_to_json(r));
  for (const BenchRow& row : r.rows)
    if (!row.verified) return 1;
  return 0;
}

}  // namespace

Command add_bench(CLI::App& app) {
  auto o = std::make_shared<BenchFlags>();
  auto* bench = app.add_subcommand("bench", "GPU: time device-wide scans and block-level kernels against CUB and a copy");
  bench->add_option("--sizes", o->sizes, "comma-separated sizes, e.g. 2^20,2^24 (default 2^10..2^28, even powers)");
  bench->add_option("--type", o->type, "the sum's type: int32 (default), int64, float or double");
  bench->add_option("--runs", o->runs, "timed single launches a round (default 20; the round's median is its latency)");
  bench->add_option("--rounds", o->rounds, "rounds of both measures, for the spread min/median/max (default 3)");
  bench->add_option("--json", o->json, "also write the table as JSON to FILE (-: standard output, the table then on stderr)");
  bench->add_option("--algorithms", o->algorithms,
                    "comma-separated algorithms to time, e.g. decoupled-lookback,warp-raking: device-wide ones, and "
                    "block-level ones as 'block NAME' (each block scans its own tile of 1024; default all race-free "
                    "ones; CUB and the copy always run)");
  return {bench, [o] { return time_scans(o->sizes, o->runs, o->rounds, o->json, o->algorithms, o->type); }};
}

}  // namespace sv::cli
