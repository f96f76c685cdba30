// The look-back view's text mirror (gui/model/lookback_mirror.hpp) as HTML: a heading a run, its
// descriptors as a table a tile a row, the selected tile's inspections as a list.
#pragma once

#include <string>

#include "gui/model/lookback_mirror.hpp"

namespace sv::web {

std::string lookback_html(const gui::LookbackMirror& m);

}  // namespace sv::web
