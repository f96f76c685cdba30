// The window's settings file: read without blocking, checked, and saved only over a regular file.
#include "gui/window/settings.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/files.hpp"
#include "gui/options.hpp"

namespace sv::gui {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kMaxSettingsBytes = 64 * 1024;

fs::path settings_path() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return fs::path(xdg) / "scanviz" / "settings.json";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".config" / "scanviz" / "settings.json";
  return {};
}

}  // namespace

Settings load_settings(std::string& problem) {
  Settings s;
  const fs::path p = settings_path();
  struct stat st {};
  if (p.empty() || (::stat(p.c_str(), &st) != 0 && errno == ENOENT)) return s;  // none saved yet (or a link to where they will go)
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_regular_file(p, kMaxSettingsBytes, "the settings"), nullptr, false);
  } catch (const std::runtime_error& e) {
    problem = p.string() + ": " + e.what() + " (the default settings are used)";
    return s;
  }
  if (!j.is_object()) {
    problem = p.string() + ": not a JSON object (the default settings are used)";
    return s;
  }
  // A theme name this version does not know keeps the default.
  if (j.contains("theme") && j["theme"].is_string() && is_theme(j["theme"].get<std::string>())) s.theme = j["theme"].get<std::string>();
  if (j.contains("font_scale") && j["font_scale"].is_number()) s.font_scale = std::clamp(j["font_scale"].get<float>(), 1.0f, 3.0f);
  if (j.contains("speed") && j["speed"].is_number()) s.speed = std::clamp(j["speed"].get<float>(), 0.25f, kMaxSpeed);
  return s;
}

void save_settings(const Settings& s) {
  const fs::path p = settings_path();
  if (p.empty()) return;
  struct stat st {};
  if (::stat(p.c_str(), &st) == 0 ? !S_ISREG(st.st_mode) : errno != ENOENT) return;  // follows links, as the write does
  std::error_code ec;
  fs::create_directories(p.parent_path(), ec);
  const nlohmann::json j = {{"theme", s.theme}, {"font_scale", s.font_scale}, {"speed", s.speed}};
  try {
    write_file_atomically(p, j.dump(2) + "\n");
  } catch (const std::exception&) {
  }
}

}  // namespace sv::gui
