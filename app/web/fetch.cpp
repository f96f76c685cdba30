// app/web/fetch.hpp through emscripten_wget_data, which waits for the download under Asyncify.
#include "web/fetch.hpp"

#include <emscripten/wget.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace sv::web {

std::string fetch_to_file(const std::string& url, const std::string& file) {
  void* data = nullptr;
  int size = 0, error = 0;
  emscripten_wget_data(url.c_str(), &data, &size, &error);
  if (error) return "cannot fetch " + url;
  if (const auto folder = std::filesystem::path(file).parent_path(); !folder.empty()) std::filesystem::create_directories(folder);
  std::ofstream out(file, std::ios::binary);
  out.write(static_cast<const char*>(data), size);
  std::free(data);
  return out ? "" : "cannot keep " + url + " in the page's memory";
}

}  // namespace sv::web
