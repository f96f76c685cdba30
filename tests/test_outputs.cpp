// Where the command line's outputs go: devices, FIFOs, links, read-only folders and standard output
// ("-"), and "-" as the trace to read; the PNG and GIF writers are in gui/test_outputs.cpp.
#include <doctest/doctest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <string>

#include "gpu/executor.hpp"
#include "output_targets.hpp"
#include "run_command.hpp"

using namespace sv_test;

TEST_CASE("outputs: trace writes every kind of output") {
  check_output_targets(writer("trace --algo kogge-stone --n 8 --out {out}", "json"));
}

TEST_CASE("outputs: chart writes CSV and SVG to every kind of output") {
  check_output_targets(writer("chart work-steps --out {out}", "csv", "--format csv"));
  check_output_targets(writer("chart work-steps --n 64 --out {out}", "svg", "--format svg"));
}

TEST_CASE("outputs: bench --json writes every kind of output") {
  const sv::GpuStatus gpu = sv::probe_gpu();
  if (!gpu.usable) {
    MESSAGE("bench --json not checked: bench needs a CUDA device (" << gpu.error << ")");
    return;
  }
  Writer bench = writer("bench --sizes 2^10 --runs 2 --algorithms chained --json {out}", "json");
  bench.same_bytes = false;  // timings
  check_output_targets(bench);
  TempDir d;
  const Run r = run_shell(scanviz_exe() + " bench --sizes 2^10 --runs 2 --algorithms chained --json -", d.path);
  CHECK(r.code == 0);
  CHECK(nlohmann::json::parse(r.out).is_object());  // the JSON alone: the table went to stderr
  CHECK(r.err.find("G items/s") != std::string::npos);
}

TEST_CASE("outputs: trace --out - into stats -, stats --json - and show -, the messages on stderr") {
  TempDir d;
  const std::string trace = scanviz_exe() + " trace --algo kogge-stone-racy --n 64 --op interval --schedule in-order --out - 2>msg";
  Run r = run_shell(trace + " | " + scanviz_exe() + " stats --json -", d.path);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["algorithm"] == "kogge-stone-racy");
  CHECK(j["outcome"] == "wrong");
  CHECK(slurp(d.path / "msg").rfind("wrote standard output: kogge-stone-racy, n = 64", 0) == 0);
  r = run_shell(trace + " | " + scanviz_exe() + " show -", d.path);
  CHECK(r.code == 0);
  CHECK(r.out.find("hazard RAW buffer_s[31]") != std::string::npos);

  // A device-wide trace through the pipe is the same as through a file.
  r = run_shell(scanviz_exe() + " trace --algo decoupled-lookback --n 100003 --option fence=off --executor emulator --out - 2>/dev/null | " +
                    scanviz_exe() + " stats -",
                d.path);
  CHECK(r.code == 0);
  CHECK(r.out.find("(stale: the flag arrived before its value)") != std::string::npos);

  r = run_shell(scanviz_exe() + " stats - </dev/null", d.path);
  CHECK(r.code == 2);
  CHECK(lines(r.err) == 1);
  CHECK(r.err.rfind("scanviz: standard input: ", 0) == 0);
  CHECK(d.files() == std::vector<std::string>{"msg"});
}

TEST_CASE("outputs: /dev/stdout is standard output, a pipe or a redirected file, and - in a folder named - is still stdin") {
  TempDir d;
  Run r = run_shell(scanviz_exe() + " trace --algo brent-kung --n 8 --out /dev/stdout 2>msg | " + scanviz_exe() + " stats -", d.path);
  CHECK(r.code == 0);
  CHECK(r.out.find("outcome            correct") != std::string::npos);
  CHECK(slurp(d.path / "msg").rfind("wrote /dev/stdout: brent-kung", 0) == 0);
  r = run_shell(scanviz_exe() + " trace --algo brent-kung --n 8 --out /dev/stdout >t.json", d.path);
  CHECK(r.code == 0);
  fs::create_directory(d.path / "-");
  r = run_shell(scanviz_exe() + " stats - <t.json", d.path);
  CHECK(r.code == 0);
  CHECK(r.out.find("brent-kung | n = 8") != std::string::npos);
}

TEST_CASE("outputs: a trace on a terminal is written there, since it is text") {
  TempDir d;
  const Run r = run_on_terminal(scanviz_exe() + " trace --algo kogge-stone --n 8 --out -", d.path);
  CHECK(r.code == 0);
  CHECK(r.out.find("\"format\": \"scanviz-trace\"") != std::string::npos);
  CHECK(r.err.find("wrote standard output") != std::string::npos);
}

TEST_CASE("outputs: a pipe whose reader has gone is one line, exit 2") {
  TempDir d;
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  ::close(fds[0]);
  const std::string out = "/dev/fd/" + std::to_string(fds[1]);
  const Run r = scanviz("trace --algo kogge-stone --n 8 --out " + out, d.path);
  ::close(fds[1]);
  CHECK(r.code == 2);
  CHECK(lines(r.err) == 1);
  CHECK(r.err.find("cannot write " + out + ": Broken pipe") != std::string::npos);
  CHECK(r.out.empty());
}

TEST_CASE("outputs: a full standard output fails stats and show with exit 2") {
  TempDir d;
  REQUIRE(scanviz("trace --algo sklansky --n 16 --out t.json", d.path).code == 0);
  for (const char* command : {"stats t.json", "stats --json t.json", "show t.json"}) {
    CAPTURE(command);
    const Run r = run_shell(scanviz_exe() + " " + command + " >/dev/full", d.path);
    CHECK(r.code == 2);
    CHECK(lines(r.err) == 1);
    CHECK(r.err.find("cannot write standard output: No space left on device") != std::string::npos);
  }
}

TEST_CASE("outputs: --format names the format where the name's extension is no format") {
  TempDir d;
  const Run r = scanviz("chart work-steps --out c.data --format csv", d.path);
  CHECK(r.code == 0);
  CHECK(slurp(d.path / "c.data").rfind("algorithm,n,steps", 0) == 0);
}
