// Writing a whole file so that a failure never leaves a half-written one behind.
#include "core/files.hpp"

#include <cerrno>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

namespace sv {

void write_file_atomically(const std::filesystem::path& path, std::string_view text) {
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  std::error_code ec;
  {
    errno = 0;
    std::ofstream f(tmp, std::ios::binary);
    f.write(text.data(), static_cast<std::streamsize>(text.size()));
    f.close();
    if (!f) ec = errno ? std::error_code(errno, std::generic_category()) : std::make_error_code(std::errc::io_error);
  }
  if (!ec) std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw std::runtime_error("cannot write " + path.string() + ": " + ec.message());
  }
}

}  // namespace sv
