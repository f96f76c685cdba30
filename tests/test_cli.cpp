// The scanviz command line as a user runs it: exit codes, one-line errors, no half-written files,
// and the acceptance commands of the command-line contract.
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "algorithms.hpp"
#include "device/device_options.hpp"
#include "gpu/executor.hpp"
#include "run_command.hpp"
#include "skips.hpp"

namespace fs = std::filesystem;
using sv_test::lines;
using sv_test::Run;
using sv_test::scanviz;
using sv_test::TempDir;

TEST_CASE("cli: the issue's acceptance commands") {
  TempDir d;
  Run r = scanviz("trace --algo kogge-stone-racy --n 64 --op interval --schedule in-order --out t.json", d.path);
  REQUIRE(r.code == 0);
  r = scanviz("stats t.json --json", d.path);
  REQUIRE(r.code == 0);
  const auto racy = nlohmann::json::parse(r.out);
  CHECK(racy["algorithm"] == "kogge-stone-racy");
  CHECK(racy["n"] == 64);
  CHECK(racy["outcome"] == "wrong");
  CHECK(racy["hazards"].size() > 0);
  CHECK(racy["output"].size() == 64);
  CHECK(racy["steps"] == 6);

  r = scanviz("trace --algo kogge-stone-double-buffer --n 64 --op interval --schedule in-order --out d.json", d.path);
  REQUIRE(r.code == 0);
  r = scanviz("stats d.json --json", d.path);
  REQUIRE(r.code == 0);
  const auto fixed = nlohmann::json::parse(r.out);
  CHECK(fixed["outcome"] == "correct");
  CHECK(fixed["hazards"].empty());
  CHECK(fixed["operations"] == 64 * 6 - 63);
  CHECK(fixed["output"][63] == "x0..x63");
}

TEST_CASE("cli: static tile ids under an adversarial launch order: stats reports the deadlock and the waiting tiles") {
  TempDir d;
  // 16 items a thread (tiles of 4096): 25 tiles, the last 8 holding the emulator's 8 slots.
  Run r = scanviz("trace --algo decoupled-lookback --n 100003 --option tile-ids=static --option launch=reverse "
                  "--option items=16 --executor emulator --out d.json",
                  d.path);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("outcome deadlock (waiting tiles: 17 18 19 20 21 22 23 24)") != std::string::npos);
  r = scanviz("stats d.json --json", d.path);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["outcome"] == "deadlock");
  CHECK(j["waiting_tiles"] == nlohmann::json::array({17, 18, 19, 20, 21, 22, 23, 24}));
  CHECK(j["lookback"]["waited_tiles"] == 8);
  r = scanviz("stats d.json", d.path);
  CHECK(r.out.find("outcome            deadlock") != std::string::npos);
  CHECK(r.out.find("tile 24 (block 24, SM 0) waits for tile 23") != std::string::npos);

  r = scanviz("trace --algo decoupled-lookback --n 100003 --option fence=off --executor emulator --out f.json", d.path);
  REQUIRE(r.code == 0);
  r = scanviz("stats f.json", d.path);
  CHECK(r.out.find("(stale: the flag arrived before its value)") != std::string::npos);
  CHECK(r.out.find("outcome            wrong") != std::string::npos);
}

TEST_CASE("cli: show prints the slides' rows and marks hazards") {
  TempDir d;
  REQUIRE(scanviz("trace --algo kogge-stone --op interval --out t.json", d.path).code == 0);
  Run r = scanviz("show t.json", d.path);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("stride = 2") != std::string::npos);
  CHECK(r.out.find("x4..x7*") != std::string::npos);  // written by an operator in stride 2
  CHECK(r.out.find("result: correct") != std::string::npos);
  REQUIRE(scanviz("trace --algo kogge-stone-racy --n 64 --op interval --executor emulator --out r.json", d.path).code == 0);
  r = scanviz("show r.json", d.path);
  CHECK(r.out.find("hazard RAW buffer_s[31]") != std::string::npos);
  CHECK(r.out.find("result: wrong") != std::string::npos);
}

