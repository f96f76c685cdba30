// The browser side of app/web/download.hpp: a Blob of the file's bytes and a click on an
// <a download> link, which browsers take as a download to save.
#include "web/download.hpp"

#include <emscripten.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

// The page notes the last download's name and size on Module, for tests.
EM_JS(void, scanviz_download, (const char* name, const char* type, const unsigned char* bytes, int size), {
  var file = UTF8ToString(name);
  var url = URL.createObjectURL(new Blob([HEAPU8.slice(bytes, bytes + size)], {type: UTF8ToString(type)}));
  var link = document.createElement('a');
  link.href = url;
  link.download = file;
  document.body.appendChild(link);
  link.click();
  link.remove();
  Module.lastDownload = {name: file, size: size};
  // The browser reads the Blob after the click returns: it is released a while later.
  setTimeout(function() { URL.revokeObjectURL(url); }, 60000);
});

namespace sv::web {

namespace {

const char* media_type(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  if (ext == ".png") return "image/png";
  if (ext == ".gif") return "image/gif";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".cu") return "text/plain";  // a kernel (File > Save kernel): text any editor opens
  return "application/octet-stream";
}

}  // namespace

void download_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path + " to download it");
  const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  std::filesystem::remove(path);  // the page's file system is memory: the browser keeps the file now
  const std::filesystem::path p(path);
  scanviz_download(p.filename().string().c_str(), media_type(p), bytes.data(), static_cast<int>(bytes.size()));
}

}  // namespace sv::web
