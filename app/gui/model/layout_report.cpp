// The layout report as JSON.
#include "gui/model/layout_report.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace sv::gui {

namespace {

nlohmann::json rect_json(const LaidRect& r) { return {{"x", r.x}, {"y", r.y}, {"w", r.w}, {"h", r.h}}; }

// Drawn text that runs past its cell (or is not drawn at all where there is a value).
bool clipped(const LaidCell& c) {
  return (!c.value.empty() && c.text.empty()) || c.text_w > c.rect.w || c.text_px > c.rect.h;
}

}  // namespace

std::string layout_report_json(const LayoutReport& r) {
  nlohmann::json chrome = nlohmann::json::object();
  for (const auto& [name, rect] : r.chrome) chrome[name] = rect_json(rect);
  nlohmann::json texts = nlohmann::json::object();
  for (const auto& [name, text] : r.texts) texts[name] = text;
  nlohmann::json canvases = nlohmann::json::array();
  for (const CanvasLayout& c : r.canvases) {
    nlohmann::json cells = nlohmann::json::array(), labels = nlohmann::json::array(), legend = nlohmann::json::array();
    for (const LaidCell& cell : c.cells) {
      nlohmann::json j = rect_json(cell.rect);
      j["row"] = cell.row;
      j["col"] = cell.column;
      j["band"] = cell.band;
      j["value"] = cell.value;
      j["text"] = cell.text;
      j["text_px"] = cell.text_px;
      j["text_w"] = cell.text_w;
      j["clipped"] = clipped(cell);
      j["race"] = cell.race;
      j["wrong"] = cell.wrong;
      cells.push_back(std::move(j));
    }
    for (const LaidLabel& l : c.labels) {
      nlohmann::json j = rect_json(l.rect);
      j["row"] = l.row;
      j["band"] = l.band;
      j["text"] = l.text;
      j["text_px"] = l.text_px;
      labels.push_back(std::move(j));
    }
    for (const LegendEntry& e : c.legend) {
      char color[10];
      std::snprintf(color, sizeof color, "#%06X", static_cast<unsigned>(e.rgba >> 8));
      nlohmann::json j = rect_json(e.rect);
      j["color"] = color;
      j["range"] = e.range;
      j["mark"] = e.mark;
      legend.push_back(std::move(j));
    }
    canvases.push_back({{"name", c.name}, {"area", rect_json(c.area)}, {"cells_area", rect_json(c.cells_area)},
                        {"bands", c.bands}, {"min_text_px", c.min_text_px}, {"heat", c.heat}, {"legend_area", rect_json(c.legend_area)}, {"cells", cells},
                        {"labels", labels}, {"legend", legend}});
  }
  const nlohmann::json j = {{"window", {{"w", r.window_w}, {"h", r.window_h}}},
                            {"font_scale", r.font_scale},
                            {"chrome_scale", r.chrome_scale},
                            {"lecture", r.lecture},
                            {"chrome", chrome},
                            {"tooltip", r.tooltip},
                            {"status", r.status},
                            {"texts", texts},
                            {"canvases", canvases}};
  return j.dump(1) + "\n";
}

}  // namespace sv::gui
