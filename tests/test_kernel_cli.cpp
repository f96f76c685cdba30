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
  CHECK(r.code == 2);
  CHECK(r.out.find("barrier-divergence at line 12") != std::string::npos);
  write_file(d.path / "bad.cu", "__global__ void k(float* a, float* b) { switch (1) { } }\n");
  r = scanviz("check --json bad.cu", d.path);
  CHECK(r.code == 2);
  j = nlohmann::json::parse(r.out);
  CHECK(j["verdict"] == "error");
  CHECK(j["errors"][0]["kind"] == "unsupported");
  CHECK(j["errors"][0]["line"] == 1);
}
