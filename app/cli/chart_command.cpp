// `scanviz chart` (chart_command.hpp; app/chart.hpp draws the charts): the work-steps and float-error charts as CSV, SVG or PNG.
#include "cli/chart_command.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "algorithms.hpp"
#include "chart.hpp"
#include "cli/output_options.hpp"
#include "core/files.hpp"
#include "core/float_inputs.hpp"
#include "core/values.hpp"
#include "float_error_runs.hpp"
#include "work_steps_runs.hpp"
#ifdef SCANVIZ_HAVE_GUI
#include "gui/draw/render.hpp"
#endif

namespace sv::cli {

namespace {

// A chart's data as CSV, or its charts as SVG or PNG.
void write_charts(const std::string& out, const std::string& format, const std::string& csv,
                  const std::function<std::vector<chart::Chart>()>& charts) {
  if (format == "csv") {
    write_file_atomically(out, csv);
  } else if (format == "svg") {
    write_file_atomically(out, chart::charts_svg(charts(), 1000, 380));
  } else {
#ifdef SCANVIZ_HAVE_GUI
    gui::render_charts_png(charts(), out, 1000, 380);
#else
    throw UsageError("--out FILE.png needs the GUI libraries, which this build lacks; use .svg or .csv");
#endif
  }
}

struct ChartOptions {
  std::string kind, out, format, algos;
  std::int64_t depth_n = 1024;
  bool log_steps = false;
  std::string type = "float", input = "uniform";  // chart floats
  std::uint64_t seed = 1;
};

// scanviz chart floats: the largest and mean ULP error against n, each race-free algorithm and the loop.
int cmd_float_chart(const ChartOptions& o, const std::string& format, const std::vector<std::string>& only) {
  const auto type = parse_type_name(o.type);
  if (!type || (*type != ValueType::F32 && *type != ValueType::F64))
    throw UsageError("--type: the float chart sums float or double, not '" + o.type + "'");
  if (!is_float_input_name(o.input))
    throw UsageError("--input: '" + o.input + "' is not a float input (" + std::string(float_input_names_text()) + ")");
  if (o.seed == 0) throw UsageError("--seed must be at least 1");
  const auto points = measure_float_errors(*type, o.input, o.seed, default_float_error_sizes(), only);
  const std::string what = o.type + " inclusive sum, input " + o.input + (o.input == "uniform" ? " seed " + std::to_string(o.seed) : "");
  write_charts(o.out, format, float_error_csv(points), [&] { return chart::float_error_charts(points, what); });
  messages_for(o.out) << "wrote " << output_name(o.out) << ": " << points.size() << " measured points\n";
  return 0;
}

int write_chart(const ChartOptions& o) {
  if (o.kind != "work-steps" && o.kind != "floats") throw UsageError("chart: unknown chart '" + o.kind + "' (work-steps, floats)");
  const std::string format = output_format(o.out, o.format, {"csv", "svg", "png"});
  refuse_binary_on_terminal("--out", o.out, format);
  const std::vector<std::string> only = comma_list(o.algos);
  for (const std::string& name : only)  // before the measurement: the algorithms it records
    if (const AlgorithmInfo* info = find_algorithm(name); !info || info->racy)
      throw UsageError("--algos: '" + name + "' is not a race-free block algorithm (scanviz algos lists them)");
  if (o.kind == "floats") return cmd_float_chart(o, format, only);
  if (o.depth_n < 2 || o.depth_n > 2048 || (o.depth_n & (o.depth_n - 1)) != 0)
    throw UsageError("--n must be a power of two from 2 to 2048 (the work-depth chart's n)");
  auto points = measure_work_steps();
  if (!only.empty())
    std::erase_if(points, [&](const WorkStepsPoint& p) { return std::find(only.begin(), only.end(), p.algorithm) == only.end(); });
  write_charts(o.out, format, work_steps_csv(points), [&] { return chart::work_steps_charts(points, o.depth_n, only, o.log_steps); });
  messages_for(o.out) << "wrote " << output_name(o.out) << ": " << points.size() << " measured points\n";
  return 0;
}

}  // namespace

Command add_chart(CLI::App& app) {
  auto o = std::make_shared<ChartOptions>();
  auto* chart_cmd = app.add_subcommand("chart", "charts from traces: work-steps (steps and operations against n, work-depth), "
                                                "floats (the largest and mean error in ULPs against n)");
  chart_cmd->add_option("KIND", o->kind, "work-steps or floats")->required();
  chart_cmd->add_option("--out", o->out, "FILE.csv, FILE.svg or FILE.png; - for standard output (with --format)")->required();
  chart_cmd->add_option("--format", o->format, "csv, svg or png (default: by the --out name)");
  chart_cmd->add_option("--n", o->depth_n, "n of the work-depth chart (default 1024)");
  chart_cmd->add_option("--algos", o->algos, "comma-separated algorithms to plot (default: every race-free one)");
  chart_cmd->add_option("--type", o->type, "floats: float (default) or double");
  chart_cmd->add_option("--input", o->input, "floats: uniform (default), scaled, mixed or cancel");
  chart_cmd->add_option("--seed", o->seed, "floats: the seed of the uniform input (default 1)");
  chart_cmd->add_flag("--log", o->log_steps, "the steps chart on a log2 axis (deep networks do not flatten the others)");
  return {chart_cmd, [o] { return write_chart(*o); }};
}

}  // namespace sv::cli
