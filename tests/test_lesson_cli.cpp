// `scanviz lesson` as a person runs it: at a terminal (a pseudo-terminal, keys pressed one by one),
// through a pipe (one key a line), and with bad options (one line, exit 2).
#include <doctest/doctest.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "run_command.hpp"

using sv_test::Run;
using sv_test::TempDir;

namespace {

const std::string kLesson = "lesson --algo kogge-stone-double-buffer --n 8 --op sum --input slides";

// The lines that open each step ("Step 2 of 5: stride = 1"), in the order printed.
std::vector<std::string> step_lines(const std::string& out) {
  std::vector<std::string> lines;
  for (std::size_t at = 0; (at = out.find("Step ", at)) != std::string::npos;) {
    if (at == 0 || out[at - 1] == '\n') lines.push_back(out.substr(at, out.find_first_of("\r\n", at) - at));
    at += 5;
  }
  return lines;
}

// scanviz on a pseudo-terminal of its own: its standard input, output and error.
class Terminal {
 public:
  explicit Terminal(const std::vector<std::string>& args) {
    pid_ = ::forkpty(&master_, nullptr, nullptr, nullptr);
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      std::vector<char*> argv{const_cast<char*>(SCANVIZ_EXE)};
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      ::execv(SCANVIZ_EXE, argv.data());
      ::_exit(127);
    }
  }
  ~Terminal() {
    if (pid_ > 0 && !exited_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    ::close(master_);
  }

  // Reads until `text` has been printed (past what earlier waits consumed); false after 20 s.
  bool wait_for(const std::string& text) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    for (;;) {
      if (const auto at = output.find(text, seen_); at != std::string::npos) {
        seen_ = at + text.size();
        return true;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
      if (left <= 0 || !read_some(static_cast<int>(left))) return false;
    }
  }

  void press(const std::string& key) { REQUIRE(::write(master_, key.data(), key.size()) == static_cast<ssize_t>(key.size())); }

  // The exit code once the program has ended, reading the rest of its output; -1 past 20 s. The
  // terminal hangs up (reads fail at once) a moment before the program can be waited for.
  int exit_code() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    int status = 0;
    while (::waitpid(pid_, &status, WNOHANG) != pid_) {
      if (std::chrono::steady_clock::now() > deadline) return -1;
      if (!read_some(100)) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    exited_ = true;
    while (read_some(100)) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  // The pseudo-terminal's settings, as the program left them.
  termios settings() const {
    termios t{};
    ::tcgetattr(master_, &t);
    return t;
  }

  std::string output;

 private:
  bool read_some(int timeout_ms) {
    pollfd p{master_, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) <= 0) return false;
    char buffer[4096];
    const ssize_t got = ::read(master_, buffer, sizeof buffer);  // EIO once the program has gone
    if (got <= 0) return false;
    output.append(buffer, static_cast<std::size_t>(got));
    return true;
  }

  int master_ = -1;
  pid_t pid_ = -1;
  bool exited_ = false;
  std::size_t seen_ = 0;
};

std::vector<std::string> words(const std::string& command) {
  std::vector<std::string> out;
  for (std::size_t at = 0; at < command.size();) {
    const std::size_t end = command.find(' ', at);
    out.push_back(command.substr(at, end - at));
    at = end == std::string::npos ? command.size() : end + 1;
  }
  return out;
}

}  // namespace

TEST_CASE("lesson: at a terminal, keys pressed one by one (next, next, previous, quit) step the lesson and it exits 0") {
  Terminal term(words(kLesson));
  REQUIRE(term.wait_for("Step 1 of 5: load"));
  term.press("n");
  REQUIRE(term.wait_for("Step 2 of 5: stride = 1"));
  term.press("n");
  REQUIRE(term.wait_for("Step 3 of 5: stride = 2"));
  term.press("p");
  REQUIRE(term.wait_for("Step 2 of 5: stride = 1"));
  term.press("q");
  CHECK(term.exit_code() == 0);
  CHECK(step_lines(term.output) ==
        std::vector<std::string>{"Step 1 of 5: load", "Step 2 of 5: stride = 1", "Step 3 of 5: stride = 2", "Step 2 of 5: stride = 1"});
  CHECK(term.output.find("Quit at step 2 of 5.") != std::string::npos);
  CHECK(term.output.find("\x1b") == std::string::npos);  // no colour, no cursor movement: nothing a screen reader reads as noise
  // The keys were read as pressed, unechoed; the terminal gets its line editing and echo back.
  CHECK((term.settings().c_lflag & ICANON) != 0);
  CHECK((term.settings().c_lflag & ECHO) != 0);
}

