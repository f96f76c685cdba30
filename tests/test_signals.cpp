// Signals and standard output: a pipe whose reader has gone is one line and exit 2 for every
// command; a closed standard output does not fail a command that wrote its file whole; SIGINT,
// SIGTERM and SIGHUP during the final write leave no temporary file.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "run_command.hpp"
#include "trace/trace_json.hpp"

using namespace sv_test;

namespace {

// A pipe with its reading end closed, open across exec: /dev/fd/N names its writing end.
struct ReaderlessPipe {
  int fds[2] = {-1, -1};
  ReaderlessPipe() {
    REQUIRE(::pipe(fds) == 0);
    ::close(fds[0]);
  }
  ~ReaderlessPipe() { ::close(fds[1]); }
  std::string name() const { return "/dev/fd/" + std::to_string(fds[1]); }
};

bool has_temporary(const TempDir& d) {
  for (const std::string& f : d.files())
    if (f.find(".tmp-") != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("signals: every command whose standard output has no reader says Broken pipe in one line, exit 2") {
  TempDir d;
  REQUIRE(scanviz("trace --algo sklansky --n 64 --out t.json", d.path).code == 0);
  const ReaderlessPipe pipe;
  for (const std::string command : {"algos", "demo", "show t.json", "stats t.json", "stats --json t.json",
                                    "trace --algo kogge-stone --n 8 --out -", "render t.json --out - --format svg",
                                    "chart work-steps --n 64 --out - --format svg"}) {
    CAPTURE(command);
    const Run r = run_shell(scanviz_exe() + " " + command + " >" + pipe.name(), d.path);
    CHECK(r.code == 2);  // not 141, a silent death by SIGPIPE
    CHECK(lines(r.err) == 1);
    CHECK(r.err.find("cannot write standard output: Broken pipe") != std::string::npos);
  }
}

TEST_CASE("signals: with standard output closed, a command that wrote its file whole exits 0") {
  TempDir d;
  REQUIRE(scanviz("trace --algo sklansky --n 16 --out t.json", d.path).code == 0);
  for (const auto& [command, file] : {std::pair{"trace --algo brent-kung --n 16 --out b.json", "b.json"},
                                      std::pair{"render t.json --out t.svg", "t.svg"},
                                      std::pair{"chart work-steps --n 64 --out c.csv", "c.csv"}}) {
    CAPTURE(command);
    const Run r = run_shell(scanviz_exe() + " " + command + " >&-", d.path);
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    CHECK(std::filesystem::file_size(d.path / file) > 0);
  }
  CHECK_NOTHROW(sv::load_trace(d.path / "b.json"));
  // Standard output closed for a command whose product goes there is still an error.
  const Run r = run_shell(scanviz_exe() + " stats t.json >&-", d.path);
  CHECK(r.code == 2);
  CHECK(r.err.find("cannot write standard output: Bad file descriptor") != std::string::npos);
}

TEST_CASE("signals: SIGINT, SIGTERM or SIGHUP during the final write remove the temporary file") {
  TempDir d;
  // A trace of about 30 MB: its write is long enough to be caught with the temporary file there.
  const std::string exe = SCANVIZ_EXE;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    CAPTURE(sig);
    bool caught = false;
    for (int attempt = 0; attempt < 5 && !caught; ++attempt) {
      const pid_t pid = ::fork();
      REQUIRE(pid >= 0);
      if (pid == 0) {
        if (::chdir(d.path.c_str()) != 0) ::_exit(127);
        for (int s : {SIGINT, SIGTERM, SIGHUP}) ::signal(s, SIG_DFL);  // as a shell would start it, even under nohup
        ::execl(exe.c_str(), exe.c_str(), "trace", "--algo", "decoupled-lookback", "--n", "2000000", "--out", "big.json",
                static_cast<char*>(nullptr));
        ::_exit(127);
      }
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(120);
      while (!has_temporary(d) && std::chrono::steady_clock::now() < give_up && ::waitpid(pid, nullptr, WNOHANG) == 0) {
      }
      caught = has_temporary(d);
      if (caught) ::kill(pid, sig);
      int status = 0;
      ::waitpid(pid, &status, 0);
      if (caught && WIFSIGNALED(status)) CHECK(WTERMSIG(status) == sig);  // ended as the signal ends it
      else caught = false;  // the write ended before the signal came: try again
      CHECK_FALSE(has_temporary(d));
      std::filesystem::remove(d.path / "big.json");
    }
    CHECK_MESSAGE(caught, "the temporary file was never seen while the trace was written");
  }
}
