// `scanviz trace --kernel` and `scanviz check` as a user runs them: the trace opens in stats and show,
// the report card's exit codes and JSON fields, and one-line errors with exit 2.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "run_command.hpp"

using sv_test::lines;
using sv_test::Run;
using sv_test::scanviz;
using sv_test::TempDir;

namespace {
const std::string kAssets = SCANVIZ_SOURCE_DIR "/assets/kernels/";

void write_file(const std::filesystem::path& path, const std::string& text) { std::ofstream(path) << text; }
}  // namespace

TEST_CASE("cli: trace --kernel writes a trace that stats and show read like any other") {
  TempDir d;
  Run r = scanviz("trace --kernel " + kAssets + "pmpp_kogge_stone_double_buffer.cu --n 16 --schedule reverse --out t.json", d.path);
  REQUIRE(r.code == 0);
  r = scanviz("stats t.json --json", d.path);
  REQUIRE(r.code == 0);
  const auto stats = nlohmann::json::parse(r.out);
  CHECK(stats["algorithm"] == "kernel:kogge_stone_double_buffer_scan_kernel");
  CHECK(stats["n"] == 16);
  CHECK(stats["outcome"] == "correct");
  CHECK(stats["operations"] == 16 * 4 - 15);
  r = scanviz("show t.json", d.path);
  CHECK(r.code == 0);
  CHECK(r.out.find("interval 4") != std::string::npos);
  // The slide 14 kernel, each thread on its own and on symbolic values: a wrong result, hazards.
  r = scanviz("trace --kernel " + kAssets + "pmpp_kogge_stone_incorrect.cu --n 8 --warp 1 --op interval --out r.json", d.path);
  REQUIRE(r.code == 0);
  r = scanviz("stats r.json --json", d.path);
  const auto racy = nlohmann::json::parse(r.out);
  CHECK(racy["outcome"] == "wrong");
  CHECK(racy["hazards"].size() > 0);
}

TEST_CASE("cli: trace --kernel refuses in one line, exit 2, and writes nothing") {
  TempDir d;
  write_file(d.path / "bad.cu", "#define BLOCK_DIM 8\n__global__ void k(float* a, float* b) {\n  b[0] = a + 1;\n}\n");
  Run r = scanviz("trace --kernel bad.cu --out t.json", d.path);
  CHECK(r.code == 2);
  CHECK(lines(r.err) == 1);
  CHECK(r.err.rfind("bad.cu:3:", 0) == 0);
  CHECK(!std::filesystem::exists(d.path / "t.json"));
  r = scanviz("trace --kernel missing.cu --out t.json", d.path);
  CHECK(r.code == 2);
  CHECK(lines(r.err) == 1);
  r = scanviz("trace --kernel " + kAssets + "cs677_brent_kung.cu --type int32 --out t.json", d.path);
  CHECK(r.code == 2);
  CHECK(r.err.find("this kernel scans float") != std::string::npos);
  // What only built-in algorithms have, named as the flag given (the window refuses from the same list).
  const std::pair<const char*, const char*> built_in[] = {
      {"--algo brent-kung", "--kernel with --algo: choose one"},
      {"--flags 1,0,0,1,0,0,0,0", "--kernel with --flags: segmented scans"},
      {"--app allocate", "--kernel with --app: segmented scans"},
      {"--option stages=4", "--kernel with --option: switches belong"},
      {"--executor gpu", "--kernel with --executor gpu: a kernel of your own runs on the CPU emulator only"},
      {"--op max", "--kernel with --op max: a kernel of your own scans with its +"},
      {"--input slides", "--kernel with --input slides: give the values"},
  };
  for (const auto& [flags, line] : built_in) {
    CAPTURE(std::string(flags));
    r = scanviz("trace --kernel " + kAssets + "cs677_brent_kung.cu " + flags + " --out t.json", d.path);
    CHECK(r.code == 2);
    CHECK(lines(r.err) == 1);
    CHECK(r.err.find(line) != std::string::npos);
    CHECK(!std::filesystem::exists(d.path / "t.json"));
  }
  r = scanviz("trace --kernel " + kAssets + "pmpp_kogge_stone_double_buffer.cu --n 5 --out t.json", d.path);
  CHECK(r.code == 1);  // the unguarded load of slide 19 reads past the input
  CHECK(lines(r.err) == 1);
  CHECK(r.err.find("input[5]") != std::string::npos);
  CHECK(!std::filesystem::exists(d.path / "t.json"));
}