TEST_CASE("lesson: at a terminal, the arrows, End, Home and Enter move as in the window") {
  Terminal term(words(kLesson));
  REQUIRE(term.wait_for("Step 1 of 5: load"));
  term.press("\x1b[C");  // Right
  REQUIRE(term.wait_for("Step 2 of 5: stride = 1"));
  term.press("\x1b[F");  // End
  REQUIRE(term.wait_for("Step 5 of 5: store"));
  REQUIRE(term.wait_for("Result: correct."));
  term.press("\x1b[H");  // Home
  REQUIRE(term.wait_for("Step 1 of 5: load"));
  term.press("\x1b[D");  // Left, at the first step
  REQUIRE(term.wait_for("This is the first step, 1 of 5."));
  term.press("\r");  // Enter
  REQUIRE(term.wait_for("Step 2 of 5: stride = 1"));
  term.press("\x04");  // Ctrl+D quits too
  CHECK(term.exit_code() == 0);
}

TEST_CASE("lesson: through a pipe, one key a line, the lesson ending with its input (exit 0)") {
  TempDir dir;
  const Run r = sv_test::run_shell("printf 'n\\nnext\\np\\nh\\n\\nG\\nq\\n' | " + sv_test::scanviz_exe() + " " + kLesson, dir.path);
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(step_lines(r.out) == std::vector<std::string>{"Step 1 of 5: load", "Step 2 of 5: stride = 1", "Step 3 of 5: stride = 2",
                                                      "Step 2 of 5: stride = 1", "Step 3 of 5: stride = 2", "Step 5 of 5: store"});
  CHECK(r.out.rfind("Lesson: kogge-stone-double-buffer, n = 8, sum\n", 0) == 0);
  CHECK(r.out.find("  p or Left arrow: the step before\n") != std::string::npos);  // h: the key table
  CHECK(r.out.find("Result: correct.") != std::string::npos);
  CHECK(r.out.find("\x1b") == std::string::npos);

  const Run ended = sv_test::run_shell("printf 'n\\n' | " + sv_test::scanviz_exe() + " " + kLesson, dir.path);
  CHECK(ended.code == 0);
  CHECK(step_lines(ended.out) == std::vector<std::string>{"Step 1 of 5: load", "Step 2 of 5: stride = 1"});

  // play: every step to the end, without a delay where no one watches.
  const Run played = sv_test::run_shell("echo play | " + sv_test::scanviz_exe() + " " + kLesson, dir.path);
  CHECK(played.code == 0);
  CHECK(step_lines(played.out).size() == 5);
}

TEST_CASE("lesson: predict mode asks a step's questions before it, reads the answer as a digit and says the verdict") {
  TempDir dir;
  const Run r = sv_test::run_shell("printf 'n\\n1\\n1\\n1\\nq\\n' | " + sv_test::scanviz_exe() + " " + kLesson + " --predict", dir.path);
  CHECK(r.code == 0);
  const auto question = r.out.find("Predict: before step 2 of 5 (stride = 1)");
  REQUIRE(question != std::string::npos);
  CHECK(r.out.find("Question 1 of ", question) != std::string::npos);
  CHECK(r.out.find("Answer with a digit from 1 to ", question) != std::string::npos);
  const auto verdict = r.out.find_first_of("RW", r.out.find("Answer with a digit", question));
  CHECK((r.out.compare(verdict, 6, "Right:") == 0 || r.out.compare(verdict, 6, "Wrong:") == 0));
  CHECK(r.out.find("Score this lesson: ") != std::string::npos);
  CHECK(r.out.find("Step 2 of 5: stride = 1") > r.out.find("Score this lesson: "));  // the step after its questions
}

TEST_CASE("lesson: --trace follows a recorded trace") {
  TempDir dir;
  REQUIRE(sv_test::scanviz("trace --algo kogge-stone-racy --executor emulator --warp 1 --op sum --out t.json", dir.path).code == 0);
  const Run r = sv_test::run_shell("echo G | " + sv_test::scanviz_exe() + " lesson --trace t.json", dir.path);
  CHECK(r.code == 0);
  CHECK(r.out.find("Lesson: kogge-stone-racy, n = 8, sum\n") != std::string::npos);
  CHECK(r.out.find("Result: wrong.") != std::string::npos);
}

TEST_CASE("lesson: bad options are one line on standard error and exit 2") {
  TempDir dir;
  for (const std::string& args : {std::string("lesson --algo no-such-scan"), std::string("lesson --n 0"),
                                  std::string("lesson --algo decoupled-lookback"), std::string("lesson --trace missing.json"),
                                  std::string("lesson --trace t.json --n 4")}) {
    CAPTURE(args);
    const Run r = sv_test::scanviz(args, dir.path);
    CHECK(r.code == 2);
    CHECK(sv_test::lines(r.err) == 1);
    CHECK(r.err.rfind("scanviz: ", 0) == 0);
    CHECK(r.out.empty());
  }
}
