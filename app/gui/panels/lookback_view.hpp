// The look-back view: a device-wide scan's tiles talking to each other. A row of descriptors (flag
// X/A/P, aggregate, inclusive prefix) as they stand at a chosen time; for the selected tile, arrows
// to the predecessors it inspected and what it saw; one lane per resident slot of each SM with every
// tile's lifetime and its waiting marked. Side by side for chained, decoupled look-back and
// reduce-then-scan on the same input, with the emulator's switches as toggles and presets (the seed
// paper's Fig. 6 snapshot, the static-id deadlock, the stale read of fence=off, a stalled tile).
//
// Its parts, each plain data where it can be, so the tests check what is drawn: gui/model/lookback_model.hpp
// (the runs, descriptor states), gui/model/lookback_scene.hpp (a scene's layout, and its drawing with
// ImGui's draw list, as a picture or as SVG), gui/lesson/lookback_lesson.hpp (controls, presets, recording,
// keys). This header adds the window.
#pragma once

#include <string>

#include "gui/lesson/lookback_lesson.hpp"
#include "gui/model/lookback_model.hpp"
#include "gui/model/lookback_scene.hpp"

namespace sv::gui {

class GlPictures;
// With `pictures`, the lanes are drawn as pictures (lane_picture) kept there.
void lookback_window_contents(LookbackUi& ui, const std::string& theme, double now_seconds, GlPictures* pictures = nullptr);

}  // namespace sv::gui
