// The corpus of whole student files (tests/fixtures/whole_files/): each in the shape of a kind of real
// file (a course assignment, a PMPP exercise, a GPU Gems port, a blog's benchmark), correct or with a
// bug students make. Their verdicts, kinds and lines were established by reading them and, for every
// file, by running it on an H200 under compute-sanitizer (MANIFEST.md says what each showed there).
// Every file is read by the front end; those launched as a kernel are graded by `check` and must get
// the verdict, the kind of finding and a line the table says. What scanviz does not find yet is named
// below, so that a file moving from one list to the other is a change someone made on purpose.
#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "cuda_subset/check.hpp"
#include "cuda_subset/parser.hpp"
#include "run/launch.hpp"

using namespace sv;

namespace {

const std::string kFolder = std::string(SCANVIZ_SOURCE_DIR) + "/tests/fixtures/whole_files/";

struct Row {
  std::string file, launch, scan, verdict;
  std::vector<std::string> kinds;
  std::set<std::uint32_t> lines;
};

std::vector<std::string> split(const std::string& s, char by) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string item; std::getline(in, item, by);) out.push_back(item);
  return out;
}

std::vector<Row> rows() {
  std::ifstream in(kFolder + "expected.tsv");
  std::vector<Row> out;
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    const std::vector<std::string> f = split(line, '\t');
    REQUIRE(f.size() == 6);
    Row r{f[0], f[1], f[2], f[3], {}, {}};
    if (f[4] != "-") r.kinds = split(f[4], ',');
    if (f[5] != "-")
      for (const std::string& l : split(f[5], ',')) r.lines.insert(static_cast<std::uint32_t>(std::stoul(l)));
    out.push_back(r);
  }
  return out;
}

std::string text_of(const std::string& file) {
  std::ifstream in(kFolder + file);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Files scanviz refuses by name for another construct it does not read yet (none now).
const std::set<std::string> kDeviceVariables = {};

}  // namespace

TEST_CASE("student files: the corpus holds at least 30 files of 20 kinds, each one read by the front end") {
  const std::vector<Row> all = rows();
  CHECK(all.size() >= 30);
  int read = 0;
  for (const Row& r : all) {
    CAPTURE(r.file);
    const std::string text = text_of(r.file);
    REQUIRE(!text.empty());
        const std::string entry = launch_entry(parse_launch(r.launch));  // a kernel (an instance of a template), or a host function
    const cuda::Kernel k = [&] {
      try {
        return cuda::parse_kernel(text, r.file, {}, entry);
      } catch (const cuda::KernelError& e) {
        if (entry.empty() && std::string(e.what()).find("kernels (") != std::string::npos) return cuda::Kernel{};  // several kernels, no launch
        if (kDeviceVariables.count(r.file)) {
          CHECK(std::string(e.what()).find("not read") != std::string::npos);
          return cuda::Kernel{};
        }
        FAIL("refused: " << std::string(e.what()));
        return cuda::Kernel{};
      }
    }();
    if (kDeviceVariables.count(r.file)) continue;
    if (!entry.empty()) CHECK(k.name == entry);
    ++read;
  }
  CHECK(read == static_cast<int>(all.size() - kDeviceVariables.size()));
}

TEST_CASE("student files, launched as a kernel or from their host function: check gives the verdict, the kind and a line the table says") {
  int graded = 0, hosts = 0;
  for (const Row& r : rows()) {
    if (kDeviceVariables.count(r.file)) continue;
    hosts += r.launch.find("<<<") == std::string::npos;
    CAPTURE(r.file);
    cuda::CheckOptions o;
    o.launch = parse_launch(r.launch);
    o.exclusive = r.scan == "exclusive";
    const cuda::CheckReport report = cuda::check_kernel(r.file, text_of(r.file), o);
    std::string seen;
    for (const cuda::CheckError& e : report.errors) seen += e.severity + " " + e.kind + "@" + std::to_string(e.line) + "; ";
    for (const cuda::CheckHazard& h : report.hazards) seen += "hazard " + h.buffer + "@" + std::to_string(h.line_write) + "/" + std::to_string(h.line_read) + "; ";
    CAPTURE(seen);
    ++graded;
    CHECK(report.verdict == r.verdict);
    const auto at_a_line = [&](std::uint32_t line) { return r.lines.empty() || r.lines.count(line) > 0; };
    for (const std::string& kind : r.kinds) {
      CAPTURE(kind);
      if (kind == "race-shared" || kind == "race-global" || kind == "race-between-blocks") {
        const bool between = kind == "race-between-blocks";
        CHECK(std::any_of(report.hazards.begin(), report.hazards.end(), [&](const cuda::CheckHazard& h) {
          return (h.block_first >= 0) == between && (!between || h.block_first != h.block_second) &&
                 (at_a_line(h.line_write) || at_a_line(h.line_read) || at_a_line(h.line_second));
        }));
      } else if (kind == "wrong-output") {
        CHECK(std::any_of(report.cases.begin(), report.cases.end(), [](const cuda::CheckCase& c) { return c.outcome == "wrong"; }));
      } else {
        const std::string want = kind == "endless-loop" ? "budget" : kind == "undefined-behaviour" ? "runtime" : kind.substr(kind.find(':') + 1);
        const std::string severity = kind.rfind("warning:", 0) == 0 ? "warning" : "error";
        CHECK(std::any_of(report.errors.begin(), report.errors.end(), [&](const cuda::CheckError& e) {
          return e.kind == want && e.severity == severity && at_a_line(e.line);
        }));
      }
    }
  }
  CHECK(graded >= 30);
  CHECK(hosts >= 11);  // the hierarchical, multi-pass and host-loop files run from their host functions
}