TEST_CASE("cli: input by hand, exclusive, and text stats") {
  TempDir d;
  REQUIRE(scanviz("trace --algo brent-kung --input \"3,6,7,4,8,2,1,9\" --exclusive --out t.json", d.path).code == 0);
  Run r = scanviz("stats t.json --json", d.path);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["output"] == nlohmann::json::array({0, 3, 9, 16, 20, 28, 30, 31}));
  r = scanviz("stats t.json", d.path);
  CHECK(r.code == 0);
  CHECK(scanviz("trace --algo sklansky --input @" SCANVIZ_SOURCE_DIR "/assets/examples/slides.txt --out s.json", d.path).code == 0);
  CHECK(nlohmann::json::parse(scanviz("stats s.json --json", d.path).out)["output"][7] == 40);
  {
    std::ofstream crlf(d.path / "crlf.txt", std::ios::binary);
    crlf << "# values\r\n1,2\r\n3\r\n";
  }
  REQUIRE(scanviz("trace --algo kogge-stone --input @crlf.txt --out c.json", d.path).code == 0);
  CHECK(nlohmann::json::parse(scanviz("stats c.json --json", d.path).out)["output"] == nlohmann::json::array({1, 3, 6}));
  CHECK(r.out.find("outcome            correct") != std::string::npos);
  CHECK(r.out.find("closed form 2*log2(n) - 1 = 5") != std::string::npos);
}

