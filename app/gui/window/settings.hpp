// The window's settings kept between runs (theme, font scale, playing speed), in
// $XDG_CONFIG_HOME/scanviz/settings.json (else ~/.config/scanviz/settings.json).
#pragma once

#include <string>

namespace sv::gui {

struct Settings {
  std::string theme = "light";
  float font_scale = 1.0f;
  float speed = 1.0f;  // steps per second when playing
};

// The saved settings; a missing or unreadable file, or a value this version does not know, keeps the default.
Settings load_settings();
// Writes them; an unwritable home keeps the defaults (settings are a convenience).
void save_settings(const Settings& s);

}  // namespace sv::gui
