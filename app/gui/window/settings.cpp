// The window's settings file: read at start, written when the window closes.
#include "gui/window/settings.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/files.hpp"
#include "gui/options.hpp"

namespace sv::gui {

namespace fs = std::filesystem;

namespace {

fs::path settings_path() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return fs::path(xdg) / "scanviz" / "settings.json";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".config" / "scanviz" / "settings.json";
  return {};
}

}  // namespace

Settings load_settings() {
  Settings s;
  const fs::path p = settings_path();
  std::ifstream in(p);
  if (!in) return s;
  const auto j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_object()) return s;
  // A theme name this version does not know keeps the default.
  if (j.contains("theme") && j["theme"].is_string() && is_theme(j["theme"].get<std::string>())) s.theme = j["theme"].get<std::string>();
  if (j.contains("font_scale") && j["font_scale"].is_number()) s.font_scale = std::clamp(j["font_scale"].get<float>(), 1.0f, 3.0f);
  if (j.contains("speed") && j["speed"].is_number()) s.speed = std::clamp(j["speed"].get<float>(), 0.25f, 8.0f);
  return s;
}

void save_settings(const Settings& s) {
  const fs::path p = settings_path();
  if (p.empty()) return;
  std::error_code ec;
  fs::create_directories(p.parent_path(), ec);
  const nlohmann::json j = {{"theme", s.theme}, {"font_scale", s.font_scale}, {"speed", s.speed}};
  try {
    write_file_atomically(p, j.dump(2) + "\n");
  } catch (const std::exception&) {  // settings are a convenience: an unwritable home keeps the defaults
  }
}

}  // namespace sv::gui
