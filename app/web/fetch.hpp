// Files a link names (?trace=URL, ?bench=URL), fetched into the page's in-memory file system so
// that the window opens them as it opens files natively.
#pragma once

#include <string>

namespace sv::web {

// Fetches url (absolute, or relative to the page) into `file`; returns a one-line error or "".
std::string fetch_to_file(const std::string& url, const std::string& file);

}  // namespace sv::web