TEST_CASE("cli: bad arguments exit 2 with one line on stderr and leave no file") {
  TempDir d;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"trace --algo nope --out t.json", "unknown algorithm"},
      {"trace --algo kogge-stone --n 5000 --out t.json", "exceeds"},
      {"trace --algo kogge-stone --n 0 --out t.json", "--n"},
      {"trace --algo kogge-stone --n abc --out t.json", "--n"},
      {"trace --algo kogge-stone --op divide --out t.json", "--op"},
      {"trace --algo kogge-stone --op interval --type int32 --out t.json", "interval"},
      {"trace --algo kogge-stone --op bitxor --type float --out t.json", "--type: operator bitxor does not apply to type float (bitxor takes int32 or int64)"},
      {"trace --algo decoupled-lookback --op and --type double --out t.json", "and takes int32 or int64"},
      {"trace --algo brent-kung --op bitand --type interval --out t.json", "operator bitand does not apply"},
      {"trace --algo kogge-stone --op or --input \"0,1,2\" --out t.json", "--input: value 2 at position 2 is not 0 or 1"},
      {"trace --algo kogge-stone --input \"1,x,3\" --out t.json", "--input"},
      {"trace --algo kogge-stone --input @nowhere.txt --out t.json", "nowhere.txt"},
      {"trace --algo kogge-stone --input \"1,2,\" --out t.json", "--input"},
      {"trace --algo kogge-stone --input \"\" --out t.json", "--input"},
      {"trace --algo kogge-stone --seed 0 --out t.json", "--seed"},
      {"trace --algo kogge-stone --n 99999999999 --out t.json", "--n"},
      {"trace --algo kogge-stone --input \"1,2,3\" --n 4 --out t.json", "does not match"},
      {"trace --algo brent-kung --block 48 --out t.json", "power-of-two"},
      {"trace --algo kogge-stone --schedule sideways --out t.json", "--schedule"},
      {"trace --algo kogge-stone --executor gpu --schedule reverse --out t.json", "emulator only"},
      {"trace --algo kogge-stone --executor tpu --out t.json", "--executor"},
      {"trace --algo kogge-stone --executor emulator --amplify 3 --out t.json", "--amplify"},
      {"trace --algo kogge-stone --out missing-dir/t.json", "missing-dir"},
      {"trace --algo kogge-stone", "--out"},
      {"frobnicate", "frobnicate"},
      {"bench --sizes 2^40", "--sizes"},
      {"bench --sizes 1000,x", "--sizes"},
      {"bench --type interval", "--type: 'interval' is not a type bench times"},
      {"bench --type int8 --json b.json", "--type: 'int8'"},
      {"bench --rounds 0 --json b.json", "--rounds must be from 1 to 100"},
      {"bench --rounds 101", "--rounds must be from 1 to 100"},
      // Checked before the device is probed: the name, not "no CUDA device", with or without a GPU.
      {"bench --algorithms decoupled-lookback,no-such-scan --json b.json", "'no-such-scan'"},
      {"stats no-such-file.json", "no-such-file.json"},
      {"trace --algo chained --option window=3 --out t.json", "window"},
      {"trace --algo decoupled-lookback --option window --out t.json", "key=value"},
      {"trace --algo decoupled-lookback --option window=2 --option window=3 --out t.json", "twice"},
      {"trace --algo decoupled-lookback --option window=33 --executor emulator --out t.json", "1 to 32"},
      {"trace --algo decoupled-lookback --option sms=0 --executor emulator --out t.json", "sms"},
      {"trace --algo decoupled-lookback --schedule reverse --out t.json", "launch"},
      {"trace --algo decoupled-lookback --n -1 --out t.json", "--n"},
      {"trace --algo decoupled-lookback --n 9999999 --executor emulator --out t.json", "outside 0.."},
      {"trace --algo kogge-stone --option window=3 --out t.json", "no switches"},
      {"show", "FILE"},
      // The format of an output comes from --format or the name's extension (test_outputs.cpp).
      {"chart work-steps --out /dev/null", "--out /dev/null: the name does not say the format; add --format (csv, svg, png)"},
      {"chart work-steps --out -", "--out -: the name does not say the format"},
      {"chart work-steps --out c.svg --format csv", "--format csv does not match --out c.svg"},
      {"chart work-steps --out - --format bmp", "--format: unknown format 'bmp' (csv, svg, png)"},
      {"chart work-steps --algos kogge-stone,nope --out c.csv", "--algos: 'nope' is not a race-free block algorithm"},
      {"chart work-steps --algos kogge-stone-racy --out c.csv", "--algos: 'kogge-stone-racy' is not a race-free block algorithm"},
      {"trace --algo kogge-stone --out .", "cannot write .: Is a directory"},
      // The warp width of the warp-level algorithms (Fig. 2): a power of two from 2 to 32, within the block.
      {"trace --algo warp-raking --n 16 --warp 3 --out t.json", "--warp: warp width 3 is not a power of two from 2 to 32"},
      {"trace --algo warp-sklansky --n 16 --warp 64 --out t.json", "warp width 64 is not a power of two"},
      {"trace --algo warp-brent-kung --n 16 --warp 32 --out t.json", "warp width 32 exceeds the block of warp-brent-kung (16 threads)"},
      {"trace --algo warp-brent-kung --n 16 --warp 0 --out t.json", "--warp: warp width 0 is not"},
      {"trace --algo warp-brent-kung --n 16 --warp -4 --out t.json", "--warp"},
      {"trace --algo warp-brent-kung --n 16 --warp x --out t.json", "--warp"},
      // The other block algorithms take --warp as the emulator's lockstep: 1 to 32, not on the GPU.
      {"trace --algo brent-kung --warp 3 --out t.json", "--warp: threads in lockstep 3 is not a power of two from 1 to 32"},
      {"trace --algo kogge-stone-racy --warp 64 --out t.json", "threads in lockstep 64 is not a power of two"},
      {"trace --algo kogge-stone-racy --warp 1 --executor gpu --out t.json",
       "--warp narrows kogge-stone-racy's lockstep on the emulator; a GPU's warps are 32 lanes"},
      {"trace --algo hierarchical --warp 4 --out t.json", "--warp applies to the block algorithms, not hierarchical"},
      // A tile of one element never reduces n: refused up front, naming n, not after 250 buffers.
      {"trace --algo hierarchical --n 10000 --block 1 --executor emulator --out t.json", "never reduces n = 10000"},
      // The tile's block is named as the block, not as an n the user never gave.
      {"trace --algo hierarchical --n 100 --block 2000 --executor emulator --out t.json", "block size 2000 is outside 1..1024"},
      {"trace --algo hierarchical --n 100 --block 48 --option block-algo=brent-kung --executor emulator --out t.json",
       "block 48: each tile of the hierarchical scan is one block of brent-kung (brent-kung needs a power-of-two"},
      // A seed is a whole number from 1: -1 is refused, not taken as 2^64 - 1.
      {"trace --algo kogge-stone --seed -1 --out t.json", "--seed: '-1' is not a whole number from 1"},
      {"race --seed -1", "--seed: '-1' is not a whole number from 1"},
      // The window's options: an empty algorithm and a negative step are refused before a window opens.
      {"gui --algo '' --frames 1", "--algo: no algorithm named"},
      {"gui --step -5 --frames 1", "--step must be 0 or more"},
      // A theme this version does not have is refused, not accepted and saved.
      {"render t.json --theme blue --out t.svg", "--theme: blue not in"},
      {"gui --theme blue --frames 1", "--theme: blue not in"},
  };
  for (const auto& [args, needle] : cases) {
    CAPTURE(args);
    const Run r = scanviz(args, d.path);
    CHECK(r.code == 2);
    CHECK(lines(r.err) == 1);
    CHECK(r.err.find(needle) != std::string::npos);
    CHECK(r.out.empty());
    CHECK(d.files().empty());
  }
}

