// What the GUI tests share: a temporary folder, settings of their own, scanviz run under Xvfb, a
// screenshot of the window, pixel counts, the layout report after a few frames.
#pragma once

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../tests/image.hpp"
#include "bench_result.hpp"
#include "trace/trace_json.hpp"

namespace gui_test {

namespace fs = std::filesystem;
using sv_test::Image;
using sv_test::load_png;
using sv_test::near;

struct Dir {
  fs::path path = fs::temp_directory_path() / ("scanviz-gui-" + std::to_string(::getpid()));
  Dir() { fs::create_directories(path); }
  ~Dir() { fs::remove_all(path); }
};

// Settings of our own, so what the user saved in ~/.config/scanviz does not change the pictures.
inline const std::string& config_env() {
  static const std::string env = [] {
    const fs::path dir = fs::temp_directory_path() / ("scanviz-gui-config-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    return "XDG_CONFIG_HOME='" + dir.string() + "' ";
  }();
  return env;
}

// Runs scanviz under Xvfb (a fresh virtual display each time); returns scanviz's exit code. The code
// is scanviz's own, written by a script that xvfb-run runs: xvfb-run exits 5 of its own when it
// cannot remove its temporary folder, as happens when the program exits before the server is up.
inline int run_under_xvfb(const std::string& args, std::string* out = nullptr) {
  const std::string stem = (fs::temp_directory_path() / ("scanviz-gui-" + std::to_string(::getpid()))).string();
  const fs::path log = stem + "-out", script = stem + "-run.sh", code = stem + "-code";
  std::ofstream(script) << "'" SCANVIZ_EXE "' " << args << "\necho $? >'" << code.string() << "'\n";
  fs::remove(code);
  const std::string cmd = config_env() + "xvfb-run -a -s '-screen 0 1920x1080x24' sh '" + script.string() + "' >'" +
                          log.string() + "' 2>&1";
  const int status = std::system(cmd.c_str());
  std::ifstream f(log);
  std::string text, line;
  while (std::getline(f, line))
    if (line != "xvfb-run: error: problem while cleaning up temporary directory") text += line + "\n";
  if (out) *out = text;
  int exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (std::ifstream c(code); c) c >> exit_code;
  for (const fs::path& p : {log, script, code}) fs::remove(p);
  return exit_code;
}

inline sv::Trace saved(const sv::Trace& t, const fs::path& path) {
  sv::save_trace(path, t);
  return t;
}

// A screenshot of the window after four frames with `args`.
inline Image screenshot(const std::string& args, const fs::path& png, const std::string& env = config_env(),
                 const std::string& size = "1200x700") {
  const std::string cmd = env + " xvfb-run -a -s '-screen 0 1920x1080x24' '" SCANVIZ_EXE "' gui --frames 4 --size " + size + " " + args +
                          " --screenshot '" + png.string() + "' >/dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  return load_png(png);
}
inline int count_near(const Image& img, std::uint32_t color, int x0, int x1, int tolerance = 6, int y0 = 0, int y1 = 1 << 30) {
  int n = 0;
  for (int y = std::max(0, y0); y < std::min(img.h, y1); ++y)
    for (int x = std::max(0, x0); x < std::min(img.w, x1); ++x) n += near(img.at(x, y), color, tolerance);
  return n;
}

// The window's layout report (gui --report-layout) after six frames at 1200x700 with `args`.
inline nlohmann::json layout_after(const std::string& args, const fs::path& dir) {
  const fs::path report = dir / "layout.json";
  fs::remove(report);
  REQUIRE(run_under_xvfb("gui --frames 6 --size 1200x700 --report-layout '" + report.string() + "' " + args) == 0);
  std::ifstream in(report);
  return nlohmann::json::parse(in);
}

// The colour runs along one pixel row between x0 and x1: each run of pixels near one of `colors`
// (by index), other pixels separating runs.
inline std::vector<int> color_runs(const Image& img, int y, const std::vector<std::uint32_t>& colors) {
  std::vector<int> runs;
  int last = -1;
  for (int x = 0; x < img.w; ++x) {
    int which = -1;
    for (std::size_t c = 0; c < colors.size(); ++c)
      if (near(img.at(x, y), colors[c], 4)) which = static_cast<int>(c);
    if (which >= 0 && which != last) runs.push_back(which);
    last = which;
  }
  return runs;
}

// A table as `scanviz bench` writes it on an H200: the copy and CUB at five sizes.
inline sv::BenchResult copy_and_cub_table() {
  sv::BenchResult r;
  r.device = "NVIDIA H200";
  r.runs = 20;
  for (int k = 20; k <= 28; k += 2) {
    const double n = static_cast<double>(1 << k);
    r.rows.push_back({"copy", 1 << k, n / 500e9 * 1e3, 500e9, 4000e9, 100, 1.4, true});
    r.rows.push_back({"cub", 1 << k, n / 380e9 * 1e3, 380e9, 3040e9, 76, 1.0, true});
  }
  return r;
}

}  // namespace gui_test
