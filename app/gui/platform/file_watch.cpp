// The poll of a followed file (file_watch.hpp).
#include "gui/platform/file_watch.hpp"

#include <utility>

namespace sv::gui {

void watch_file(FileWatch& w, const Platform& platform, std::string path, double now) {
  w.path = std::move(path);
  w.stamp = platform.file_stamp(w.path);
  w.next_poll = now + kFileWatchSeconds;
}

bool file_changed(FileWatch& w, const Platform& platform, double now, bool force) {
  if (w.path.empty() || (!force && now < w.next_poll)) return false;
  w.next_poll = now + kFileWatchSeconds;
  const std::optional<FileStamp> stamp = platform.file_stamp(w.path);
  if (!stamp || stamp == w.stamp) return false;
  w.stamp = stamp;
  return true;
}

}  // namespace sv::gui
