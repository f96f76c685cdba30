// A class graded in one command (`scanviz check FOLDER --rubric R --jobs 2 --summary T.csv`): the
// whole student files of tests/fixtures/whole_files/ (their launches and scans given by the rubric,
// as a lecturer gives them), the seeds' kernels of assets/kernels/, the planted bugs of tests/kernels/,
// and three that must each end as their own row: one that crashes its process, one over the size
// limit, one that loops without end; and a submission that runs past a small --timeout, in a class of
// two of its own (a 1024-thread file can take its 20 s on a busy machine, so the big class keeps the
// default). Every row's verdict is checked
// against the verdict established for the file beforehand: expected.tsv for the whole files, the
// reading of each seed kernel below, the `@bug` mark of each planted one.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <map>
#include <set>

#include "run_command.hpp"
#include "skips.hpp"

using namespace sv_test;

namespace {

const fs::path kSource = SCANVIZ_SOURCE_DIR;

std::vector<std::string> split(const std::string& s, char by) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string item; std::getline(in, item, by);) out.push_back(item);
  return out;
}

// The CSV's first section: file -> its fields (file, verdict, score, max_score, first_finding, ...),
// a quoted field read as one.
std::map<std::string, std::vector<std::string>> table_rows(const std::string& csv) {
  std::map<std::string, std::vector<std::string>> rows;
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line) && !line.empty()) {
    std::vector<std::string> f;
    std::string cell;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') cell += '"', ++i;
      else if (c == '"') quoted = !quoted;
      else if (c == ',' && !quoted) f.push_back(cell), cell.clear();
      else cell += c;
    }
    f.push_back(cell);
    rows[fs::path(f[0]).filename().string()] = f;
  }
  return rows;
}

// A section of the CSV after the first: its first column -> the count of submissions.
std::map<std::string, int> counts(const std::string& csv, const std::string& header) {
  std::map<std::string, int> out;
  const auto at = csv.find("\n" + header + ",submissions\n");
  if (at == std::string::npos) return out;
  std::istringstream in(csv.substr(at + header.size() + 14));
  for (std::string line; std::getline(in, line) && !line.empty();) {
    const auto comma = line.rfind(',');
    out[line.substr(0, comma)] = std::stoi(line.substr(comma + 1));
  }
  return out;
}

// Whole files the check does not grade as the GPU does yet (test_student_files.cpp names them): a
// race between blocks that run one after another here, a signed overflow that wraps; and a template
// launch, which is not read.
const std::set<std::string> kNotYet = {"chained_scan_reads_previous_block_no_flag.cu", "domino_scan_missing_threadfence.cu",
                                       "ks_stride_until_overflow.cu", "blelloch_block_template_unpadded.cu"};

// The seeds' kernels as check runs a file without a launch (blocks of 8 threads), by reading them: slide
// 14's single-buffer Kogge-Stone races; the blog's two buffers race on their flag; slide 19 loads
// input[i] without a bound, out of bounds below a full block; Blelloch and the CS 677 Brent-Kung are
// right (the textbook tail's reads of unloaded cells reach no output).
const std::map<std::string, std::string> kSeeds = {{"pmpp_kogge_stone_incorrect.cu", "wrong"},
                                                   {"blog_kogge_stone_t0_t1.cu", "wrong"},
                                                   {"pmpp_kogge_stone_double_buffer.cu", "wrong"},
                                                   {"blelloch_exclusive.cu", "correct"},
                                                   {"cs677_brent_kung.cu", "correct"}};

// Planted kernels left out: two ask for an exclusive scan, which a rubric would say for the kernel
// name `scan` they share with the others; one's mark is a harmless read (a warning, so correct).
const std::set<std::string> kPlantedOut = {"inclusive_not_exclusive.cu", "wrong_identity.cu", "uninitialized_read.cu"};

// A correct scan that spends its time in a loop: 8 threads, 150,000 rounds each, every case of a check
// within the statements budget, so the check runs every case and takes far longer than --timeout.
const char* kSlow = R"(#define BLOCK_DIM 8
__global__ void scan(float* in, float* out, unsigned int n) {
    __shared__ float XY[BLOCK_DIM];
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    XY[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    int spin = 0;
    for (int k = 0; k < 150000; ++k) spin += k & 1;
    __syncthreads();
    if (threadIdx.x == 0 && spin >= 0)
        for (unsigned int j = 1; j < blockDim.x; ++j) XY[j] += XY[j - 1];
    __syncthreads();
    if (i < n) out[i] = XY[threadIdx.x];
}
)";

