// The window's settings kept between runs (theme, font scale, playing speed), in
// $XDG_CONFIG_HOME/scanviz/settings.json (else ~/.config/scanviz/settings.json): read only from a
// regular file, written only over one.
#pragma once

#include <string>

namespace sv::gui {

// The fastest the timeline plays: a cell that changes at each step then changes at most three times
// a second, under WCAG's three flashes a second.
inline constexpr float kMaxSpeed = 3.0f;

struct Settings {
  std::string theme = "light";
  float font_scale = 1.0f;
  float speed = 1.0f;  // steps per second when playing, at most kMaxSpeed
};

// The saved settings, or the defaults; a value this version does not know keeps the default. A
// settings file that cannot be used (a FIFO, a directory, an unreadable or malformed file) is never
// waited on; `problem` gets one line for the status line.
Settings load_settings(std::string& problem);

// Saves them where they are read from; what is there and is not a regular file (a device, a FIFO, a
// directory) is left alone. Settings are a convenience: a failure keeps the defaults next time.
void save_settings(const Settings& s);

}  // namespace sv::gui
