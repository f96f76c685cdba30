// Reading a whole file; writing a whole output so that a failure never leaves a half-written file
// behind, and so that a path which is not a regular file (/dev/null, a FIFO, standard output) is
// written, never replaced.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace sv {

// The whole of PATH ("-": standard input) as bytes, at most `limit` of them (core/limits.hpp);
// `what` names the kind of file in the refusal ("a trace"). Throws std::runtime_error with the
// reason alone, for the caller to put after the file's name: "cannot open: No such file or
// directory", "is a directory", "larger than 256 MiB, the limit for a trace". A FIFO or a pipe is
// read as a stream: it waits for its writer, as cat does; /dev/zero stops at the limit.
std::string read_whole_file(const std::filesystem::path& path, std::uint64_t limit, std::string_view what);

// The same for a file that must be a regular one (the window's settings): never waits on a FIFO or a
// device, and refuses them ("is not a regular file").
std::string read_regular_file(const std::filesystem::path& path, std::uint64_t limit, std::string_view what);

// "-" as a FILE argument: standard output for an output, standard input for an input.
inline bool is_standard_stream(const std::filesystem::path& path) { return path.native() == "-"; }

// The descriptor of a stream the process already has open that PATH names: 1 for "-" and
// /dev/stdout, 2 for /dev/stderr, N for /dev/fd/N and /proc/self/fd/N.
std::optional<int> stream_named(const std::filesystem::path& path);

// PATH as messages name it ("standard output" for "-").
inline std::string output_name(const std::filesystem::path& path) {
  return is_standard_stream(path) ? "standard output" : path.string();
}

// Writes `bytes` to PATH, by what PATH is:
// - "-", /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: that already open stream, directly;
// - a character device or FIFO: opened and written directly; a socket: connected to and written;
// - a symbolic link: followed to its target, which is written as below (the link stays a link);
// - a regular file or a new name: a temporary file in the same folder, fsync, rename over PATH (a
//   replaced file keeps its permission bits);
// - a directory or a block device: refused.
// Nothing that is not a regular file is ever renamed over or removed. Throws
// std::runtime_error("cannot write PATH: reason") with no temporary file left; a pipe without a
// reader is the error "Broken pipe", not a SIGPIPE.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

// The same for binary data (PNG, GIF).
inline void write_file_atomically(const std::filesystem::path& path, std::span<const unsigned char> bytes) {
  write_file_atomically(path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace sv