bool has_script() { return fs::exists("/usr/bin/script"); }

}  // namespace

TEST_CASE("class: over 30 submissions graded in one command, each row the verdict established for its file, a crash, an oversized file and an endless loop each their own row") {
  TempDir dir;
  const fs::path folder = dir.path / "class";
  fs::create_directories(folder);
  std::map<std::string, std::string> expected;  // file name in the class -> verdict
  std::map<std::string, std::string> kinds;     // expected.tsv's kinds, for the counts

  nlohmann::json rubric = nlohmann::json::parse(slurp(kSource / "assets/grading/default_rubric.json"));
  rubric["launches"] = nlohmann::json::array();
  std::ifstream tsv(kSource / "tests/fixtures/whole_files/expected.tsv");
  std::string line;
  std::getline(tsv, line);
  while (std::getline(tsv, line)) {
    const std::vector<std::string> f = split(line, '\t');
    REQUIRE(f.size() == 6);
    if (f[1].find("<<<") == std::string::npos || kNotYet.count(f[0])) continue;  // host entries are not read yet
    fs::copy_file(kSource / "tests/fixtures/whole_files" / f[0], folder / f[0]);
    expected[f[0]] = f[3];
    kinds[f[0]] = f[4];
    rubric["launches"].push_back({{"launch", f[1]}, {"scan", f[2]}});
  }
  for (const auto& [file, verdict] : kSeeds) {
    fs::copy_file(kSource / "assets/kernels" / file, folder / file);
    expected[file] = verdict;
  }
  for (const auto& e : fs::directory_iterator(kSource / "tests/kernels")) {
    const std::string name = e.path().filename().string();
    if (kPlantedOut.count(name)) continue;
    const std::string text = slurp(e.path());
    fs::copy_file(e.path(), folder / name);
    expected[name] = text.find("// @bug ") != std::string::npos ? "wrong" : "correct";
  }
  fs::copy_file(kSource / "tests/kernels/correct_kogge_stone.cu", folder / "crash_me.cu");
  std::ofstream(folder / "oversized.cu") << slurp(kSource / "tests/kernels/correct_kogge_stone.cu") << "// " << std::string(300 * 1024, 'x') << "\n";
  std::ofstream(dir.path / "rubric.json") << rubric.dump(2);
  const std::size_t files = expected.size() + 2;
  REQUIRE(files >= 35);

  const auto start = std::chrono::steady_clock::now();
  const Run r = run_shell("SCANVIZ_CHECK_TEST_ABORT=crash_me " + scanviz_exe() + " check class --rubric rubric.json --jobs 2 --summary table.csv", dir.path);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CAPTURE(r.err);
  CHECK(r.code == 0);
  CHECK(r.err.empty());  // no terminal: no progress line
  const std::string csv = slurp(dir.path / "table.csv");
  const auto rows = table_rows(csv);
  CHECK(rows.size() == files);
  for (const auto& [file, verdict] : expected) {
    CAPTURE(file);
    REQUIRE(rows.count(file));
    const std::vector<std::string>& row = rows.at(file);
    CAPTURE(row[4]);
    CHECK(row[1] == verdict);
    CHECK(std::stod(row[2]) <= std::stod(row[3]));
    CHECK((verdict == "correct") == (std::stod(row[2]) == std::stod(row[3])));
    CHECK((row[4] == "-") == (verdict == "correct"));
  }
  REQUIRE(rows.count("crash_me.cu"));
  CHECK(rows.at("crash_me.cu")[1] == "error");
  CHECK(rows.at("crash_me.cu")[4].find("crashed") == 0);
  CHECK(rows.at("crash_me.cu")[4].find("signal 6") != std::string::npos);
  REQUIRE(rows.count("oversized.cu"));
  CHECK(rows.at("oversized.cu")[1] == "error");
  CHECK(rows.at("oversized.cu")[4].find("more than 262144 bytes") != std::string::npos);
  CHECK(rows.at("endless_loop.cu")[4].find("budget at line") == 0);  // exhausted its budget: wrong, its own row
  CHECK(seconds < 600);

  // The counts across the class: each failure kind once; every whole file whose table says it races in
  // shared memory is among the races counted.
  const std::map<std::string, int> by_kind = counts(csv, "finding_kind");
  CHECK(by_kind.at("crashed") == 1);
  CHECK(by_kind.at("refused") == 1);
  int racing = 0;
  for (const auto& [file, k] : kinds) racing += k.find("race-shared") != std::string::npos;
  CHECK(by_kind.at("race (shared memory)") >= racing);
  const std::map<std::string, int> matched = counts(csv, "algorithm_matched");
  CHECK(matched.count("brent-kung"));
  int graded = 0;
  for (const auto& [name, n] : matched) graded += n;
  CHECK(graded == static_cast<int>(files) - 2);  // every row but the two without a card
  // The same table as Markdown on standard output.
  CHECK(r.out.find(std::to_string(files) + " submissions: ") != std::string::npos);
  CHECK(r.out.find("| crash_me.cu |") == std::string::npos);  // rows name the files as given
  CHECK(r.out.find("class/crash_me.cu | error |") != std::string::npos);
}

