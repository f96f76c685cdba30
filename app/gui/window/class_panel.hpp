// The class panel (G; File > Open class; several .cu files dropped at once): the submissions of a
// class with their verdicts, graded in the background a submission at a time, and the one picked
// (a click, or Up, Down and Enter) opened as the lesson's own kernel with its report card.
#pragma once

#include <string>
#include <vector>

#include "gui/platform/platform.hpp"
#include "gui/window/tiled_panels.hpp"
#include "gui/window/window_state.hpp"

namespace sv::gui {

// Makes `list` the panel's class, shown in front, and says so in the status line.
void show_class(Ui& ui, ClassList list);

// Opens the folder or class table at `path` in the panel; a path that is neither says so in the status
// line (and the panel keeps the class it had).
void open_class(Ui& ui, const std::string& path);

// Several .cu files dropped at once become the panel's class, each read now (the page removes its
// copies once read); `follow`: an entry opened follows its file as it is saved again (natively).
void open_dropped_class(Ui& ui, const std::vector<std::string>& paths, bool follow);

// Once a frame: the next submission graded for a share of the frame (`wait`: all of them, for a
// counted run).
void take_class_grades(Ui& ui, bool wait);

// The panel, floating over the tiled panels while ui.submissions.show.
void class_window(Ui& ui, const Platform& platform, const PanelLayout& layout);

// What the panel holds, for tests (scanviz gui --report-class): the class, each entry's verdict,
// score and first finding, the entry opened.
std::string class_report(const Ui& ui);

}  // namespace sv::gui
