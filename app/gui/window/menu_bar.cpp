// The menu bar: File (open, save, export, and the page's link), View (themes, font scale, the views'
// switches) and the status line; and opening a file, from the menu or dropped on the window.
#include "gui/window/menu_bar.hpp"

#include <imgui.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_result.hpp"
#include "core/files.hpp"
#include "core/limits.hpp"
#include "gui/draw/text_colours.hpp"
#include "gui/draw/render.hpp"
#include "gui/platform/dropped_files.hpp"
#include "gui/window/class_panel.hpp"
#include "gui/window/kernel_window.hpp"
#include "kernel_run.hpp"
#include "trace/trace_json.hpp"

namespace sv::gui {

namespace fs = std::filesystem;

namespace {

// Opens a trace (into the lesson's place) or a `scanviz bench --json` table (into the timing window),
// told apart by the table's "format"; `name` is what the status line calls it. Throws what the
// readers throw, naming the problem.
void open_file(Ui& ui, const std::string& path, const std::string& name) {
  std::string text;
  try {
    text = read_whole_file(path, kMaxTraceFileBytes, "a trace or bench table");
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(name + ": " + e.what());
  }
  if (is_bench_json(text)) {
    try {
      ui.timing.table = bench_from_json(text);  // a table from another machine replaces the shown one
      ui.bench_link.clear();
    } catch (const std::exception& e) {
      throw std::runtime_error(name + ": " + e.what());
    }
    ui.show_timing = true;
    say(ui, "opened " + name + ": " + std::to_string(ui.timing.table.rows.size()) + " rows measured on " + ui.timing.table.device);
    return;
  }
  ui.recorder.cancel();  // the file, opened last, wins over a recording still on its way
  try {
    ui.lesson.view = std::make_unique<TraceView>(make_trace_view(trace_from_json(text)));
  } catch (const std::exception& e) {
    throw std::runtime_error(name + ": " + e.what());
  }
  ui.lesson.racy.reset();
  ui.lesson.ran_kernel.reset();
  ui.lesson.own_kernel.reset();
  lesson_from_trace(ui.lesson, ui.lesson.view->trace.meta);
  ui.show_lookback |= show_in_lookback(ui.lookback, ui.lesson.view->trace, name);
  ui.recorded_from_controls = false;
  set_step(ui, 0);
  say(ui, "opened " + name);
}

// A kernel of the user's own (.cu) opens in the editor and runs; natively the file is followed as it
// is saved again (the page's dropped copy is removed once read). False for any other file.
bool open_kernel_file(Ui& ui, Platform& platform, const std::string& path, const std::string& name) {
  if (fs::path(path).extension() != ".cu") return false;
  std::string text;
  try {
    text = read_kernel_source(path);
  } catch (const std::exception& e) {
    throw std::runtime_error(name + ": " + e.what());
  }
  open_kernel(ui, platform, name, std::move(text), platform.has_own_files() ? path : "", ImGui::GetTime());
  ui.kernel.show = true;
  say(ui, "opened " + name + " in the editor (K): running it");
  return true;
}

}  // namespace

void open_dropped_files(Ui& ui, Platform& platform) {
  std::vector<std::string> dropped = take_dropped_files();
  // Several kernels dropped at once are a class: listed in the class panel and graded there, each
  // opened when picked. The other files dropped with them open as one file alone does.
  std::vector<std::string> kernels;
  for (const std::string& path : dropped)
    if (fs::path(path).extension() == ".cu") kernels.push_back(path);
  if (kernels.size() > 1) {
    open_dropped_class(ui, kernels, platform.has_own_files());
    for (const std::string& path : kernels) platform.dropped_file_read(path);
    std::erase_if(dropped, [](const std::string& p) { return fs::path(p).extension() == ".cu"; });
  }
  for (const std::string& path : dropped) {
    const std::string name = fs::path(path).filename().string();
    try {
      if (!open_kernel_file(ui, platform, path, name)) open_file(ui, path, name);
    } catch (const std::exception& e) {
      say(ui, e.what(), true);
    }
    platform.dropped_file_read(path);
  }
}

namespace {

// File > Save kernel: the editor's text as it stands (typed into or not). The page downloads it
// under the kernel's name; natively it goes to the file the window follows, else to the path box's
// .cu file.
void save_kernel_item(Ui& ui, Platform& platform) {
  const KernelEditor& e = ui.kernel.editor;
  if (!ImGui::MenuItem("Save kernel", nullptr, false, !e.text.empty())) return;
  fs::path path = !platform.has_own_files() ? fs::path(e.name).filename() : !ui.kernel.watch.path.empty() ? fs::path(ui.kernel.watch.path) : fs::path(ui.path);
  if (path.extension() != ".cu") {
    if (platform.has_own_files()) throw std::runtime_error("Save kernel: type a path ending in .cu in the path box");
    path += ".cu";
  }
  write_file_atomically(path, e.text);
  say(ui, platform.hand_over(path.string()));  // the page downloads it
}

void file_menu(Ui& ui, Platform& platform) {
  if (!ImGui::BeginMenu("File")) return;
  if (platform.has_links() && ImGui::MenuItem("Copy link")) {
    if (const std::string refused = platform.copy_link(shown_options(ui)); !refused.empty()) say(ui, refused, true);
    else say(ui, "link to this step: on the clipboard, or in the box at the top");
  }
  try {
    if (!platform.has_own_files()) {
      // The page has no files of its own: the reader's come by dropping them, and what it saves is
      // downloaded, named after the lesson.
      ImGui::TextDisabled("Open: drop a trace, bench table or kernel (.cu) on the page;");
      ImGui::TextDisabled("several .cu files at once open as a class (G)");
      save_kernel_item(ui, platform);
      if (ImGui::MenuItem("Save trace", nullptr, false, ui.lesson.view != nullptr)) {
        const TraceMeta& m = ui.lesson.view->trace.meta;
        const std::string name = m.algorithm + "-n" + std::to_string(m.n) + ".json";
        save_trace(name, ui.lesson.view->trace);
        say(ui, platform.hand_over(name));
      }
    } else {
      ImGui::InputText("path", ui.path, sizeof ui.path);
      if (ImGui::MenuItem("Open trace, bench table or kernel (.cu)") && !open_kernel_file(ui, platform, ui.path, ui.path))
        open_file(ui, ui.path, ui.path);
      if (ImGui::MenuItem("Open class (a folder of .cu files, or the class CSV)")) open_class(ui, ui.path);
      save_kernel_item(ui, platform);
      if (ImGui::MenuItem("Save trace", nullptr, false, ui.lesson.view != nullptr)) {
        save_trace(ui.path, ui.lesson.view->trace);
        say(ui, std::string("saved ") + ui.path);
      }
    }
    for (const char* ext : {".png", ".svg", ".gif"}) {
      const std::string label = std::string("Export ") + (ext == std::string(".gif") ? "all steps as GIF" : std::string("step as ") + (ext + 1));
      if (ImGui::MenuItem(label.c_str(), nullptr, false, ui.lesson.view != nullptr)) {
        const std::string out = export_path(ui.lesson.view->trace, ui.step, ext, ui.path);
        RenderOptions ro;
        ro.step = ui.step;
        ro.theme = ui.settings.theme;
        render_to_file(ui.lesson.view->trace, out, ro);
        say(ui, platform.hand_over(out));  // the page writes to memory: the browser saves the file
      }
    }
  } catch (const std::exception& e) {
    say(ui, e.what(), true);
  }
  ImGui::EndMenu();
}

void view_menu(Ui& ui) {
  if (!ImGui::BeginMenu("View")) return;
  for (const char* t : kThemes)
    if (ImGui::MenuItem(t, nullptr, ui.settings.theme == t)) ui.settings.theme = t;
  // Applied when released: each change rasterizes the fonts again.
  ImGui::SliderFloat("font scale", &ui.pending_font_scale, 1.0f, 3.0f, "%.2f", ImGuiSliderFlags_AlwaysClamp);
  if (ImGui::IsItemDeactivatedAfterEdit()) ui.settings.font_scale = ui.saved_font_scale = ui.pending_font_scale;
  ImGui::MenuItem("lecture mode (L)", nullptr, &ui.lecture);
  ImGui::MenuItem("kernel source as the emulator runs it (C)", nullptr, &ui.source.emulator);
  ImGui::MenuItem("fullscreen (F)", nullptr, &ui.fullscreen);
  if (ImGui::MenuItem("fit the diagram (0)")) ui.canvas.fit = ui.canvas_racy.fit = true;
  ImGui::MenuItem("work against steps (W)", nullptr, &ui.show_charts);
  ImGui::MenuItem("GPU timing (T)", nullptr, &ui.show_timing);
  ImGui::MenuItem("look-back view (B)", nullptr, &ui.show_lookback);
  if (ImGui::MenuItem("predict the next step (P)", nullptr, &ui.predict.on)) ui.predict.focus = ui.predict.on;
  ImGui::MenuItem("warp divergence (D)", nullptr, &ui.show_divergence);
  ImGui::MenuItem("floats: same input, different bits (U)", nullptr, &ui.floats.show);
  ImGui::MenuItem("application rows: compaction, allocation (A)", nullptr, &ui.show_application);
  if (ImGui::MenuItem("your kernel: edit, run, report card (K)", nullptr, &ui.kernel.show)) ui.kernel.editor.focus = ui.kernel.show;
  if (ImGui::MenuItem("class: submissions and verdicts (G)", nullptr, &ui.submissions.show)) ui.submissions.focus = ui.submissions.show;
  ImGui::EndMenu();
}

// Until a file action has something to say, the status line tells a first-time reader the keys that
// matter first; the longest form that fits the bar (a narrow or zoomed page gets a shorter one).
void first_keys_hint(Ui& ui) {
  ImGui::Dummy(ImVec2(ImGui::GetFontSize(), 0));
  ImGui::SameLine();
  for (const char* hint : {"Space plays the steps, the arrows step, K opens the kernel editor, View > font scale enlarges the text",
                           "Space plays, the arrows step, K opens the kernel editor", "Space: play  K: editor"})
    if (ImGui::CalcTextSize(hint).x <= ImGui::GetContentRegionAvail().x) {
      ImGui::TextUnformatted(hint);
      ui.texts.emplace_back("keys_hint", hint);
      return;
    }
}

}  // namespace

float menu_bar(Ui& ui, Platform& platform) {
  float menu_h = 0;
  if (ImGui::BeginMainMenuBar()) {
    file_menu(ui, platform);
    view_menu(ui);
    if (ui.status_is_error) ImGui::TextColored(bad_text(), "%s", ui.status.c_str());
    else if (!ui.status.empty()) ImGui::TextDisabled("%s", ui.status.c_str());
    else first_keys_hint(ui);
    menu_h = ImGui::GetWindowSize().y;
    ImGui::EndMainMenuBar();
  }
  return menu_h;
}

}  // namespace sv::gui
