// `scanviz render` (render.hpp).
#include "cli/render.hpp"

#include <memory>
#include <string>
#include <vector>

#include "cli/output_options.hpp"
#include "core/files.hpp"
#include "gui/options.hpp"
#include "gui/draw/render.hpp"
#include "trace/trace_json.hpp"

namespace sv::cli {

namespace {
struct RenderFlags {
  std::string file, out;
  gui::RenderOptions options;
};
}  // namespace

Command add_render(CLI::App& app) {
  auto o = std::make_shared<RenderFlags>();
  const std::vector<std::string> themes(gui::kThemes.begin(), gui::kThemes.end());
  auto* render = app.add_subcommand("render", "draw a trace's step to PNG (offscreen OpenGL) or SVG, or every step to GIF");
  render->add_option("FILE", o->file, "trace file (- for standard input)")->required();
  render->add_option("--step", o->options.step, "the step to draw (default: the last)");
  render->add_option("--out", o->out, "FILE.png or FILE.svg (one step), FILE.gif (every step); - for standard output (with --format)")
      ->required();
  render->add_option("--format", o->options.format, "png, svg or gif (default: by the --out name)");
  render->add_option("--delay", o->options.gif_delay_cs, "GIF: hundredths of a second per step (default 100)");
  render->add_option("--theme", o->options.theme, "light (default), dark or high-contrast")
      ->check(CLI::IsMember(themes));
  render->add_option("--scale", o->options.font_scale, "1 to 3: size of cells and text");
  render->add_flag("--lookback", o->options.lookback, "a device-wide trace's look-back view (descriptors, arrows, SM lanes) instead of the diagram");
  render->add_option("--time", o->options.time, "with --lookback: the moment to draw (default: the middle of the run)");
  render->add_option("--select", o->options.select, "with --lookback: the tile whose inspections get arrows");
  return {render, [o] {
    if (!(o->options.font_scale >= 1 && o->options.font_scale <= 3)) throw UsageError("--scale must be between 1 and 3");
    if (o->options.gif_delay_cs < 1 || o->options.gif_delay_cs > 6000) throw UsageError("--delay must be 1 to 6000 (hundredths of a second)");
    o->options.format = output_format(o->out, o->options.format, {"png", "svg", "gif"});
    refuse_binary_on_terminal("--out", o->out, o->options.format);
    gui::render_to_file(load_trace(o->file), o->out, o->options);
    messages_for(o->out) << "wrote " << output_name(o->out) << "\n";
    return 0;
  }};
}

}  // namespace sv::cli
