// Running scanviz as a user does, from a shell in a folder of its own: exit code, stdout and stderr
// apart. Needs SCANVIZ_EXE (the built program) defined by the test target.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace sv_test {

namespace fs = std::filesystem;

struct Run {
  int code = -1;  // the exit code; -1 for a death by a signal
  std::string out, err;
};

inline std::string slurp(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// Runs the shell `command` in `dir` with stdin from /dev/null, capturing what the whole command writes.
inline Run run_shell(const std::string& command, const fs::path& dir) {
  const fs::path out = dir / "stdout.txt", err = dir / "stderr.txt";
  const std::string cmd = "cd '" + dir.string() + "' && { " + command + "\n} >'" + out.string() + "' 2>'" + err.string() +
                          "' </dev/null";
  const int status = std::system(cmd.c_str());
  Run r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  fs::remove(out);
  fs::remove(err);
  return r;
}

// The program, quoted for a shell command.
inline std::string scanviz_exe() { return "'" SCANVIZ_EXE "'"; }

// Runs scanviz with `args` (shell words) in `dir`.
inline Run scanviz(const std::string& args, const fs::path& dir) { return run_shell(scanviz_exe() + " " + args, dir); }

// A fresh folder under the system's temporary one, removed with everything in it.
struct TempDir {
  fs::path path;
  TempDir() {
    static int serial = 0;
    path = fs::temp_directory_path() / ("scanviz-test-" + std::to_string(::getpid()) + "-" + std::to_string(serial++));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(path)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
};

inline int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace sv_test