TEST_CASE("cli: a bad SCANVIZ_BENCH_PHASES or SCANVIZ_BENCH_HOLDS is one line and exit 2, before the device is probed") {
  TempDir d;
  const std::tuple<const char*, const char*, const char*> cases[] = {
      {"SCANVIZ_BENCH_PHASES", "oops", "SCANVIZ_BENCH_PHASES: 'oops' is not 1 or a switch KEY=VALUE"},
      {"SCANVIZ_BENCH_PHASES", "window=16,", "SCANVIZ_BENCH_PHASES: '' is not 1"},
      {"SCANVIZ_BENCH_PHASES", "window=99", "window=99: expected an integer from 1 to 32"},
      {"SCANVIZ_BENCH_PHASES", "fence=maybe", "fence"},
      {"SCANVIZ_BENCH_HOLDS", "7,x", "SCANVIZ_BENCH_HOLDS: 'x' is not a hold in microseconds"},
  };
  for (const auto& [variable, value, needle] : cases) {
    CAPTURE(variable);
    CAPTURE(value);
    const Run r = sv_test::run_shell(std::string(variable) + "='" + value + "' " + sv_test::scanviz_exe() +
                                         " bench --sizes 2^20 --algorithms decoupled-lookback --json b.json",
                                     d.path);
    CHECK(r.code == 2);
    CHECK(lines(r.err) == 1);
    CHECK(r.err.find(needle) != std::string::npos);
    CHECK(d.files().empty());
  }
}

TEST_CASE("cli: without a usable GPU, --executor gpu fails with the CUDA error and auto uses the emulator" *
          sv_test::skip_unless(!sv::probe_gpu().usable, "a usable CUDA device is here: the no-device behaviour is not checked")) {
  TempDir d;
  Run r = scanviz("trace --algo kogge-stone --executor gpu --out t.json", d.path);
  CHECK(r.code == 2);
  CHECK(lines(r.err) == 1);
  CHECK(r.err.find("no usable CUDA device") != std::string::npos);
  CHECK(r.err.find("--executor emulator") != std::string::npos);
  CHECK(d.files().empty());
  r = scanviz("trace --algo kogge-stone --out t.json", d.path);
  CHECK(r.code == 0);
  CHECK(r.out.find("CPU emulator") != std::string::npos);
  CHECK(r.out.find("no usable CUDA device") != std::string::npos);
  r = scanviz("race --runs 3", d.path);
  CHECK(r.code == 2);
  CHECK(lines(r.err) == 1);
  r = scanviz("bench --json b.json", d.path);
  CHECK(r.code == 2);
  CHECK(lines(r.err) == 1);
  CHECK(r.err.find("CUDA device") != std::string::npos);
  CHECK_FALSE(fs::exists(d.path / "b.json"));
  // Known names pass the option checks and reach the device check; an unknown one is named first.
  r = scanviz("bench --algorithms chained,decoupled-lookback", d.path);
  CHECK(r.code == 2);
  CHECK(r.err.find("CUDA device") != std::string::npos);
  // Block-level kernels are timed too (each block its own tile): the race-free ones are names bench takes.
  r = scanviz("bench --algorithms warp-brent-kung,warp-raking,warp-sklansky,sklansky", d.path);
  CHECK(r.code == 2);
  CHECK(r.err.find("CUDA device") != std::string::npos);
  r = scanviz("bench --algorithms kogge-stone-racy", d.path);
  CHECK(r.code == 2);
  CHECK(r.err.find("'kogge-stone-racy'") != std::string::npos);
  r = scanviz("bench --algorithms chained,scan-of-doom", d.path);
  CHECK(r.code == 2);
  CHECK(lines(r.err) == 1);
  CHECK(r.err.find("'scan-of-doom'") != std::string::npos);
  CHECK(r.err.find("CUDA device") == std::string::npos);
}

TEST_CASE("cli: a corrupt trace file is rejected with the field named") {
  TempDir d;
  REQUIRE(scanviz("trace --algo sklansky --out t.json", d.path).code == 0);
  {
    std::ofstream f(d.path / "bad.json");
    f << R"({"format": "scanviz-trace", "version": 99})";
  }
  Run r = scanviz("stats bad.json", d.path);
  CHECK(r.code == 2);
  CHECK(lines(r.err) == 1);
  CHECK(r.err.find("version") != std::string::npos);
  {
    std::ifstream in(d.path / "t.json");
    std::stringstream s;
    s << in.rdbuf();
    std::ofstream out(d.path / "cut.json");
    out << s.str().substr(0, s.str().size() / 2);
  }
  r = scanviz("show cut.json", d.path);
  CHECK(r.code == 2);
  CHECK(lines(r.err) == 1);
}

