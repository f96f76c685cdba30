// A class graded in child processes (class_run.hpp).
#include "grade/class_run.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <thread>

#include "core/files.hpp"
#include "grade/class_table.hpp"
#include "grade/graded_check.hpp"
#include "grade/rubric.hpp"
#include "kernel_run.hpp"

namespace sv {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct Child {
  std::size_t index = 0;
  pid_t pid = -1;
  int out = -1, err = -1;
  std::string out_text, err_text;
  Clock::time_point start;
  bool timed_out = false;
};

// The child's command line: the same program, one submission, its card as JSON with the rubric.
std::vector<std::string> child_args(const CheckOptions& o, const std::string& file) {
  std::vector<std::string> a = {"scanviz", "check", file, "--format", "json"};
  if (!o.rubric.empty()) a.insert(a.end(), {"--rubric", o.rubric});
  if (!o.launch.empty()) a.insert(a.end(), {"--launch", o.launch});
  if (!o.sizes.empty()) a.insert(a.end(), {"--sizes", o.sizes});
  if (o.block) a.insert(a.end(), {"--block", std::to_string(o.block)});
  if (o.exclusive) a.push_back("--exclusive");
  if (o.gpu) a.push_back("--gpu");
  return a;
}

Child spawn(const std::vector<std::string>& args, std::size_t index) {
  int out[2], err[2];
  if (::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error(std::string("cannot make a pipe: ") + std::strerror(errno));
  if (::pipe2(err, O_CLOEXEC) != 0) {
    ::close(out[0]), ::close(out[1]);
    throw std::runtime_error(std::string("cannot make a pipe: ") + std::strerror(errno));
  }
  std::vector<char*> argv;
  for (const std::string& s : args) argv.push_back(const_cast<char*>(s.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("cannot start a process: ") + std::strerror(errno));
  if (pid == 0) {  // the child: only async-signal-safe calls until exec
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, 0);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    ::execv("/proc/self/exe", argv.data());
    ::_exit(127);
  }
  ::close(out[1]);
  ::close(err[1]);
  Child c;
  c.index = index;
  c.pid = pid;
  c.out = out[0];
  c.err = err[0];
  c.start = Clock::now();
  return c;
}

// Reads what is there; closes the end at end of file.
void drain(int& fd, std::string& into) {
  char buffer[65536];
  const ssize_t got = ::read(fd, buffer, sizeof buffer);
  if (got > 0) {
    if (into.size() < (std::size_t{64} << 20)) into.append(buffer, static_cast<std::size_t>(got));  // a card is far smaller
  } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
    ::close(fd);
    fd = -1;
  }
}

std::string first_line(const std::string& s) {
  std::string line = s.substr(0, s.find('\n'));
  return line.rfind("scanviz: ", 0) == 0 ? line.substr(9) : line;
}

// The submission as its process ended.
grade::Submission finish(const Child& c, int status, const std::string& file, double timeout) {
  grade::Submission s;
  s.file = file;
  s.seconds = std::chrono::duration<double>(Clock::now() - c.start).count();
  try {
    s.source = read_kernel_source(file);
  } catch (const std::exception&) {
  }
  char text[160];
  if (c.timed_out) {
    std::snprintf(text, sizeof text, "timed out: stopped after %g s (--timeout)", timeout);
    s.failure = text;
  } else if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    std::snprintf(text, sizeof text, "crashed: the check was killed by signal %d (%s)", sig, ::strsignal(sig));
    s.failure = text;
  } else {
    try {
      s.card = nlohmann::json::parse(c.out_text);
      if (!s.card.is_object() || !s.card.contains("rubric")) s.card = nullptr;
    } catch (const nlohmann::json::exception&) {
      s.card = nullptr;
    }
    if (s.card.is_null()) {
      const std::string why = first_line(c.err_text);
      s.failure = "refused: " + (why.empty() ? "the check ended with exit code " + std::to_string(WEXITSTATUS(status)) + " and no card" : why);
    }
  }
  return s;
}

