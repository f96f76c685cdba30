// Offscreen rendering of the diagram with the window's own drawing code: PNG, animated GIF, SVG.
#include <glad/gl.h>
// clang-format off
#include <GLFW/glfw3.h>
// clang-format on
#include <gif_lib.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <stdexcept>

#include "core/files.hpp"
#include "core/limits.hpp"
#include "core/values.hpp"
#include "gui/draw/canvas.hpp"
#include "gui/draw/glsl_version.hpp"
#include "gui/draw/diagram_svg.hpp"
#include "gui/draw/plot.hpp"
#include "gui/draw/render.hpp"
#include "gui/draw/lookback_draw.hpp"
#include "gui/model/lookback_model.hpp"
#include "gui/model/lookback_scene.hpp"
#include "gui/options.hpp"
#include "gui/platform/gl_window.hpp"

namespace sv::gui {

namespace fs = std::filesystem;

// ============================================================================================
// [SECTION] offscreen rendering
// ============================================================================================

namespace {

// An ImGui context of its own (fonts, theme, the OpenGL3 backend) drawing into a framebuffer object
// of a fixed size, with the current GL context. Each frame() builds one full-size window with
// `build` and returns its pixels, bottom-up as glReadPixels gives them.
class Offscreen {
 public:
  Offscreen(int w, int h, const std::string& theme, float font_scale) : w_(w), h_(h) {
    if (w <= 0 || h <= 0 || w > 16384 || h > 16384)
      throw std::runtime_error("the image would be " + std::to_string(w) + "x" + std::to_string(h) +
                               " pixels; images are at most 16384x16384 (try --out FILE.svg)");
    previous_ = ImGui::GetCurrentContext();
    ctx_ = ImGui::CreateContext();
    ImGui::SetCurrentContext(ctx_);
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(static_cast<float>(w), static_cast<float>(h));
    io.DeltaTime = 1.0f / 60;
    fonts_ = load_fonts(font_scale);
    apply_theme(theme, font_scale);
    ImGui_ImplOpenGL3_Init(glsl_version());  // GLSL ES 3.00 on WebGL 2
    upload_fonts();
    glGenFramebuffers(1, &fbo_);
    glGenTextures(1, &tex_);
    glBindTexture(GL_TEXTURE_2D, tex_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex_, 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
      release();
      throw std::runtime_error("cannot render offscreen (incomplete framebuffer)");
    }
  }
  ~Offscreen() { release(); }
  Offscreen(const Offscreen&) = delete;
  Offscreen& operator=(const Offscreen&) = delete;

  const Fonts& fonts() const { return fonts_; }

  const std::vector<unsigned char>& frame(const std::function<void()>& build) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0);
    ImGui::Begin("offscreen", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground);
    build();
    ImGui::End();
    ImGui::PopStyleVar(2);
    ImGui::Render();
    glViewport(0, 0, w_, h_);
    glClearColor(1, 1, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    pixels_.resize(static_cast<std::size_t>(w_) * h_ * 4);
    glReadPixels(0, 0, w_, h_, GL_RGBA, GL_UNSIGNED_BYTE, pixels_.data());
    if (glGetError() != GL_NO_ERROR) throw std::runtime_error("OpenGL error while rendering offscreen");
    return pixels_;
  }

 private:
  void release() {
    if (!ctx_) return;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo_);
    glDeleteTextures(1, &tex_);
    ImGui_ImplOpenGL3_Shutdown();
    ImGui::DestroyContext(ctx_);
    ImGui::SetCurrentContext(previous_);
    ctx_ = nullptr;
  }
  int w_, h_;
  ImGuiContext* previous_ = nullptr;
  ImGuiContext* ctx_ = nullptr;
  Fonts fonts_;
  unsigned fbo_ = 0, tex_ = 0;
  std::vector<unsigned char> pixels_;
};

// The widest picture a slide takes (a 1080p projector): wider diagrams wrap into bands.
constexpr int kSlideWidth = 1920;

