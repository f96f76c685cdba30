// Writing a whole file so that a failure never leaves a half-written one behind.
#pragma once

#include <filesystem>
#include <string_view>

namespace sv {

// Writes `text` to PATH.tmp, then renames it over PATH; on any failure removes the temporary file
// and throws std::runtime_error("cannot write PATH: reason").
void write_file_atomically(const std::filesystem::path& path, std::string_view text);

}  // namespace sv
