// Child processes and temporary folders for the GPU harnesses (app/gpu_process.hpp).
#include "gpu_process.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace sv {

namespace fs = std::filesystem;

TempFolder::TempFolder() {
  std::string pattern = (fs::temp_directory_path() / "scanviz-check-gpu-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot make a temporary folder for the GPU harness");
  path = pattern;
}
TempFolder::~TempFolder() {
  std::error_code ec;
  fs::remove_all(path, ec);
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int run_program(const std::vector<std::string>& argv, const fs::path& dir, const std::string& log, int timeout_s) {
  const pid_t child = ::fork();
  if (child < 0) return -1;
  if (child == 0) {
    if (::chdir(dir.c_str()) != 0) ::_exit(127);
    const std::string path = (dir / log).string();
    if (!std::freopen(path.c_str(), "w", stdout) || !std::freopen(path.c_str(), "a", stderr)) ::_exit(127);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  int status = 0;
  while (::waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string first_error(const std::string& log) {
  std::istringstream in(log);
  std::string first;
  for (std::string line; std::getline(in, line);) {
    if (first.empty()) first = line;
    if (line.find("error") != std::string::npos) return line;
  }
  return first;
}

}  // namespace sv