// Renders `steps` into frames all the size of the largest (the last step's rows), handing each
// frame's pixels to `on_frame` as soon as it is drawn; `on_size` hears the size first.
void render_frames(const TraceView& tv, const std::vector<int>& steps, const RenderOptions& o,
                   const std::function<void(int, int)>& on_size,
                   const std::function<void(const std::vector<unsigned char>&)>& on_frame) {
  const float title_h = kRenderTitleHeight * o.font_scale;
  // The layout draw_canvas makes for this font scale (fonts are rasterized at kBaseFontPx x scale);
  // the view then draws it one to one.
  const Diagram largest = build_diagram(tv, *std::max_element(steps.begin(), steps.end()), palette_named(o.theme),
                                        DiagramLayout::scaled(o.font_scale));
  const int natural = static_cast<int>(std::ceil(largest.width));
  // A diagram wider than a slide wraps its columns into bands one under the other, as the window
  // fits it (gui/model/canvas_fit.hpp), at the full text size: a first draw on a tall canvas says how tall
  // the bands are, and the picture is made that tall.
  const bool wrap = o.width == 0 && natural > kSlideWidth;
  const int w = o.width > 0 ? o.width : std::min(natural, kSlideWidth);
  const Palette& pal = palette_named(o.theme);
  int h = static_cast<int>(std::ceil(largest.height + title_h));
  const int last_step = *std::max_element(steps.begin(), steps.end());
  if (wrap) {
    const int bands = (natural + kSlideWidth - 1) / kSlideWidth;
    Offscreen measure(w, static_cast<int>(std::ceil(title_h + 2.5f * static_cast<float>(bands) * largest.height)), o.theme,
                      o.font_scale);
    GlDiagram measure_gl;
    CanvasState cs;
    cs.record = true;
    std::vector<std::unique_ptr<CanvasDraw>> draws;
    float bottom = 0;
    for (int pass = 0; pass < 2; ++pass)  // the first draw measures the values' widths, the second fits them
      measure.frame([&] {
        const ImVec2 size(static_cast<float>(w), ImGui::GetIO().DisplaySize.y - title_h);
        draws.clear();
        draw_canvas(tv, last_step, cs, measure_gl, o.theme, draws, ImVec2(0, title_h), size, false, "##measure");
        bottom = 0;
        for (const LaidCell& c : cs.laid.cells) bottom = std::max(bottom, c.rect.y + c.rect.h);
      });
    if (bottom > title_h) h = static_cast<int>(std::ceil(bottom + largest.layout.margin));
  }
  // Taller by the legend's strip, which takes the fonts to measure: made again at the full height.
  auto screen = std::make_unique<Offscreen>(w, h, o.theme, o.font_scale);
  const float legend = legend_strip_height(tv, nullptr, pal, screen->fonts().text, kBaseFontPx * o.font_scale, static_cast<float>(w));
  if (legend > 0) {
    h += static_cast<int>(std::ceil(legend));
    screen.reset();
    screen = std::make_unique<Offscreen>(w, h, o.theme, o.font_scale);
  }
  GlDiagram gl;
  on_size(w, h);
  for (int step : steps) {
    CanvasState cs;
    cs.fit = wrap;
    cs.min_cell_w = largest.layout.cell_w;  // every frame as wide as the last step's values need
    if (o.width > 0) cs.view.scale_x = std::min(1.0f, static_cast<float>(w) / largest.width);
    std::vector<std::unique_ptr<CanvasDraw>> draws;
    on_frame(screen->frame([&] {
      const Trace& t = tv.trace;
      const std::string title = t.meta.algorithm + ", n = " + std::to_string(t.meta.n) + ", " +
                                std::string(op_name(t.meta.op)) + ": step " + std::to_string(step) + ", " + t.steps[step].label();
      ImDrawList* dl = ImGui::GetWindowDrawList();
      dl->AddRectFilled(ImVec2(0, 0), ImGui::GetIO().DisplaySize, im_color(pal.background));
      dl->AddText(ImVec2(12 * o.font_scale, 6 * o.font_scale), im_color(pal.text), title.c_str());
      draw_canvas(tv, step, cs, gl, o.theme, draws, ImVec2(0, title_h), ImVec2(static_cast<float>(w), h - title_h), false,
                  "##render");
    }));
  }
}

