// Files the window writes in the page: the browser saves them, as a download.
#pragma once

#include <string>

namespace sv::web {

// Hands the file at `path` (written to Emscripten's in-memory file system) to the browser as a
// download under its own name, then removes the in-memory copy. Throws when it cannot be read.
void download_file(const std::string& path);

}  // namespace sv::web
