// The look-back view's window: the controls, the time slider, and one scene per run, stacked, with
// the tile under the mouse described and selected on a click.
#include "gui/panels/lookback_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "algorithms.hpp"
#include "analysis/analysis.hpp"
#include "core/values.hpp"
#include "embedded.hpp"
#include "gui/draw/text_colours.hpp"
#include "gui/draw/canvas.hpp"
#include "gui/draw/lookback_draw.hpp"
#include "gui/model/pipeline_scene.hpp"

namespace sv::gui {

namespace {

// The tile under the mouse in the descriptor table, or -1.
std::int64_t hit_tile(const LookbackScene& s, const LookbackRun& r, ImVec2 origin) {
  const ImVec2 m = ImGui::GetIO().MousePos;
  const float x = m.x - origin.x - s.table_x, y = m.y - origin.y - s.flag_y;
  if (x < 0 || y < 0 || y > 3 * s.row_h || s.cell_w <= 0) return -1;
  const auto t = static_cast<std::int64_t>(x / s.cell_w);
  return t < r.tiles ? t : -1;
}

void tile_tooltip(const LookbackRun& r, std::int64_t tile, std::uint64_t time) {
  const auto states = descriptors_at(r, time);
  const DescriptorState& d = states[static_cast<std::size_t>(tile)];
  const ValueType type = r.trace.meta.type;
  ImGui::BeginTooltip();
  ImGui::Text("tile %lld: flag %s, aggregate %s, inclusive prefix %s", static_cast<long long>(tile),
              std::string(tile_flag_name(d.flag)).c_str(), d.aggregate ? format_value(type, *d.aggregate).c_str() : "-",
              d.inclusive ? format_value(type, *d.inclusive).c_str() : "-");
  for (const bool inclusive : {false, true}) {
    const auto& v = inclusive ? d.inclusive : d.aggregate;
    if (v && descriptor_value_wrong(r, tile, inclusive, *v))
      ImGui::TextColored(bad_text(), "wrong %s: %s, the reference's is %s",
                         inclusive ? "inclusive prefix" : "aggregate", format_value(type, *v).c_str(),
                         format_value(type, (inclusive ? r.expected_inclusive : r.expected_aggregate)[static_cast<std::size_t>(tile)]).c_str());
  }
  const char* life[] = {"not started", "running", "waiting", "done"};
  ImGui::Text("%s", life[static_cast<int>(d.life)]);
  if (d.life == TileLife::Waiting && d.waiting_for >= 0) {
    ImGui::SameLine();
    ImGui::Text("for tile %lld", static_cast<long long>(d.waiting_for));
  }
  for (const TileInspection& i : inspections_until(r, tile, time)) {
    if (i.stale) ImGui::PushStyleColor(ImGuiCol_Text, bad_text());
    ImGui::TextUnformatted(describe_inspection(r.trace, tile, i).c_str());
    if (i.stale) ImGui::PopStyleColor();
  }
  ImGui::TextDisabled("click to select: arrows show what it inspected");
  ImGui::EndTooltip();
}

void pipeline_tooltip(const PipelineTile& t) {
  ImGui::BeginTooltip();
  ImGui::Text("tile %lld, block %u on SM %u, the block's tile %d (look-back warp %d, store group %d)",
              static_cast<long long>(t.tile), t.block, static_cast<unsigned>(t.sm), t.index, t.index % 2, t.index % 4);
  const std::int64_t at[] = {t.taken, t.landed, t.aggregate, t.inclusive, t.end};
  for (int p = 0; p < kPipePhases; ++p)
    if (at[p] >= 0 && at[p + 1] >= at[p])
      ImGui::Text("%-15s %8.2f us", pipe_phase_name(static_cast<PipePhase>(p)), static_cast<double>(at[p + 1] - at[p]) / 1000);
  if (t.held >= 0 && t.store >= t.held)
    ImGui::Text("held in registers %.2f us before its prefix came", static_cast<double>(t.store - t.held) / 1000);
  if (!t.waits.empty()) ImGui::Text("%zu blocked look-back polls", t.waits.size());
  ImGui::EndTooltip();
}

// The pipelined kernel's lanes under its run's scene: which blocks, and the scene.
void pipeline_panel(LookbackUi& ui, const LookbackRun& r, const LookbackPalette& pal, const std::string& theme, float width,
                    std::uint64_t span) {
  const PipelineRun& run = r.pipeline;
  const int blocks = static_cast<int>(run.blocks.size());
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  ImGui::SliderInt("first block##pipe", &ui.pipe_first_block, 0, std::max(blocks - 1, 0), "%d", ImGuiSliderFlags_AlwaysClamp);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("the first of the blocks (one a multiprocessor) whose warp roles are drawn");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  ImGui::SliderInt("blocks shown##pipe", &ui.pipe_blocks, 1, std::max(std::min(blocks, 8), 1), "%d", ImGuiSliderFlags_AlwaysClamp);
  PipelineSceneOptions o;
  o.width = width;
  o.em = ImGui::GetFontSize();
  o.t_end = span;
  o.selected = ui.selected;
  o.first_block = ui.pipe_first_block;
  o.blocks = ui.pipe_blocks;
  // Rebuilt only when what it shows changed, as the runs' scenes are.
  const std::string key = std::to_string(ui.time) + "|" + std::to_string(ui.selected) + "|" + std::to_string(width) + "|" +
                          std::to_string(o.em) + "|" + theme + "|" + std::to_string(ui.generation) + "|" +
                          std::to_string(o.first_block) + "|" + std::to_string(o.blocks) + "|" + std::to_string(span);
  if (ui.pipeline.key != key) {
    ui.pipeline.scene = build_pipeline_scene(run, ui.time, pal, o);
    ui.pipeline.key = key;
  }
  const LookbackScene& scene = ui.pipeline.scene;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  add_solid_rect(ImGui::GetWindowDrawList(), origin, ImVec2(origin.x + scene.width, origin.y + scene.height), pal.background);
  draw_lookback_scene(scene, origin.x, origin.y);
  ImGui::InvisibleButton("##pipeline scene", ImVec2(std::max(scene.width, 1.0f), std::max(scene.height, 1.0f)));
  if (!ImGui::IsItemHovered()) return;
  const ImVec2 m = ImGui::GetIO().MousePos;
  for (auto it = scene.rects.rbegin(); it != scene.rects.rend(); ++it) {
    if (it->tile < 0 || m.x < origin.x + it->x || m.x > origin.x + it->x + it->w || m.y < origin.y + it->y ||
        m.y > origin.y + it->y + it->h)
      continue;
    pipeline_tooltip(run.tiles[static_cast<std::size_t>(it->tile)]);
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) ui.selected = it->tile;
    break;
  }
}

}  // namespace