// An animated GIF (giflib) built in memory frame by frame, each quantized to its own 256-colour
// palette, and written whole by write_file_atomically when finished.
class GifWriter {
 public:
  GifWriter(std::string out, int delay_cs) : out_(std::move(out)), delay_cs_(delay_cs) {}
  ~GifWriter() {
    if (gif_) {
      int err = 0;
      EGifCloseFile(gif_, &err);
    }
  }
  void start(int w, int h) {
    w_ = w;
    h_ = h;
    int err = 0;
    gif_ = EGifOpen(&bytes_, append, &err);
    if (!gif_) throw std::runtime_error(std::string("cannot encode the GIF: ") + GifErrorString(err));
    EGifSetGifVersion(gif_, true);  // GIF89a: frame delays and looping
    const unsigned char loop[] = {1, 0, 0};  // NETSCAPE2.0: loop forever
    check(EGifPutScreenDesc(gif_, w, h, 8, 0, nullptr) == GIF_OK &&
          EGifPutExtensionLeader(gif_, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
          EGifPutExtensionBlock(gif_, 11, "NETSCAPE2.0") == GIF_OK && EGifPutExtensionBlock(gif_, 3, loop) == GIF_OK &&
          EGifPutExtensionTrailer(gif_) == GIF_OK);
  }
  void frame(const std::vector<unsigned char>& rgba) {
    const std::size_t n = static_cast<std::size_t>(w_) * h_;
    std::vector<GifByteType> r(n), g(n), b(n), index(n);
    for (int y = 0; y < h_; ++y)  // GL rows run bottom-up
      for (int x = 0; x < w_; ++x) {
        const std::size_t src = (static_cast<std::size_t>(h_ - 1 - y) * w_ + x) * 4, dst = static_cast<std::size_t>(y) * w_ + x;
        r[dst] = rgba[src];
        g[dst] = rgba[src + 1];
        b[dst] = rgba[src + 2];
      }
    int colors = 256;
    GifColorType palette[256];
    check(GifQuantizeBuffer(w_, h_, &colors, r.data(), g.data(), b.data(), index.data(), palette) == GIF_OK);
    ColorMapObject* map = GifMakeMapObject(256, palette);
    GraphicsControlBlock gcb{DISPOSAL_UNSPECIFIED, false, delay_cs_, NO_TRANSPARENT_COLOR};
    GifByteType ext[4];
    EGifGCBToExtension(&gcb, ext);
    bool ok = map && EGifPutExtension(gif_, GRAPHICS_EXT_FUNC_CODE, 4, ext) == GIF_OK &&
              EGifPutImageDesc(gif_, 0, 0, w_, h_, false, map) == GIF_OK;
    for (int y = 0; ok && y < h_; ++y) ok = EGifPutLine(gif_, &index[static_cast<std::size_t>(y) * w_], w_) == GIF_OK;
    if (map) GifFreeMapObject(map);
    check(ok);
  }
  void finish() {
    int err = 0;
    const bool closed = EGifCloseFile(gif_, &err) == GIF_OK;
    gif_ = nullptr;
    check(closed);
    write_file_atomically(out_, bytes_);
  }

 private:
  static int append(GifFileType* gif, const GifByteType* data, int size) {
    auto& bytes = *static_cast<std::vector<unsigned char>*>(gif->UserData);
    bytes.insert(bytes.end(), data, data + size);
    return size;
  }
  void check(bool ok) const {
    if (!ok) throw std::runtime_error("cannot encode the GIF for " + out_);
  }
  std::string out_;
  int delay_cs_;
  int w_ = 0, h_ = 0;
  GifFileType* gif_ = nullptr;
  std::vector<unsigned char> bytes_;
};

void render_with_current_gl(const TraceView& tv, int step, const std::string& out, const std::string& format,
                            const RenderOptions& o) {
  if (format == "gif") {
    std::vector<int> steps;
    for (int k = 0; k < static_cast<int>(tv.trace.snapshots.size()); ++k) steps.push_back(k);
    GifWriter gif(out, o.gif_delay_cs);
    render_frames(tv, steps, o, [&](int w, int h) { gif.start(w, h); }, [&](const auto& pixels) { gif.frame(pixels); });
    gif.finish();
    return;
  }
  int w = 0, h = 0;
  render_frames(tv, {step}, o, [&](int fw, int fh) { w = fw, h = fh; },
                [&](const auto& pixels) { write_file_atomically(out, encode_png(w, h, pixels)); });
}

}  // namespace

