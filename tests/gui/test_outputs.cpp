// Where render's SVG, PNG and GIF, chart's PNG, the window's screenshot and its settings go:
// devices, FIFOs, links, read-only folders and standard output, as in test_outputs.cpp; and what the
// window does with a settings file it cannot use.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <tuple>
#include <utility>

#include <nlohmann/json.hpp>

#include "output_targets.hpp"
#include "run_command.hpp"
#include "skips.hpp"

using namespace sv_test;

namespace {

// One Xvfb for all the runs of a test case: it picks a free display itself (-displayfd), where
// xvfb-run -a can race with another xvfb-run for the same one; it lets every local user draw.
class VirtualDisplay {
 public:
  VirtualDisplay() {
    int ready[2];
    REQUIRE(::pipe(ready) == 0);
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(ready[0]);
      const std::string fd = std::to_string(ready[1]);
      ::execlp("Xvfb", "Xvfb", "-displayfd", fd.c_str(), "-screen", "0", "1920x1080x24", "-nolisten", "tcp",
               static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(ready[1]);
    char c = 0;
    while (::read(ready[0], &c, 1) == 1 && c != '\n') number_ += c;
    ::close(ready[0]);
    REQUIRE_MESSAGE(!number_.empty(), "Xvfb (the xvfb package) did not start");
  }
  ~VirtualDisplay() {
    ::kill(pid_, SIGTERM);
    ::waitpid(pid_, nullptr, 0);
  }
  VirtualDisplay(const VirtualDisplay&) = delete;
  VirtualDisplay& operator=(const VirtualDisplay&) = delete;
  // What runs a command on this display.
  std::string launcher() const { return "env DISPLAY=:" + number_; }

 private:
  pid_t pid_ = -1;
  std::string number_;
};

const std::string kTrace = scanviz_exe() + " trace --algo kogge-stone-double-buffer --n 8 --op interval --out t.json >/dev/null";
const std::string kDeviceTrace =
    scanviz_exe() + " trace --algo decoupled-lookback --n 3000 --executor emulator --out d.json >/dev/null";

Writer with(Writer w, const std::string& setup, const std::string& launcher = {}) {
  w.setup = setup;
  w.launcher = launcher;
  return w;
}

}  // namespace

TEST_CASE("outputs: render writes SVG to every kind of output, with no display needed") {
  check_output_targets(with(writer("render t.json --out {out}", "svg", "--format svg"), kTrace));
  check_output_targets(with(writer("render d.json --lookback --out {out}", "svg", "--format svg"), kDeviceTrace));
}

TEST_CASE("outputs: render writes PNG and GIF to every kind of output") {
  const VirtualDisplay display;
  check_output_targets(with(writer("render t.json --step 2 --out {out}", "png", "--format png"), kTrace, display.launcher()));
  check_output_targets(with(writer("render t.json --out {out}", "gif", "--format gif"), kTrace, display.launcher()));
  check_output_targets(
      with(writer("render d.json --lookback --out {out}", "png", "--format png"), kDeviceTrace, display.launcher()));
}

TEST_CASE("outputs: chart PNG and the window's screenshot go to every kind of output") {
  const VirtualDisplay display;
  check_output_targets(with(writer("chart work-steps --n 64 --out {out}", "png", "--format png"), "", display.launcher()));
  TempDir config;  // the window's settings go here, not into the folder the test watches
  check_output_targets(with(writer("gui --frames 2 --size 400x300 --screenshot {out}", "png"), "",
                            display.launcher() + " XDG_CONFIG_HOME='" + config.path.string() + "'"));
}

TEST_CASE("outputs: PNG and GIF on a terminal are refused before anything is drawn") {
  check_binary_refused_on_terminal(with(writer("render t.json --out {out}", "png", "--format png"), kTrace));
  check_binary_refused_on_terminal(with(writer("render t.json --out {out}", "gif", "--format gif"), kTrace));
  check_binary_refused_on_terminal(writer("chart work-steps --out {out}", "png", "--format png"));
  check_binary_refused_on_terminal(writer("gui --frames 2 --screenshot {out}", "png"));
}

TEST_CASE("outputs: render reads the trace from standard input with -") {
  TempDir d;
  REQUIRE(run_shell(kTrace, d.path).code == 0);
  const Run r = run_shell(scanviz_exe() + " render - --out - --format svg <t.json", d.path);
  CHECK(r.code == 0);
  CHECK(r.out.rfind("<svg ", 0) == 0);
  CHECK(r.out.find("x0..x7") != std::string::npos);
  CHECK(r.err == "wrote standard output\n");
}

TEST_CASE("outputs: the window's settings file: a link is followed, devices are written in place") {
  const VirtualDisplay display;
  TempDir config;
  const fs::path folder = config.path / "scanviz", settings = folder / "settings.json";
  fs::create_directories(folder);
  const auto window = [&](const std::string& prefix, const std::string& theme) {
    return run_shell(prefix + display.launcher() + " XDG_CONFIG_HOME='" + config.path.string() + "' " + scanviz_exe() +
                         " gui --frames 2 --size 400x300 --theme " + theme,
                     config.path);
  };
  fs::create_symlink("../kept.json", settings);
  CHECK(window("", "dark").code == 0);
  CHECK(fs::is_symlink(fs::symlink_status(settings)));
  CHECK(slurp(config.path / "kept.json").find("\"theme\": \"dark\"") != std::string::npos);

  for (const char* device : {"/dev/full", "/dev/null"}) {
    CAPTURE(device);
    fs::remove(settings);
    fs::create_symlink(device, settings);
    CHECK(window("", "light").code == 0);  // settings are a convenience: an unwritable file keeps the defaults
    struct stat st {};
    REQUIRE(::stat(device, &st) == 0);
    CHECK(S_ISCHR(st.st_mode));
  }
}

TEST_CASE("outputs: --font-scale lasts one run: the window shows it and the settings file keeps the saved scale") {
  const VirtualDisplay display;
  TempDir config;
  const fs::path folder = config.path / "scanviz", settings = folder / "settings.json", report = config.path / "layout.json";
  fs::create_directories(folder);
  std::ofstream(settings) << "{\"theme\": \"light\", \"font_scale\": 1.5, \"speed\": 1}\n";
  const Run r = run_shell(display.launcher() + " XDG_CONFIG_HOME='" + config.path.string() + "' " + scanviz_exe() +
                              " gui --frames 2 --size 400x300 --font-scale 2 --report-layout '" + report.string() + "'",
                          config.path);
  CHECK(r.code == 0);
  CHECK(nlohmann::json::parse(slurp(report)).value("font_scale", 0.0) == doctest::Approx(2.0));
  CHECK(nlohmann::json::parse(slurp(settings)).value("font_scale", 0.0) == doctest::Approx(1.5));
}

namespace {
// Root writes into a read-only folder, so as root the window runs as the user nobody, who must be
// able to run the program.
const std::string kAsUser = ::geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
bool runs_as_user() {
  return kAsUser.empty() || std::system((kAsUser + scanviz_exe() + " algos >/dev/null 2>&1").c_str()) == 0;
}
}  // namespace

TEST_CASE("outputs: the window's settings file: a read-only folder is left alone" *
          sv_test::skip_unless(runs_as_user, "running as root, and the user nobody cannot run " SCANVIZ_EXE)) {
  const VirtualDisplay display;
  TempDir config;
  const fs::path folder = config.path / "scanviz";
  fs::create_directories(folder);
  fs::permissions(folder, fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write, fs::perm_options::remove);
  CHECK(run_shell(kAsUser + display.launcher() + " XDG_CONFIG_HOME='" + config.path.string() + "' " + scanviz_exe() +
                      " gui --frames 2 --size 400x300 --theme dark",
                  config.path)
            .code == 0);
  CHECK(fs::is_empty(folder));
}

TEST_CASE("outputs: a settings file that is a FIFO, a folder or not JSON is named in the status line, ignored and left as it is") {
  const VirtualDisplay display;
  TempDir home;  // HOME, with no XDG_CONFIG_HOME: ~/.config/scanviz/settings.json
  const fs::path folder = home.path / ".config" / "scanviz", settings = folder / "settings.json";
  fs::create_directories(folder);
  const auto window = [&] {
    const fs::path report = home.path / "layout.json";
    fs::remove(report);
    // timeout: a window that waits on the FIFO would otherwise hang the suite
    const Run r = run_shell("env -u XDG_CONFIG_HOME HOME='" + home.path.string() + "' " + display.launcher() +
                                " timeout 60 " + scanviz_exe() + " gui --frames 2 --size 400x300 --theme dark --report-layout '" +
                                report.string() + "'",
                            home.path);
    const std::string text = slurp(report);
    return std::pair{r.code, text.empty() ? nlohmann::json() : nlohmann::json::parse(text)};
  };
  REQUIRE(::mkfifo(settings.c_str(), 0600) == 0);
  auto [code, report] = window();
  CHECK(code == 0);
  CHECK(report.value("status", "") == settings.string() + ": is not a regular file (the default settings are used)");
  CHECK(fs::is_fifo(settings));  // not written over at exit either
  fs::remove(settings);

  fs::create_directories(settings / "inner");
  std::tie(code, report) = window();
  CHECK(code == 0);
  CHECK(report.value("status", "") == settings.string() + ": is a directory (the default settings are used)");
  CHECK(fs::is_directory(settings / "inner"));
  fs::remove_all(settings);

  std::ofstream(settings) << "{\"theme\": ";
  std::tie(code, report) = window();
  CHECK(code == 0);
  CHECK(report.value("status", "") == settings.string() + ": not a JSON object (the default settings are used)");
  CHECK(slurp(settings).find("\"theme\": \"dark\"") != std::string::npos);  // a regular file is saved over
}
