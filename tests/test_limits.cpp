// What scanviz reads and writes at most (core/limits.hpp, docs/cli.md): every input stops at its
// limit with one line that names it, and a run or picture over its budget is refused before it
// takes the memory, naming the option to change.
#include <doctest/doctest.h>

#include <chrono>
#include <string>

#include "bench_result.hpp"
#include "core/files.hpp"
#include "core/limits.hpp"
#include "run_command.hpp"
#include "trace/trace_json.hpp"

using namespace sv_test;

namespace {

// One line on stderr, exit 2, nothing on stdout, and the line holds `says`.
void check_refused(const Run& r, const std::string& says) {
  CHECK(r.code == 2);
  CHECK(lines(r.err) == 1);
  CHECK(r.err.find(says) != std::string::npos);
  CHECK(r.out.empty());
}

}  // namespace

TEST_CASE("limits: /dev/zero as a trace, from a name or standard input, stops at the trace limit") {
  TempDir d;
  const std::string limit = "larger than 256 MiB, the limit for a trace";
  for (const std::string command : {"stats /dev/zero", "show /dev/zero", "stats - </dev/zero", "stats --json /dev/zero",
                                    "render /dev/zero --out z.svg"}) {
    CAPTURE(command);
    check_refused(scanviz(command, d.path), limit);
  }
  CHECK(d.files().empty());
}

TEST_CASE("limits: the readers' limits in their messages, and bench tables refuse duplicate keys") {
  try {
    sv::load_trace("/dev/zero");
    FAIL("a trace from /dev/zero was read");
  } catch (const sv::TraceError& e) {
    CHECK(std::string(e.what()) == "/dev/zero: larger than 256 MiB, the limit for a trace");
  }
  CHECK_THROWS_WITH(sv::read_whole_file("/dev/zero", sv::kMaxBenchFileBytes, "a bench table"),
                    "larger than 16 MiB, the limit for a bench table");
  CHECK_THROWS_WITH(sv::read_whole_file("/", 10, "a trace"), "is a directory");
  CHECK_THROWS_WITH(sv::read_regular_file("/dev/null", 10, "the settings"), "is not a regular file");
  CHECK_THROWS_WITH(sv::bench_from_json(R"({"format": "scanviz-bench", "version": 1, "version": 2})"),
                    "version: duplicate key (a key appears once in an object)");
  CHECK_THROWS_WITH(sv::bench_from_json(std::string(1000, '[')), doctest::Contains("nested deeper than 16 levels"));
  CHECK_THROWS_WITH(sv::bench_from_json("{\"format\": \"scanviz-bench\"}" + std::string(17 << 20, ' ')),
                    "larger than 16 MiB, the limit for a bench table");
  CHECK(sv::is_bench_json("{\"format\": \"scanviz-bench\"}" + std::string(17 << 20, ' ')));  // then refused, unparsed
  CHECK_FALSE(sv::is_bench_json("{\"format\": \"scanviz-bench\"" + std::string(100, '[')));
}

TEST_CASE("limits: --input @FILE stops at its limit") {
  TempDir d;
  check_refused(scanviz("trace --algo kogge-stone --n 8 --input @/dev/zero --out t.json", d.path),
                "--input @/dev/zero: larger than 64 MiB, the limit for an --input file");
  check_refused(scanviz("trace --algo kogge-stone --n 8 --input @missing --out t.json", d.path),
                "--input @missing: cannot open: No such file or directory");
  CHECK(d.files().empty());
}

TEST_CASE("limits: a device-wide run whose trace would be over its budget is refused before it runs") {
  TempDir d;
  const auto quick = [&](const std::string& args, const std::string& says) {
    CAPTURE(args);
    const auto start = std::chrono::steady_clock::now();
    check_refused(scanviz("trace " + args + " --out t.json", d.path), says);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));  // refused, not run
  };
  // Tiles of one element never shrink the tile sums: hierarchical took 7.9 GB before its refusal.
  // (hierarchical's own check names the tile first; reduce-then-scan's count says it)
  quick("--algo hierarchical --n 10000 --block 1", "a tile of 1 element never reduces n = 10000");
  quick("--algo reduce-then-scan --n 10000 --block 1 --option items=1", "raise --block");
  // One-element tiles at 2^22: 1.68 GB of trace, 15 GB to read it back.
  quick("--algo decoupled-lookback --n 4194304 --block 1 --option items=1",
        "over the 16777216 a trace may hold: lower --n, or raise --block or items");
  quick("--algo hierarchical --n 4194304", "over the 16777216 a trace may hold");
  CHECK(d.files().empty());
}

TEST_CASE("limits: an SVG over its cell budget is refused up front, naming the budget") {
  TempDir d;
  REQUIRE(scanviz("trace --algo decoupled-lookback --n 40000 --out t.json", d.path).code == 0);
  check_refused(scanviz("render t.json --out t.svg", d.path),
                "an SVG of this trace would draw 80000 cells, over the 65536 an SVG may hold");
  CHECK_FALSE(std::filesystem::exists(d.path / "t.svg"));
  REQUIRE(scanviz("trace --algo decoupled-lookback --n 30000 --out s.json", d.path).code == 0);
  CHECK(scanviz("render s.json --out s.svg", d.path).code == 0);
}

TEST_CASE("limits: the traces the issue's commands write read back (duplicate tile sums names)") {
  TempDir d;
  for (const std::string args : {"--algo hierarchical --n 100 --block 2",
                                 "--algo reduce-then-scan --n 10000 --block 2 --option items=1"}) {
    CAPTURE(args);
    REQUIRE(scanviz("trace " + args + " --out t.json", d.path).code == 0);
    const Run r = scanviz("stats t.json", d.path);
    CHECK(r.code == 0);
    CHECK(r.err.empty());
  }
}