namespace {

// Runs `draw` with a current OpenGL 3.3 context: the caller's, or a hidden window's made for it.
void with_gl_context(const std::function<void()>& draw) {
  if (glfwGetCurrentContext()) {
    draw();
    return;
  }
  if (!display_set())
    throw std::runtime_error("no display for OpenGL: run under xvfb-run (xvfb package), or write --out FILE.svg");
  GlWindowError error = GlWindowError::None;
  GLFWwindow* window = open_gl_window(64, 64, "scanviz render", false, error);
  if (error == GlWindowError::Init) throw std::runtime_error("cannot initialize GLFW on this display");
  if (error == GlWindowError::Create) throw std::runtime_error("cannot create an OpenGL 3.3 core context");
  if (error == GlWindowError::Load) throw std::runtime_error("cannot load OpenGL functions");
  try {
    draw();
  } catch (...) {
    close_gl_window(window);
    throw;
  }
  close_gl_window(window);
}

}  // namespace

void render_charts_png(const std::vector<chart::Chart>& charts, const std::string& out, int width, int chart_height) {
  with_gl_context([&] {
    const int h = chart_height * static_cast<int>(charts.size());
    Offscreen screen(width, h, "light", 1.0f);
    auto pixels = screen.frame([&] {
      ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(0, 0), ImGui::GetIO().DisplaySize, IM_COL32_WHITE);
      for (std::size_t k = 0; k < charts.size(); ++k) {
        ImGui::SetCursorScreenPos(ImVec2(8, static_cast<float>(k * chart_height) + 6));
        svplot::Chart(("chart" + std::to_string(k)).c_str(), charts[k],
                      ImVec2(static_cast<float>(width - 16), static_cast<float>(chart_height - 12)));
      }
    });
    write_file_atomically(out, encode_png(width, h, pixels));
  });
}

namespace {

// An SVG draws every cell of every buffer (or every tile of the look-back view): refused up front
// past kMaxSvgCells, before the text takes gigabytes.
std::uint64_t svg_cells(const Trace& trace) {
  std::uint64_t cells = 0;
  for (const BufferInfo& b : trace.buffers) cells += static_cast<std::uint64_t>(b.length);
  return cells;
}
void check_svg_cells(std::uint64_t cells, const char* what) {
  if (cells > kMaxSvgCells)
    throw std::runtime_error("an SVG of this trace would draw " + std::to_string(cells) + " " + what + ", over the " +
                             std::to_string(kMaxSvgCells) + " an SVG may hold: record the trace with a smaller --n");
}

// "png", "svg" or "gif" (or what else the name ends in): the options' format, else the extension of `out`.
std::string format_of(const std::string& out, const RenderOptions& o) {
  if (!o.format.empty()) return o.format;
  const std::string ext = fs::path(out).extension().string();
  return ext.empty() ? ext : ext.substr(1);
}

// The look-back view of a device-wide trace at one moment, as PNG (the window's drawing code,
// offscreen) or SVG.
void render_lookback(const Trace& trace, const std::string& out, const RenderOptions& o) {
  if (trace.tile_events.empty())
    throw std::runtime_error("--lookback: the trace has no tile events (n = 0, or not a device-wide scan: chained, "
                             "decoupled-lookback, reduce-then-scan and hierarchical traces have them)");
  const LookbackRun run = make_lookback_run(trace);
  if (o.time >= 0 && (static_cast<std::uint64_t>(o.time) < run.t0 || static_cast<std::uint64_t>(o.time) > run.t1))
    throw std::runtime_error("--time " + std::to_string(o.time) + " is out of range (the run goes from " + std::to_string(run.t0) +
                             " to " + std::to_string(run.t1) + ")");
  if (o.select < -1 || o.select >= run.tiles)
    throw std::runtime_error("--select " + std::to_string(o.select) + " is not a tile (the run has " + std::to_string(run.tiles) + ")");
  const std::uint64_t time = o.time >= 0 ? static_cast<std::uint64_t>(o.time) : default_lookback_time(run);
  SceneOptions so;
  so.width = static_cast<float>(o.width > 0 ? o.width : 1400);
  so.em = kBaseFontPx * o.font_scale;
  so.selected = o.select;
  so.title = trace.meta.algorithm + ", n = " + std::to_string(trace.meta.n) + ", " + std::to_string(run.tiles) + " tiles, at time " +
             std::to_string(time) + (trace.meta.executor.kind == "gpu" ? " ns" : " cycles");
  const LookbackPalette& pal = lookback_palette(o.theme);
  const LookbackScene scene = build_lookback_scene(run, time, pal, so);
  const std::string format = format_of(out, o);
  if (format == "svg") {
    check_svg_cells(static_cast<std::uint64_t>(run.tiles), "tiles");
    write_file_atomically(out, lookback_scene_svg(scene, pal, so.em));
    return;
  }
  if (format != "png") throw std::runtime_error("--lookback draws one moment, as png or svg, not '" + format + "'");
  with_gl_context([&] {
    const int w = static_cast<int>(std::ceil(scene.width)), h = static_cast<int>(std::ceil(scene.height));
    Offscreen screen(w, h, o.theme, o.font_scale);
    auto pixels = screen.frame([&] {
      ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(0, 0), ImGui::GetIO().DisplaySize, im_color(pal.background));
      draw_lookback_scene(scene, 0, 0);
    });
    write_file_atomically(out, encode_png(w, h, pixels));
  });
}

}  // namespace

