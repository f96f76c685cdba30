// The trace loader fuzz through the real program: mutated copies of traces that `scanviz trace`
// made, read by every command that reads a trace, each run as its own process bounded in time and
// memory. A death by a signal, a run past its time, an exit other than 0, 1 or 2, or an exit 2
// whose error is not one line fails the test. SCANVIZ_FUZZ_COUNT and SCANVIZ_FUZZ_SEED override
// the count (2,500: 500 mutants a command, about 15 s on two cores; the loader alone takes many more
// in-process, tests/test_trace_fuzz.cpp) and the seed.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "fuzz_trace.hpp"
#include "run_command.hpp"

using namespace sv_test;

namespace {

constexpr rlim_t kMemoryBytes = rlim_t{1} << 30;
constexpr auto kTimeLimit = std::chrono::seconds(10);

struct Command {
  std::string name;
  std::vector<std::string> args;  // "FILE" stands for the trace
};

// What each command did with its mutants: a count per outcome ("exit 0", "signal 11", "timeout").
using Outcomes = std::map<std::string, int>;

struct Running {
  pid_t pid = -1;
  std::size_t command = 0;
  std::size_t slot = 0;
  std::chrono::steady_clock::time_point deadline;
  bool killed = false;
  std::string how;
  std::string text;
};

int env_or(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

// Runs scanviz in a child with the limits: stdin the mutant (for "-") or nothing, stdout to
// /dev/null by descriptor, stderr to a file of its own.
pid_t spawn(const Command& c, const fs::path& mutant, bool from_stdin, const fs::path& err) {
  std::vector<std::string> args = {SCANVIZ_EXE};
  for (const std::string& a : c.args) args.push_back(a == "FILE" ? (from_stdin ? "-" : mutant.string()) : a);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
#ifndef __SANITIZE_ADDRESS__  // AddressSanitizer reserves terabytes of address space up front
  const rlimit memory{kMemoryBytes, kMemoryBytes};
  ::setrlimit(RLIMIT_AS, &memory);
#endif
  const rlimit cpu{20, 20}, core{0, 0};
  ::setrlimit(RLIMIT_CPU, &cpu);
  ::setrlimit(RLIMIT_CORE, &core);
  const int in = ::open(from_stdin ? mutant.c_str() : "/dev/null", O_RDONLY);
  const int out = ::open("/dev/null", O_WRONLY);
  const int error = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (in < 0 || out < 0 || error < 0) ::_exit(126);
  ::dup2(in, STDIN_FILENO);
  ::dup2(out, STDOUT_FILENO);
  ::dup2(error, STDERR_FILENO);
  ::execv(argv[0], argv.data());
  ::_exit(127);
}

// The traces the mutants are made from, as `scanviz trace --out -` writes them.
std::vector<std::string> source_traces(const fs::path& dir) {
  const std::vector<std::string> recipes = {
      "--algo kogge-stone-racy --n 16 --op interval --schedule in-order",
      "--algo brent-kung --n 12 --op max --type float",
      "--algo blelloch --n 16 --exclusive --op product --type int64",
      "--algo sklansky --n 10 --op min --type double",
      "--algo decoupled-lookback --n 1000 --block 32 --option items=4 --executor emulator",
      "--algo chained --n 700 --block 32 --option items=2 --option fence=off --executor emulator",
      "--algo hierarchical --n 3000 --executor emulator",
  };
  std::vector<std::string> traces;
  for (const std::string& recipe : recipes) {
    const Run r = run_shell(scanviz_exe() + " trace " + recipe + " --out -", dir);
    INFO(recipe << ": " << r.err);
    REQUIRE(r.code == 0);
    REQUIRE(r.out.rfind("{", 0) == 0);
    traces.push_back(r.out);
  }
  return traces;
}

}  // namespace

TEST_CASE("fuzz: mutated traces through stats, stats --json, show and render SVG, each run bounded") {
  const int count = env_or("SCANVIZ_FUZZ_COUNT", 2500);
  const auto seed = static_cast<std::uint64_t>(env_or("SCANVIZ_FUZZ_SEED", 14));
  const std::size_t jobs = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 2, 8);
  TempDir d;
  const std::vector<std::string> sources = source_traces(d.path);

