// Every kind of output a writing command can be given, checked the same way for each command.
#include "output_targets.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "run_command.hpp"

namespace sv_test {

namespace {

// The shell command running `w` with its output at `out` (quoted here), and --format when asked.
std::string command_for(const Writer& w, const std::string& out, bool with_format = false) {
  std::string args = w.command;
  args.replace(args.find("{out}"), 5, "'" + out + "'");
  if (with_format && !w.format_flag.empty()) args += " " + w.format_flag;
  return (w.launcher.empty() ? "" : w.launcher + " ") + scanviz_exe() + " " + args;
}

mode_t type_of(const fs::path& path) {
  struct stat st {};
  REQUIRE(::lstat(path.c_str(), &st) == 0);
  return st.st_mode & S_IFMT;
}

// The device node is still the device it was (a buggy writer would leave a regular file there).
void check_device_intact(const char* path, unsigned major_number, unsigned minor_number) {
  struct stat st {};
  REQUIRE(::lstat(path, &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
  CHECK(major(st.st_rdev) == major_number);
  CHECK(minor(st.st_rdev) == minor_number);
}

void check_arrived(const Writer& w, const std::string& reference, const std::string& got) {
  if (w.same_bytes) {
    CHECK(got.size() == reference.size());
    CHECK(got == reference);
  } else {
    REQUIRE_FALSE(got.empty());
    CHECK(got.substr(0, 1) == reference.substr(0, 1));
  }
}

// A regular file, new and then replaced: the bytes every other target is compared with.
std::string regular_file(const Writer& w, TempDir& d, const std::vector<std::string>& inputs) {
  const std::string name = "ref." + w.ext;
  Run r = run_shell(command_for(w, name), d.path);
  REQUIRE(r.code == 0);
  const std::string first = slurp(d.path / name);
  REQUIRE_FALSE(first.empty());
  fs::permissions(d.path / name, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  r = run_shell(command_for(w, name), d.path);
  CHECK(r.code == 0);
  CHECK(fs::status(d.path / name).permissions() == (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
  check_arrived(w, first, slurp(d.path / name));
  std::vector<std::string> expected = inputs;
  expected.push_back(name);
  std::sort(expected.begin(), expected.end());
  CHECK(d.files() == expected);  // no temporary file left beside it
  return first;
}

void dev_full(const Writer& w, TempDir& d) {
  const Run r = run_shell(command_for(w, "/dev/full", true), d.path);
  INFO("stderr: " << r.err);
  CHECK(r.code == 2);
  CHECK(lines(r.err) == 1);
  CHECK(r.err.find("cannot write /dev/full: No space left on device") != std::string::npos);
  CHECK(r.out.empty());
  check_device_intact("/dev/full", 1, 7);
}

void fifo_with_reader(const Writer& w, TempDir& d, const std::string& reference) {
  const fs::path fifo = d.path / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const Run r = run_shell("timeout 20 cat fifo >got & reader=$!\n" + command_for(w, "fifo", true) + "\ncode=$?; wait $reader; exit $code", d.path);
  CHECK(r.code == 0);
  check_arrived(w, reference, slurp(d.path / "got"));
  CHECK(type_of(fifo) == S_IFIFO);
  fs::remove(fifo);
  fs::remove(d.path / "got");
}

void symbolic_link(const Writer& w, TempDir& d, const std::string& reference) {
  const std::string target = "target." + w.ext, link = "link." + w.ext;
  {
    std::ofstream old(d.path / target);
    old << "old\n";
  }
  fs::permissions(d.path / target, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  fs::create_symlink(target, d.path / link);
  const Run r = run_shell(command_for(w, link), d.path);
  INFO("stderr: " << r.err);
  CHECK(r.code == 0);
  CHECK(type_of(d.path / link) == S_IFLNK);
  CHECK(fs::read_symlink(d.path / link) == target);
  check_arrived(w, reference, slurp(d.path / target));
  CHECK(fs::status(d.path / target).permissions() == (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
  fs::remove(d.path / link);
  fs::remove(d.path / target);
}

void standard_output_into_pipe(const Writer& w, TempDir& d, const std::string& reference) {
  const Run r = run_shell("{ " + command_for(w, "-", true) + "; echo $? >code; } | cat >piped", d.path);
  CHECK(slurp(d.path / "code") == "0\n");
  CHECK(r.err.find("cannot") == std::string::npos);
  check_arrived(w, reference, slurp(d.path / "piped"));  // nothing but the output: messages went to stderr
  fs::remove(d.path / "code");
  fs::remove(d.path / "piped");
}

void dev_null(const Writer& w, TempDir& d) {
  const Run r = run_shell(command_for(w, "/dev/null", true), d.path);
  INFO("stderr: " << r.err);
  CHECK(r.code == 0);
  CHECK(r.err.find("scanviz:") == std::string::npos);
  check_device_intact("/dev/null", 1, 3);
}

// Root ignores permission bits, so as root the command runs as the user nobody; where that is not
// possible the check is skipped and says why.
void read_only_folder(const Writer& w, TempDir& d) {
  std::string as_user;
  if (::geteuid() == 0) {
    as_user = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
    if (run_shell(as_user + scanviz_exe() + " algos", d.path).code != 0) {
      MESSAGE("read-only folder not checked: running as root, and the user nobody cannot run " SCANVIZ_EXE
              " through setpriv (root would ignore the folder's permission bits)");
      return;
    }
  }
  const fs::path folder = d.path / "read-only";
  fs::create_directory(folder);
  fs::permissions(folder, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
  const Run r = run_shell(as_user + command_for(w, "read-only/out." + w.ext), d.path);
  INFO("stderr: " << r.err);
  CHECK(r.code == 2);
  CHECK(lines(r.err) == 1);
  CHECK(r.err.find("cannot write read-only/out." + w.ext + ": Permission denied") != std::string::npos);
  CHECK(fs::is_empty(folder));
  fs::remove(folder);
}

}  // namespace

void check_output_targets(const Writer& w) {
  INFO("scanviz " << w.command);
  TempDir d;
  if (!w.setup.empty()) REQUIRE(run_shell(w.setup, d.path).code == 0);
  const std::vector<std::string> inputs = d.files();
  const std::string reference = regular_file(w, d, inputs);
  fs::remove(d.path / ("ref." + w.ext));
  dev_full(w, d);
  fifo_with_reader(w, d, reference);
  symbolic_link(w, d, reference);
  standard_output_into_pipe(w, d, reference);
  dev_null(w, d);  // after /dev/full and the FIFO showed that devices are written in place
  read_only_folder(w, d);
  CHECK(d.files() == inputs);
}

Run run_on_terminal(const std::string& command, const fs::path& dir) {
  const int terminal = ::posix_openpt(O_RDWR | O_NOCTTY);
  REQUIRE(terminal >= 0);
  REQUIRE(::grantpt(terminal) == 0);
  REQUIRE(::unlockpt(terminal) == 0);
  const int device = ::open(::ptsname(terminal), O_RDWR | O_NOCTTY);  // open before the child: no early EIO
  REQUIRE(device >= 0);
  const fs::path err = dir / "stderr.txt";
  const std::string shell = "cd '" + dir.string() + "' && { " + command + "\n} 2>'" + err.string() + "' </dev/null";
  const pid_t child = ::fork();
  if (child == 0) {
    ::dup2(device, STDOUT_FILENO);
    ::close(device);
    ::close(terminal);
    ::execl("/bin/sh", "sh", "-c", shell.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(device);
  REQUIRE(child > 0);
  Run r;
  char buf[4096];
  for (ssize_t n; (n = ::read(terminal, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR);)  // EIO: the child is done
    if (n > 0) r.out.append(buf, static_cast<std::size_t>(n));
  int status = 0;
  ::waitpid(child, &status, 0);
  ::close(terminal);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = slurp(err);
  fs::remove(err);
  return r;
}

void check_binary_refused_on_terminal(const Writer& w) {
  INFO("scanviz " << w.command);
  TempDir d;
  if (!w.setup.empty()) REQUIRE(run_shell(w.setup, d.path).code == 0);
  const Run r = run_on_terminal(command_for(w, "-", true), d.path);
  CHECK(r.code == 2);
  CHECK(lines(r.err) == 1);
  CHECK(r.err.find(" - is a terminal: a ") != std::string::npos);
  CHECK(r.out.empty());
}

}  // namespace sv_test