// The progress line on a terminal: a bar and the counts, drawn again only when they change.
class Progress {
 public:
  explicit Progress(std::size_t total) : total_(total), on_(::isatty(2) != 0) {}
  void show(std::size_t done, std::size_t running) {
    if (!on_ || (done == done_ && running == running_)) return;
    done_ = done, running_ = running;
    const std::size_t width = 30, filled = total_ ? done * width / total_ : width;
    std::cerr << "\rcheck: [" << std::string(filled, '#') << std::string(width - filled, '.') << "] " << done << " of " << total_ << " graded, "
              << running << " running " << std::flush;
  }
  void end() {
    show(total_, 0);
    if (on_) std::cerr << "\n";
  }

 private:
  std::size_t total_;
  bool on_;
  std::size_t done_ = static_cast<std::size_t>(-1), running_ = 0;
};

}  // namespace

bool is_class(const CheckOptions& o) {
  return o.files.size() > 1 || std::any_of(o.files.begin(), o.files.end(), [](const std::string& f) { return fs::is_directory(f); });
}

std::vector<std::string> class_submissions(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const std::string& a : args) {
    if (!fs::is_directory(a)) {
      out.push_back(a);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& e : fs::recursive_directory_iterator(a, fs::directory_options::skip_permission_denied))
      if (e.is_regular_file() && e.path().extension() == ".cu") found.push_back(e.path().string());
    if (found.empty()) throw std::invalid_argument(a + ": a folder without .cu files");
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

int grade_class(const CheckOptions& o) {
  if (check_format(o) != "text") throw std::invalid_argument("--format " + check_format(o) + " is one submission's card; a class writes its table with --summary");
  if (!o.only.empty()) throw std::invalid_argument("--only grades one submission; a class's table counts every item");
  if (!o.out.empty()) throw std::invalid_argument("--out is one submission's card; a class writes its table with --summary");
  if (o.jobs < 0 || o.jobs > 256) throw std::invalid_argument("--jobs " + std::to_string(o.jobs) + " is outside 1..256");
  if (!(o.timeout > 0)) throw std::invalid_argument("--timeout must be more than 0 seconds");
  const std::string ext = fs::path(o.summary).extension().string();
  if (!o.summary.empty() && ext != ".csv" && ext != ".md") throw std::invalid_argument("--summary " + o.summary + ": the name ends in .csv or .md");
  const grade::Rubric rubric = grade::load_rubric(o.rubric);  // a bad rubric: one line before any process
  const std::vector<std::string> files = class_submissions(o.files);
  const std::size_t jobs = static_cast<std::size_t>(o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency()));

  std::vector<grade::Submission> done(files.size());
  std::vector<Child> running;
  std::size_t next = 0, finished = 0;
  Progress progress(files.size());
  while (finished < files.size()) {
    while (running.size() < jobs && next < files.size()) {
      running.push_back(spawn(child_args(o, files[next]), next));
      ++next;
    }
    progress.show(finished, running.size());
    std::vector<pollfd> fds;
    for (const Child& c : running) {
      if (c.out >= 0) fds.push_back({c.out, POLLIN, 0});
      if (c.err >= 0) fds.push_back({c.err, POLLIN, 0});
    }
    if (!fds.empty()) ::poll(fds.data(), fds.size(), 100);
    for (auto it = running.begin(); it != running.end();) {
      Child& c = *it;
      for (const pollfd& p : fds) {
        if (!(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
        if (p.fd == c.out && c.out >= 0) drain(c.out, c.out_text);
        else if (p.fd == c.err && c.err >= 0) drain(c.err, c.err_text);
      }
      if (!c.timed_out && std::chrono::duration<double>(Clock::now() - c.start).count() > o.timeout) {
        ::kill(c.pid, SIGKILL);
        c.timed_out = true;
      }
      int status = 0;
      if (c.out >= 0 || c.err >= 0 || ::waitpid(c.pid, &status, 0) != c.pid) {
        ++it;
        continue;
      }
      done[c.index] = finish(c, status, files[c.index], o.timeout);
      ++finished;
      it = running.erase(it);
    }
  }
  progress.end();

  std::vector<grade::ClassRow> rows;
  for (const grade::Submission& s : done) rows.push_back(grade::class_row(s));
  const std::string title = "Class table (" + rubric.source + (rubric.title.empty() ? "" : ": " + rubric.title) + ")";
  if (!o.summary.empty()) write_file_atomically(o.summary, ext == ".csv" ? grade::class_csv(rows) : grade::class_markdown(rows, title));
  std::cout << grade::class_markdown(rows, title);
  return 0;
}

}  // namespace sv
