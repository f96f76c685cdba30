// Follows a file the reader edits in another program (a kernel opened with `scanviz gui --kernel`):
// its stamp (gui::Platform::file_stamp: modification time and size) is polled at most every
// kFileWatchSeconds, so a save shows within a second, with no inotify or other file-system events
// (which the page does not have, and which editors that save by renaming confuse).
#pragma once

#include <optional>
#include <string>

#include "gui/platform/platform.hpp"

namespace sv::gui {

inline constexpr double kFileWatchSeconds = 0.25;

struct FileWatch {
  std::string path;                // "" watches nothing
  std::optional<FileStamp> stamp;  // as last seen
  double next_poll = 0;            // when to look again (seconds, the caller's clock)
};

// Starts watching `path` from its stamp now.
void watch_file(FileWatch& w, const Platform& platform, std::string path, double now);

// True once each time the file's stamp changed since it was last seen: when the poll is due at
// `now` (or `force`d). A file that cannot be stat'ed (removed, or being replaced) is not a change:
// it is looked at again at the next poll.
bool file_changed(FileWatch& w, const Platform& platform, double now, bool force = false);

}  // namespace sv::gui