TEST_CASE("class: a submission that runs past --timeout is stopped there and is its own row, the other graded") {
  TempDir dir;
  fs::create_directories(dir.path / "class");
  std::ofstream(dir.path / "class/slow_loop.cu") << kSlow;  // about 45 s of checking on this machine
  fs::copy_file(kSource / "tests/kernels/correct_kogge_stone.cu", dir.path / "class/quick.cu");
  const auto start = std::chrono::steady_clock::now();
  const Run r = scanviz("check class --jobs 2 --timeout 3 --summary table.csv", dir.path);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(r.code == 0);
  const auto rows = table_rows(slurp(dir.path / "table.csv"));
  REQUIRE(rows.count("slow_loop.cu"));
  CHECK(rows.at("slow_loop.cu")[1] == "error");
  CHECK(rows.at("slow_loop.cu")[4] == "timed out: stopped after 3 s (--timeout)");
  CHECK(std::stod(rows.at("slow_loop.cu")[6]) < 10);
  REQUIRE(rows.count("quick.cu"));
  CHECK(rows.at("quick.cu")[1] == "correct");
  CHECK(seconds < 15);
  CHECK(counts(slurp(dir.path / "table.csv"), "finding_kind").at("timed out") == 1);
}

TEST_CASE("class: a progress line where stderr is a terminal, none where it is not" *
          sv_test::skip_unless(has_script, "no script(1) to give the program a terminal")) {
  TempDir dir;
  fs::create_directories(dir.path / "class");
  for (const char* k : {"correct_kogge_stone.cu", "missing_barrier.cu", "off_by_one_load.cu"})
    fs::copy_file(kSource / "tests/kernels" / k, dir.path / "class" / k);
  // script(1) runs the command on a pseudo-terminal and copies what it writes there (stderr) to its own output.
  const Run tty = run_shell("script -qec \"" + scanviz_exe() + " check class --jobs 2 > table.md\" /dev/null", dir.path);
  CHECK(tty.code == 0);
  CHECK(tty.out.find("\rcheck: [") != std::string::npos);
  CHECK(tty.out.find("3 of 3 graded, 0 running") != std::string::npos);
  CHECK(slurp(dir.path / "table.md").find("3 submissions: ") != std::string::npos);
  const Run pipe = scanviz("check class --jobs 2", dir.path);
  CHECK(pipe.err.empty());
  CHECK(pipe.out.find("\rcheck") == std::string::npos);
}

TEST_CASE("class: bad options are one line before any submission is graded") {
  TempDir dir;
  const std::string two = "'" + (kSource / "tests/kernels/correct_kogge_stone.cu").string() + "' '" + (kSource / "tests/kernels/missing_barrier.cu").string() + "'";
  const auto refused = [&](const std::string& args, const std::string& says) {
    CAPTURE(args);
    const Run r = scanviz("check " + two + " " + args, dir.path);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(lines(r.err) == 1);
    CHECK(r.err.find(says) != std::string::npos);
    CHECK(dir.files().empty());
  };
  refused("--summary table.txt", "--summary table.txt: the name ends in .csv or .md");
  refused("--format gradescope", "a class writes its table with --summary");
  refused("--only correct", "--only grades one submission");
  refused("--timeout 0 --summary t.csv", "--timeout");
  refused("--rubric nope.json --summary t.csv", "rubric nope.json");
  fs::create_directories(dir.path / "empty");
  const Run empty = scanviz("check empty " + two, dir.path);
  CHECK(empty.code == 2);
  CHECK(empty.err.find("empty: a folder without .cu files") != std::string::npos);
}
