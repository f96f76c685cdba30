// Test helpers for the look-back view: a preset's lesson recorded as the view records it.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "gui/lesson/lookback_lesson.hpp"

namespace gui_test {

inline sv::gui::LookbackUi recorded_lookback(const std::string& preset) {
  sv::gui::LookbackUi ui;
  REQUIRE(sv::gui::lookback_preset(preset, ui.lesson));
  ui.preset = preset;
  sv::gui::record_lookback(ui);
  REQUIRE(ui.error.empty());
  return ui;
}

}  // namespace gui_test
