// The diagram as a standalone SVG document (vector export for slides): drawn from the same model the
// window's shaders draw (gui/model/diagram_model.hpp), with the legend's entries under the cells.
#pragma once

#include <string>
#include <vector>

#include "gui/draw/legend.hpp"
#include "gui/model/diagram_model.hpp"

namespace sv::gui {

// The legend's entries go under the cells where `legend` is given.
std::string diagram_svg(const Diagram& d, const Palette& palette, const std::string& title,
                        const std::vector<LegendItem>* legend = nullptr);

}  // namespace sv::gui