TEST_CASE("cli: check's exit codes and JSON") {
  TempDir d;
  Run r = scanviz("check --json " + std::string(SCANVIZ_SOURCE_DIR) + "/kernels/block/cuda/sklansky.cu", d.path);
  CHECK(r.code == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["verdict"] == "correct");
  CHECK(j["matches"] == "sklansky");
  CHECK(j["cases"].size() > 100);
  CHECK(j["hazards"].empty());
  CHECK(j["errors"].empty());
  r = scanviz("check --json " + std::string(SCANVIZ_SOURCE_DIR) + "/tests/kernels/missing_barrier.cu", d.path);
  CHECK(r.code == 1);
  j = nlohmann::json::parse(r.out);
  CHECK(j["verdict"] == "wrong");
  CHECK(j["hazards"][0]["line_write"] == 9);
  CHECK(j["hazards"][0]["threads"].size() == 2);
  r = scanviz("check " + std::string(SCANVIZ_SOURCE_DIR) + "/tests/kernels/barrier_in_branch.cu", d.path);
  CHECK(r.code == 1);  // a fault found by running it: wrong
  CHECK(r.out.find("barrier-divergence at line 12") != std::string::npos);
  write_file(d.path / "bad.cu", "__global__ void k(float* a, float* b) { goto done; }\n");
  r = scanviz("check --json bad.cu", d.path);
  CHECK(r.code == 2);
  j = nlohmann::json::parse(r.out);
  CHECK(j["verdict"] == "error");
  CHECK(j["errors"][0]["kind"] == "unsupported");
  CHECK(j["errors"][0]["line"] == 1);
}

TEST_CASE("cli: trace --kernel --grid records every block, and show, stats and render read it") {
  TempDir d;
  Run r = scanviz("trace --kernel " + kAssets + "pmpp_kogge_stone_double_buffer.cu --n 24 --block 8 --out t.json", d.path);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("3 blocks one after another") != std::string::npos);
  CHECK(r.out.find("outcome correct (each block's section scanned on its own)") != std::string::npos);
  r = scanviz("stats t.json --json", d.path);
  REQUIRE(r.code == 0);
  const auto stats = nlohmann::json::parse(r.out);
  CHECK(stats["outcome"] == "correct");
  CHECK(stats["operations"] == 3 * (8 * 3 - 7));  // Kogge-Stone's n log n - (n - 1) in each block of 8
  r = scanviz("show t.json", d.path);
  CHECK(r.code == 0);
  r = scanviz("render t.json --step 3 --out s.svg", d.path);
  CHECK(r.code == 0);
  CHECK(std::filesystem::file_size(d.path / "s.svg") > 0);
  // --grid alone picks the block: 20 elements in 3 blocks of 8 (4 threads, two elements each).
  r = scanviz("trace --kernel " + kAssets + "blelloch_exclusive.cu --n 20 --grid 3 --exclusive --out b.json", d.path);
  REQUIRE(r.code == 0);
  r = scanviz("stats b.json --json", d.path);
  CHECK(nlohmann::json::parse(r.out)["outcome"] == "correct");
  // A grid that leaves elements out, one past n, and --grid without --kernel: one line, exit 2, no file.
  for (const char* args : {"--kernel K --n 20 --block 4 --grid 4", "--kernel K --n 20 --block 4 --grid 7", "--algo kogge-stone --n 8 --grid 2"}) {
    std::string a = args;
    if (const auto k = a.find(" K "); k != std::string::npos) a.replace(k + 1, 1, kAssets + "cs677_brent_kung.cu");
    CAPTURE(a);
    r = scanviz("trace " + a + " --out g.json", d.path);
    CHECK(r.code == 2);
    CHECK(lines(r.err) == 1);
    CHECK(!std::filesystem::exists(d.path / "g.json"));
  }
}

TEST_CASE("cli: check --gpu without nvcc or a device says so in one line and changes nothing else") {
  TempDir d;
  const std::string kernel = std::string(SCANVIZ_SOURCE_DIR) + "/kernels/block/cuda/sklansky.cu";
  const Run plain = scanviz("check " + kernel, d.path);
  const Run without = sv_test::run_shell("SCANVIZ_NVCC='" + (d.path / "no-nvcc").string() + "' " + sv_test::scanviz_exe() + " check --gpu " + kernel, d.path);
  CHECK(without.code == plain.code);
  CHECK(without.out.rfind(plain.out, 0) == 0);  // the card as without --gpu, then one line
  CHECK(without.out.substr(plain.out.size()) == "gpu: not run: no nvcc (on PATH, in /usr/local/cuda/bin, or $SCANVIZ_NVCC)\n");
}
