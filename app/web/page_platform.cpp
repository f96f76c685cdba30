// The web page's Platform, on the browser calls of web/browser.hpp and web/download.hpp.
#include "web/page_platform.hpp"

#include <filesystem>
#include <system_error>

#include "web/download.hpp"
#include "web/url_options.hpp"

namespace sv::web {

void PagePlatform::end_frame(const std::function<std::optional<gui::GuiOptions>()>& shown) {
  if (const std::optional<gui::GuiOptions> options = shown()) set_page_query(address_.tail(link_query(*options), *options));
  wait_for_next_frame();
}

std::string PagePlatform::hand_over(const std::string& path) {
  download_file(path);  // the page writes to memory: the browser saves the file
  return "downloaded " + std::filesystem::path(path).filename().string();
}

void PagePlatform::dropped_file_read(const std::string& path) {
  std::error_code ignored;
  std::filesystem::remove(path, ignored);  // the page's in-memory copy of the user's file: read, so freed
}

// A trace file's page keeps the link that opened it (its trace= is a URL the window no longer has).
// A kernel too long for a link is not copied: the reader is told to send the file instead.
std::string PagePlatform::copy_link(const std::optional<gui::GuiOptions>& shown) {
  const std::string tail = shown ? address_.tail(link_query(*shown), *shown) : page_query() + page_fragment();
  if (shown && !address_.refused().empty()) return address_.refused();
  copy_page_link(tail);
  return {};
}

}  // namespace sv::web
