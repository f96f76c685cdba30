// A kernel of the user's own in the window: the "Your kernel" panel (K; the editor and the report
// card beside it), and what feeds the lesson with such a kernel: a file opened (`scanviz gui
// --kernel`, a dropped .cu), the same file saved again in another editor, the editor's Run, a report
// card entry picked.
#pragma once

#include <string>

#include "gui/platform/platform.hpp"
#include "gui/window/tiled_panels.hpp"
#include "gui/window/window_state.hpp"

namespace sv::gui {

// Sends `k`, launched as the lesson's launch says, to be graded.
void ask_grade(Ui& ui, std::shared_ptr<const OwnKernel> k);

// Puts `text` (the file `name`) in the editor and makes it the lesson: recorded on the worker and
// graded. `follow`: the path to follow as it is saved again ("" for none).
void open_kernel(Ui& ui, const Platform& platform, const std::string& name, std::string text, const std::string& follow,
                 double now);

// Text pasted (the page's paste event, or Ctrl+V outside a text box): into the editor at its cursor
// when it has the keyboard, its first line into another text box that has it, else the editor's
// whole text, run as a file dropped on the window is. Windows' line ends become '\n'.
void paste_text(Ui& ui, const Platform& platform, std::string text, double now);

// The editor's text as the lesson: recorded on the worker, graded when it changed since the last grade.
void run_editor_kernel(Ui& ui);

// Once a frame, before a finished recording is taken: the followed file, when its poll is due (or
// `force`d) and it was saved with other text, is recorded again and graded; its step and the view
// stay. A file that does not compile keeps the last good run on screen, its error in the status line
// and at its line in the editor.
void follow_kernel_file(Ui& ui, const Platform& platform, double now, bool force);

// Once a frame, after a finished recording is swapped in: without threads, the card in progress is
// graded for a share of the frame; a finished report card is shown (`wait`: waiting for one still on
// its way, for a counted run), and the lesson's kernel error is put at its line in the editor.
void take_kernel_grade(Ui& ui, bool wait);

// The "Your kernel" panel, floating over the tiled panels while ui.kernel.show.
void kernel_window(Ui& ui, const PanelLayout& layout);

// What the panel shows, for tests (scanviz gui --report-kernel): the kernel's name, the editor's state
// (edited, error line, marked lines, the cursor's line), the lesson's kernel, then the report card's
// verdict and entries as they are listed.
std::string kernel_report(const Ui& ui);

}  // namespace sv::gui