std::string export_path(const Trace& trace, int step, const std::string& ext, const std::string& beside) {
  const fs::path folder = fs::path(beside).parent_path();
  std::string stem = trace.meta.algorithm + "-n" + std::to_string(trace.meta.n);
  if (ext != ".gif") stem += "-step" + std::to_string(step);
  fs::path out = folder / (stem + ext);
  for (int k = 2; fs::exists(out); ++k) out = folder / (stem + "-" + std::to_string(k) + ext);
  return out.string();
}

void render_to_file(const Trace& trace, const std::string& out, const RenderOptions& o) {
  if (!is_theme(o.theme))
    throw std::runtime_error("--theme: unknown theme '" + o.theme + "' (light, dark or high-contrast)");
  if (o.lookback) {
    if (o.step != -1) throw std::runtime_error("--step goes with the diagram; the look-back view takes --time");
    if (o.time < -1) throw std::runtime_error("--time must not be negative");
    return render_lookback(trace, out, o);
  }
  if (o.time >= 0 || o.select >= 0) throw std::runtime_error("--time and --select go with --lookback");
  if (trace.steps.empty() || trace.snapshots.empty() || trace.buffers.empty())
    throw std::runtime_error("the trace has no steps or buffers to draw");
  const int last = static_cast<int>(trace.snapshots.size()) - 1;
  if (o.step < -1 || o.step > last)
    throw std::runtime_error("--step " + std::to_string(o.step) + " is out of range (the trace has steps 0.." + std::to_string(last) + ")");
  const int step = o.step < 0 ? last : o.step;
  const TraceView tv = make_trace_view(trace);
  const std::string format = format_of(out, o);
  if (format == "svg") {
    check_svg_cells(svg_cells(trace), "cells");
    const Diagram d = build_diagram(tv, step, palette_named(o.theme));
    const std::string title = trace.meta.algorithm + ", n = " + std::to_string(trace.meta.n) + ": step " +
                              std::to_string(step) + ", " + trace.steps[step].label();
    const std::vector<LegendItem> legend = legend_items(tv, nullptr, palette_named(o.theme));
    write_file_atomically(out, diagram_svg(d, palette_named(o.theme), title, &legend));
    return;
  }
  if (format != "png" && format != "gif") throw std::runtime_error("--out must end in .png, .gif or .svg, not '" + out + "'");
  with_gl_context([&] { render_with_current_gl(tv, step, out, format, o); });
}

}  // namespace sv::gui
