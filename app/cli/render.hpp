// `scanviz render`: a trace's step drawn to PNG (offscreen OpenGL) or SVG, or every step to a GIF
// (docs/cli.md). Built with the window's libraries only.
#pragma once

#include "cli/command.hpp"

namespace sv::cli {

Command add_render(CLI::App& app);

}  // namespace sv::cli
