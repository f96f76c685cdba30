// The window's state between frames (the lesson shown, its step, the open views, the panels' own
// state) and the small verbs every part of the window uses on it.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpu/executor.hpp"
#include "gui/draw/canvas.hpp"
#include "gui/lesson/class_list.hpp"
#include "gui/lesson/kernel_check.hpp"
#include "gui/lesson/lesson.hpp"
#include "gui/lesson/lesson_recorder.hpp"
#include "gui/lesson/lookback_lesson.hpp"
#include "gui/model/layout_report.hpp"
#include "gui/options.hpp"
#include "gui/panels/kernel_editor.hpp"
#include "gui/panels/launch_box.hpp"
#include "gui/panels/float_panel.hpp"
#include "gui/panels/predict_panel.hpp"
#include "gui/panels/report_card.hpp"
#include "gui/panels/source_pane.hpp"
#include "gui/panels/timing_panel.hpp"
#include "gui/panels/work_steps_panel.hpp"
#include "gui/platform/file_watch.hpp"
#include "gui/window/settings.hpp"

namespace sv::gui {

// A kernel of the user's own: the "Your kernel" panel (K), its report card, the file it follows.
struct KernelUi {
  explicit KernelUi(bool threads) : checker(threads) {}
  bool show = false;
  KernelEditor editor;
  KernelChecker checker;
  std::optional<KernelGrade> grade;              // the report card shown
  std::shared_ptr<const OwnKernel> asked_grade;  // the kernel last sent to be graded
  std::string asked_launch;                      // ... and its launch
  LaunchBox launch;                              // the launch box above the editor
  ReportCardKeys card_keys;                       // the report card's entry chosen from the keyboard
  FileWatch watch;                               // the file `--kernel` opened, saved again elsewhere
  bool report = false;                           // print the panel's state after the last frame (--report-kernel)
};

// A class of submissions: the class panel (G), its list, and the grading of it, apart from the
// open kernel's own card so that each goes on while the other runs.
struct ClassUi {
  explicit ClassUi(bool threads) : checker(threads) {}
  bool show = false;
  bool focus = false;         // just opened: in front, so that the keys are its
  bool only_failing = false;  // the list shows only WRONG and ERROR
  int cursor = 0;             // the row Up, Down and Enter act on
  ClassList list;
  KernelChecker checker;
  bool report = false;        // print the panel's state after the last frame (--report-class)
};

struct Ui {
  explicit Ui(bool threads) : recorder(record_lesson_controls, threads), kernel(threads), submissions(threads) {}

  Settings settings;             // what this run shows
  float saved_font_scale = 1;    // what the settings file keeps: --font-scale lasts one run, the View menu's choice is saved
  float pending_font_scale = 1;  // the View menu's slider, applied when released
  GpuStatus gpu = probe_gpu();
  Lesson lesson;
  LessonRecorder recorder;       // a changed control's recording, made off the frame
  bool swap_to_last_step = false;  // ... replaces a trace file: show its last step
  int step_after_swap = -1;        // ... shows this step (a report card entry's), when >= 0
  int step = 0;
  bool playing = false;
  bool reduce_motion = false;  // GuiOptions::reduce_motion
  double next_advance = 0;
  bool side_by_side = false;
  bool lecture = false;
  bool fullscreen = false;
  bool need_fonts = true;
  Fonts fonts;
  CanvasState canvas, canvas_racy;
  char path[512] = "trace.json";
  std::string status;     // the menu bar's status line: what the last file action said
  bool status_is_error = false;  // ... and that it failed (drawn in the error colour)
  bool recorded_from_controls = true;
  SourcePane source;
  bool show_charts = false;
  WorkStepsPanel work_steps;
  bool show_timing = false;
  TimingPanel timing;
  std::string bench_link;  // the page: the URL of the table shown, while no other replaced it
  bool show_lookback = false;
  LookbackUi lookback;
  PredictUi predict;
  bool show_divergence = false;
  FloatUi floats;  // the float lesson's window (U)
  bool show_application = true;  // opens by itself for a compaction or an allocation
  std::vector<std::pair<std::string, LaidRect>> chrome;  // this frame's controls and panels, for the layout report
  std::string tooltip;  // the tooltip this frame shows, for the layout report
  std::vector<std::pair<std::string, std::string>> texts;  // named texts this frame drew, for the layout report
  KernelUi kernel;
  ClassUi submissions;
};

// The menu bar's status line says `text` (in the error colour when `error`).
void say(Ui& ui, std::string text, bool error = false);

// The last item's and the current ImGui window's rectangles, for the layout report.
LaidRect item_rect();
LaidRect window_rect();

// The last control's tooltip when the pointer rests on it; the control is named in the layout
// report (its rectangle), and the text shown, so tests can point at it and read what it says.
void tip(Ui& ui, const char* name, const char* text);

// Steps of the trace shown (0 without one), and going to one of them (clamped; predict mode holds
// the timeline until the step is answered).
int step_count(const Ui& ui);
void set_step(Ui& ui, int step);

// A finished recording replaces what the window shows, between frames.
void swap_in_recording(Ui& ui, LessonRecording&& r);

// The options that open the window where it is (the lesson, its step, the open views), for the
// page's address and links; nothing while the controls name no lesson a link can be sure to open
// (not yet recorded, or refused).
std::optional<GuiOptions> shown_options(const Ui& ui);

}  // namespace sv::gui
