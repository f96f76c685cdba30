// Running the GPU harnesses of `scanviz check --gpu` (app/check_gpu.*): a temporary folder of their
// own, a child process with a time limit, and what their logs say.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace sv {

// A folder of its own under the temporary directory, removed with this object.
struct TempFolder {
  std::filesystem::path path;
  TempFolder();
  ~TempFolder();
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
};

std::string read_text(const std::filesystem::path& path);

// Runs argv in `dir` with its output and errors to files there; the exit code, or -1 for a signal or
// a run past `timeout_s` (the child is killed).
int run_program(const std::vector<std::string>& argv, const std::filesystem::path& dir, const std::string& log, int timeout_s);

// The first line of a compiler's log that says "error", else its first line.
std::string first_error(const std::string& log);

}  // namespace sv