TEST_CASE("cli: logical and bitwise operators from trace to stats") {
  TempDir d;
  REQUIRE(scanviz("trace --algo kogge-stone --op and --input \"1,1,0,1\" --out a.json", d.path).code == 0);
  CHECK(nlohmann::json::parse(scanviz("stats a.json --json", d.path).out)["output"] == nlohmann::json::array({1, 1, 0, 0}));
  REQUIRE(scanviz("trace --algo blelloch --op or --exclusive --input \"0,0,1,0\" --out o.json", d.path).code == 0);
  CHECK(nlohmann::json::parse(scanviz("stats o.json --json", d.path).out)["output"] == nlohmann::json::array({0, 0, 0, 1}));
  REQUIRE(scanviz("trace --algo sklansky --op bitxor --type int64 --input \"3,6,7,4\" --out x.json", d.path).code == 0);
  CHECK(nlohmann::json::parse(scanviz("stats x.json --json", d.path).out)["output"] == nlohmann::json::array({3, 5, 2, 6}));
  const Run r = scanviz("trace --algo decoupled-lookback --op bitand --n 5000 --executor emulator --out b.json", d.path);
  CHECK(r.code == 0);
  CHECK(r.out.find("bitand") != std::string::npos);
  CHECK(scanviz("stats b.json", d.path).out.find("outcome            correct") != std::string::npos);
  const Run show = scanviz("show a.json", d.path);
  CHECK(show.code == 0);
  CHECK(show.out.find("| and (int32)") != std::string::npos);
}

TEST_CASE("cli: the warp-level scans of Fig. 2 from trace to stats and show, warps of 4") {
  TempDir d;
  const std::tuple<const char*, int, int> figures[] = {
      {"warp-brent-kung", 5, 37}, {"warp-raking", 9, 29}, {"warp-sklansky", 4, 36}};
  for (const auto& [algo, levels, operators] : figures) {
    CAPTURE(algo);
    REQUIRE(scanviz(std::string("trace --algo ") + algo + " --n 16 --warp 4 --op interval --out w.json", d.path).code == 0);
    Run r = scanviz("stats w.json --json", d.path);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["steps"] == levels);
    CHECK(j["operations"] == operators);
    CHECK(j["barriers"] == 2);
    CHECK(j["outcome"] == "correct");
    CHECK(j["closed_form"]["steps"] == levels);
    CHECK(j["closed_form"]["operations"] == operators);
    CHECK(j["output"][15] == "x0..x15");
    r = scanviz("show w.json", d.path);
    CHECK(r.code == 0);
    CHECK(r.out.find("warp-scan +2") != std::string::npos);  // the shuffle offset
  }
}

TEST_CASE("cli: algos lists every algorithm and says which pad to a power of two") {
  TempDir d;
  const Run r = scanviz("algos", d.path);
  CHECK(r.code == 0);
  for (const sv::AlgorithmInfo& a : sv::block_algorithms()) {  // every row of the algorithm table, with its forms
    CAPTURE(a.name);
    CHECK(r.out.find("  " + std::string(a.name) + "\n      " + std::string(a.summary)) != std::string::npos);
    CHECK(r.out.find("steps " + std::string(a.steps) + ", operations " + std::string(a.work)) != std::string::npos);
  }
  for (const sv::DeviceAlgorithmInfo& a : sv::device_algorithms())
    CHECK(r.out.find("  " + std::string(a.name) + "\n      " + std::string(a.summary)) != std::string::npos);
  // The figure's numbers, and how operators are counted.
  for (const char* line : {"Fig. 2 (n = 16, --warp 4): 5 levels, 37 operators", "Fig. 2 (n = 16, --warp 4): 9 levels, 29 operators",
                           "Fig. 2 (n = 16, --warp 4): 4 levels, 36 operators", "an operator is one application of"})
    CHECK(r.out.find(line) != std::string::npos);
  CHECK(r.out.find("padded to a power of two") != std::string::npos);
  for (const char* name : {"hierarchical", "reduce-then-scan", "chained", "decoupled-lookback", "tile-ids [dynamic]",
                           "fence [on]", "window [32]", "stall [none]", "block-algo [kogge-stone-double-buffer]",
                           "launch [in-order]", "and, or", "bitand, bitor, bitxor", "truth values 0 and 1"})
    CHECK(r.out.find(name) != std::string::npos);
}

TEST_CASE("cli: the terminal demo runs Kogge-Stone on the slides' input") {
  TempDir d;
  const Run r = scanviz("demo", d.path);
  CHECK(r.code == 0);
  CHECK(r.out.find("16  20  28  30  31  40") != std::string::npos);
  CHECK(r.out.find("x0..x7") != std::string::npos);
}