  std::vector<Command> commands = {
      {"stats", {"stats", "FILE"}}, {"stats --json", {"stats", "--json", "FILE"}}, {"show", {"show", "FILE"}}};
  // Without the GUI `render --help` is the top-level help (exit 0 too): look for render's own options.
  if (run_shell(scanviz_exe() + " render --help", d.path).out.find("--lookback") != std::string::npos) {
    commands.push_back({"render SVG", {"render", "FILE", "--format", "svg", "--out", "-"}});
    commands.push_back({"render --lookback SVG", {"render", "FILE", "--lookback", "--format", "svg", "--out", "-"}});
  } else {
    MESSAGE("render is not checked: this scanviz is built without the GUI, which render is part of");
  }

  std::mt19937_64 rng(seed);
  std::vector<Outcomes> outcomes(commands.size());
  std::vector<std::string> failures;
  std::vector<Running> running;
  std::vector<bool> slot_busy(jobs, false);
  const auto slot_file = [&](std::size_t slot, const char* ext) { return d.path / ("slot" + std::to_string(slot) + ext); };
  const auto started = std::chrono::steady_clock::now();

  const auto finish = [&](const Running& r, int status) {
    std::string outcome;
    bool bad = false;
    if (r.killed) {
      outcome = "timeout";
      bad = true;
    } else if (WIFSIGNALED(status)) {
      outcome = "signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
      bad = true;
    } else {
      const int code = WEXITSTATUS(status);
      outcome = "exit " + std::to_string(code);
      const std::string err = slurp(slot_file(r.slot, ".err"));
      bad = code > 2 || (code == 2 && (lines(err) != 1 || err.rfind("scanviz: ", 0) != 0));
      if (bad && code <= 2) outcome += " with an error that is not one line";
    }
    ++outcomes[r.command][outcome];
    if (bad) {
      const std::string kept = "fuzz-failure-" + std::to_string(failures.size()) + ".json";
      std::ofstream(kept, std::ios::binary) << r.text;  // in the test's working folder, to reproduce
      failures.push_back(commands[r.command].name + ": " + outcome + " on a mutant (" + r.how + "), kept as " + kept);
    }
    slot_busy[r.slot] = false;
  };

  int next = 0;
  while (next < count || !running.empty()) {
    while (next < count && running.size() < jobs) {
      Running r;
      r.command = static_cast<std::size_t>(next) % commands.size();
      const std::size_t round = static_cast<std::size_t>(next) / commands.size();
      r.slot = static_cast<std::size_t>(std::find(slot_busy.begin(), slot_busy.end(), false) - slot_busy.begin());
      slot_busy[r.slot] = true;
      r.text = mutate_trace(sources[round % sources.size()], rng, r.how);
      std::ofstream(slot_file(r.slot, ".json"), std::ios::binary | std::ios::trunc) << r.text;
      const bool from_stdin = round % 2 == 1;  // half read the trace as "-" from standard input
      r.pid = spawn(commands[r.command], slot_file(r.slot, ".json"), from_stdin, slot_file(r.slot, ".err"));
      REQUIRE(r.pid > 0);
      r.deadline = std::chrono::steady_clock::now() + kTimeLimit;
      running.push_back(std::move(r));
      ++next;
    }
    int status = 0;
    const pid_t done = ::waitpid(-1, &status, WNOHANG);
    if (done > 0) {
      const auto it = std::find_if(running.begin(), running.end(), [&](const Running& r) { return r.pid == done; });
      REQUIRE(it != running.end());
      finish(*it, status);
      running.erase(it);
      continue;
    }
    const auto now = std::chrono::steady_clock::now();
    for (Running& r : running)
      if (!r.killed && now > r.deadline) {
        ::kill(r.pid, SIGKILL);
        r.killed = true;
      }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  std::cout << "trace loader fuzz: " << count << " mutants of " << sources.size() << " traces (seed " << seed << "), "
            << jobs << " processes at a time, each limited to " << (kMemoryBytes >> 20) << " MiB and "
            << kTimeLimit.count() << " s: " << seconds << " s\n";
  for (std::size_t c = 0; c < commands.size(); ++c) {
    int total = 0;
    for (const auto& [outcome, n] : outcomes[c]) total += n;
    std::cout << "  " << commands[c].name << ": " << total << " runs:";
    for (const auto& [outcome, n] : outcomes[c]) std::cout << " " << outcome << " x" << n << ";";
    std::cout << "\n";
    // Both outcomes occur, or the mutants or the arguments are not what this test thinks.
    CHECK(outcomes[c]["exit 0"] > 0);
    CHECK(outcomes[c]["exit 2"] > 0);
  }
  for (const std::string& f : failures) FAIL_CHECK(f);
  CHECK(failures.empty());
}