void lookback_window_contents(LookbackUi& ui, const std::string& theme, double now_seconds, GlPictures* pictures) {
  LookbackLesson& l = ui.lesson;
  bool changed = false;
  const auto& presets = lookback_preset_names();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
  if (ImGui::BeginCombo("preset", ui.preset.empty() ? "(changed)" : ui.preset.c_str())) {
    for (const std::string& p : presets)
      if (ImGui::Selectable(p.c_str(), p == ui.preset)) {
        lookback_preset(p, l);
        ui.preset = p;
        ui.dirty = true;
      }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  for (const DeviceAlgorithmInfo* a : lookback_algorithms()) {
    if (l.twice) break;  // run twice: decoupled look-back alone
    const std::string name(a->name);
    bool shown = !l.hidden.count(name);
    if (ImGui::Checkbox(name.c_str(), &shown)) {
      if (shown) l.hidden.erase(name);
      else l.hidden.insert(name);
      changed = true;
    }
    ImGui::SameLine();
  }
  changed |= ImGui::Checkbox("float sum", &l.floats);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("uniform random floats: the order of the additions shows in the bits");
  ImGui::SameLine();
  changed |= ImGui::Checkbox("run twice", &l.twice);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("decoupled look-back twice on one input, under other memory latencies (jitter 1 and 2):\n"
                      "the tiles whose look-back stopped at another predecessor are marked");
  if (l.floats && l.twice) {
    ImGui::SameLine();
    changed |= ImGui::Checkbox("deterministic", &l.deterministic);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("deterministic=on: each tile's prefix is the left fold of the aggregates, the same bits every run");
  }
  ImGui::NewLine();
  const float w = ImGui::GetFontSize() * 7;
  ImGui::SetNextItemWidth(w);
  changed |= ImGui::SliderInt("tiles", &l.tiles, 1, 10000, "%d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w);
  changed |= ImGui::SliderInt("window", &l.window, 1, 32, "%d", ImGuiSliderFlags_AlwaysClamp);
  ImGui::SameLine();
  changed |= ImGui::Checkbox("static tile ids", &l.static_ids);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w);
  const char* launches[] = {"in-order launch", "reverse launch", "random launch"};
  changed |= ImGui::Combo("##launch", &l.launch, launches, 3);
  ImGui::SameLine();
  changed |= ImGui::Checkbox("fence off", &l.fence_off);
  ImGui::SameLine();
  changed |= ImGui::Checkbox("64-bit values", &l.wide);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("flag and value in separate words, stored value, fence, flag (as the paper's descriptor)");
  if (l.wide && !l.fence_off) {
    ImGui::SameLine();
    changed |= ImGui::Checkbox("torn reads", &l.torn);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("flag and value in one 16-byte word, as the GPU packs them, read as two 8-byte halves:\n"
                        "a reader can see the new flag with the old value (the GPU kernels assume it never does)");
  }
  changed |= ImGui::Checkbox("stall tile", &l.stall);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w * 0.6f);
  changed |= ImGui::InputInt("##stall tile", &l.stall_tile, 0);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w);
  changed |= ImGui::SliderInt("cycles", &l.stall_cycles, 100, 200000, "%d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w * 0.8f);
  changed |= ImGui::SliderInt("SMs", &l.sms, 1, 132, "%d", ImGuiSliderFlags_AlwaysClamp);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w * 0.8f);
  changed |= ImGui::SliderInt("resident", &l.resident, 1, 16, "%d", ImGuiSliderFlags_AlwaysClamp);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w * 0.8f);
  changed |= ImGui::InputInt("seed", &l.input_seed, 0);
  l.stall_tile = std::clamp(l.stall_tile, 0, std::max(0, l.tiles - 1));
  if (!l.extra_stalls.empty()) {
    ImGui::SameLine();
    ImGui::TextDisabled("more stalls: %s", l.extra_stalls.c_str());
  }
  if (changed) {
    ui.preset.clear();
    l.input.clear();  // a preset's input fits its own tile count only
    l.example.clear();  // the controls record on the emulator
    ui.dirty = true;
  }
  if (ui.dirty) record_lookback(ui);
  if (!l.example.empty()) {
    ImGui::TextColored(note_text(), "Showing a trace recorded on a GPU; the controls above record on the emulator.");
    const std::string_view story = embedded_file("narration/pipelined.txt");
    if (!story.empty()) ImGui::TextWrapped("%.*s", static_cast<int>(story.size()), story.data());
  }
  if (ui.preset.rfind("file ", 0) == 0)
    ImGui::TextColored(note_text(), "Showing the trace %s; the controls above record on the emulator.",
                       ui.preset.c_str() + 5);

  // Time: the slider runs over the longest run; every run shares the axis.
  std::uint64_t t_min = UINT64_MAX, span = 1;
  for (const LookbackRun& r : ui.runs) {
    t_min = std::min(t_min, r.t0);
    span = std::max(span, r.t1 - r.t0);
  }
  if (ui.runs.empty()) t_min = 0;
  if (ui.playing) {
    const double axis = ui.speed * static_cast<double>(span);  // of the axis a second
    if (!ui.jumps) {
      ui.time += static_cast<std::uint64_t>(std::max(0.0, now_seconds - ui.last_now) * axis);
    } else if (now_seconds >= ui.next_jump) {  // less motion: a second's worth at once, no sweep
      if (ui.next_jump > 0) ui.time += static_cast<std::uint64_t>(axis);
      ui.next_jump = now_seconds + 1;
    }
    if (ui.time >= t_min + span) ui.time = t_min + span, ui.playing = false;
  }
  ui.last_now = now_seconds;
  if (!ui.playing) ui.next_jump = 0;
  if (ImGui::Button(ui.playing ? "pause##lb" : "play##lb")) lookback_key(ui, LookbackKey::PlayPause);
  ImGui::SameLine();
  // Previous and next: the nearest moment any tile event of any run happened.
  if (ImGui::ArrowButton("##prev event", ImGuiDir_Left)) lookback_key(ui, LookbackKey::Previous);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("the previous tile event (left arrow)");
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next event", ImGuiDir_Right)) lookback_key(ui, LookbackKey::Next);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("the next tile event (right arrow)");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 16);
  const std::uint64_t lo = t_min, hi = t_min + span;
  ImGui::SliderScalar("##time", ImGuiDataType_U64, &ui.time, &lo, &hi, "time %llu");
  ImGui::SameLine();
  ImGui::Text("recorded in %.1f ms", ui.record_ms);
  if (!ui.error.empty()) ImGui::TextColored(bad_text(), "%s", ui.error.c_str());
  if (ui.run_to_run) ImGui::TextWrapped("%s", describe_run_to_run(*ui.run_to_run, l.floats && l.deterministic).c_str());

  const LookbackPalette& pal = lookback_palette(theme);
  ImGui::BeginChild("##lookback scenes", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  const float width = ImGui::GetContentRegionAvail().x;
  for (std::size_t k = 0; k < ui.runs.size(); ++k) {
    const LookbackRun& r = ui.runs[k];
    std::string outcome(outcome_name(r.outcome));
    if (r.outcome != Outcome::Correct) std::transform(outcome.begin(), outcome.end(), outcome.begin(), ::toupper);
    char title[512];
    const std::string name = ui.run_to_run ? r.trace.meta.algorithm + ", run " + std::to_string(k + 1) : r.trace.meta.algorithm;
    std::snprintf(title, sizeof title, "%s: %lld tiles, result %s; %lld inspections, %lld stale reads, %lld tiles waited%s",
                  name.c_str(), static_cast<long long>(r.tiles), outcome.c_str(),
                  static_cast<long long>(r.summary.inspections), static_cast<long long>(r.summary.stale_reads),
                  static_cast<long long>(r.summary.waited_tiles),
                  r.derived_descriptors ? " (no descriptors: the tile sums and their scan shown as A and P)" : "");
    if (r.folded) {
      const std::size_t len = std::strlen(title);
      std::snprintf(title + len, sizeof title - len, "; %.3f ms between launches (the tracer's copies) folded", static_cast<double>(r.folded) / 1e6);
    }
    SceneOptions so;
    so.width = width;
    so.em = ImGui::GetFontSize();
    so.t_end = span;
    so.selected = ui.selected;
    so.title = title;
    so.legend = k == 0;
    if (ui.run_to_run) {
      so.marked = ui.run_to_run->moved;
      so.marked_label = "look-back stopped at another predecessor than in the other run";
      so.lanes = false;
    }
    // The scene is rebuilt only when what it shows changed (time, selection, size, theme, runs).
    if (ui.scenes.size() != ui.runs.size()) ui.scenes.assign(ui.runs.size(), {});
    LookbackUi::CachedScene& cached = ui.scenes[k];
    const LookbackScene& scene = cached.scene;
    const std::string now_key = std::to_string(ui.time) + "|" + std::to_string(ui.selected) + "|" + std::to_string(width) + "|" +
                                std::to_string(so.em) + "|" + theme + "|" + std::to_string(ui.generation) + "|" + title;
    if (cached.key != now_key) {
      cached.scene = build_lookback_scene(r, ui.time, pal, so);
      cached.lanes = pictures ? lane_picture(cached.scene, pal.background) : LanePicture{};
      cached.build = ++ui.scene_builds;
      cached.key = now_key;
    }
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    add_solid_rect(dl, origin, ImVec2(origin.x + scene.width, origin.y + scene.height), pal.background);
    const LanePicture& lanes = cached.lanes;
    const bool picture = pictures && lanes.w > 0;
    if (picture)
      pictures->add(dl, k, cached.build, lanes.w, lanes.h, lanes.rgba.data(),
                    ImVec2(origin.x + static_cast<float>(lanes.x), origin.y + static_cast<float>(lanes.y)));
    draw_lookback_scene(scene, origin.x, origin.y, picture);
    ImGui::InvisibleButton(("##scene" + std::to_string(k)).c_str(), ImVec2(std::max(scene.width, 1.0f), std::max(scene.height, 1.0f)));
    if (ImGui::IsItemHovered()) {
      const std::int64_t t = hit_tile(scene, r, origin);
      if (t >= 0) {
        tile_tooltip(r, t, ui.time);
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) ui.selected = t;
      }
    }
    if (!r.pipeline.tiles.empty()) pipeline_panel(ui, r, pal, theme, width, span);
  }
  ImGui::EndChild();
}

}  // namespace sv::gui
