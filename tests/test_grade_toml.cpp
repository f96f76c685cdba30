// TOML rubrics: the same rubric written in JSON and in TOML reads to the same items and grades every
// kernel alike; a mistake in TOML is one line naming the file's line; check --rubric R.toml refuses
// a bad one before grading and writes nothing.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "cuda_subset/check.hpp"
#include "grade/grade.hpp"
#include "grade/rubric.hpp"
#include "own_kernel_helpers.hpp"
#include "run_command.hpp"

using namespace sv;

namespace {

// The first fenced block of `language` in `doc`.
std::string fenced(const std::string& doc, const std::string& language) {
  const std::string open = "```" + language + "\n";
  const auto start = doc.find(open);
  REQUIRE(start != std::string::npos);
  const auto end = doc.find("```", start + open.size());
  return doc.substr(start + open.size(), end - start - open.size());
}

std::string refusal(const std::string& text, const std::string& name = "r.toml") {
  try {
    (void)grade::parse_rubric(text, name);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

void same_rubric(const grade::Rubric& a, const grade::Rubric& b) {
  CHECK(a.title == b.title);
  CHECK(a.scan == b.scan);
  CHECK(a.float_tolerance == b.float_tolerance);
  REQUIRE(a.launches.size() == b.launches.size());
  for (std::size_t i = 0; i < a.launches.size(); ++i) {
    CHECK(a.launches[i].launch == b.launches[i].launch);
    CHECK(a.launches[i].scan == b.launches[i].scan);
  }
  REQUIRE(a.items.size() == b.items.size());
  for (std::size_t i = 0; i < a.items.size(); ++i) {
    const grade::RubricItem &x = a.items[i], &y = b.items[i];
    CHECK(x.id == y.id);
    CHECK(x.name == y.name);
    CHECK(x.check == y.check);
    CHECK(x.points == y.points);
    CHECK(x.hidden == y.hidden);
    CHECK(x.partial == y.partial);
    CHECK(x.algorithm == y.algorithm);
    CHECK(x.factor == y.factor);
    CHECK(x.against == y.against);
  }
}

// Each kernel's grade by both rubrics: the same verdict, score and items, item by item with their text.
void same_grades(const grade::Rubric& json, const grade::Rubric& toml, const std::string& scan) {
  for (const char* file : {"tests/kernels/correct_kogge_stone.cu", "assets/kernels/pmpp_kogge_stone_incorrect.cu", "tests/kernels/off_by_one_load.cu",
                           "kernels/block/cuda/brent_kung.cu"}) {
    CAPTURE(file);
    const cuda::CheckReport r = cuda::check_kernel(file, sv_test::read_source(file), {});
    const grade::Grade a = grade::grade_report(r, json, scan), b = grade::grade_report(r, toml, scan);
    CHECK(a.verdict == b.verdict);
    CHECK(a.score == b.score);
    CHECK(a.max_score == b.max_score);
    REQUIRE(a.items.size() == b.items.size());
    for (std::size_t i = 0; i < a.items.size(); ++i) {
      CHECK(a.items[i].passed == b.items[i].passed);
      CHECK(a.items[i].score == b.items[i].score);
      CHECK(a.items[i].summary == b.items[i].summary);
      CHECK(a.items[i].lines == b.items[i].lines);
    }
  }
}

}  // namespace

TEST_CASE("toml rubric: the default rubric in TOML (graders/default_rubric.toml) reads as the embedded JSON one and grades alike") {
  const grade::Rubric json = grade::load_rubric("");
  const grade::Rubric toml = grade::load_rubric(std::string(SCANVIZ_SOURCE_DIR) + "/graders/default_rubric.toml");
  same_rubric(json, toml);
  CHECK(toml.max_score() == 10);
  same_grades(json, toml, "either");
}

TEST_CASE("toml rubric: docs/grading.md's example in JSON and in TOML read alike and give the same grades") {
  const std::string doc = sv_test::read_source("docs/grading.md");
  const grade::Rubric json = grade::parse_rubric(fenced(doc, "json"), "example.json");
  const grade::Rubric toml = grade::parse_rubric(fenced(doc, "toml"), "example.toml");
  same_rubric(json, toml);
  CHECK(toml.find("brent-kung")->hidden);
  CHECK(toml.find("correct")->partial);
  same_grades(json, toml, "inclusive");
}

TEST_CASE("toml rubric: told by its name's extension, else by its text, with launches as strings and inline tables") {
  const std::string toml = "scan = \"exclusive\"\nlaunches = [\"k<<<1, 8>>>(in, out, n)\", {launch = \"j<<<1, 8>>>(in, out, n)\", scan = \"inclusive\"}]\n"
                           "[[items]]\nid = \"a\"\ncheck = \"outputs\"\npoints = 2.5\n";
  for (const char* name : {"r.toml", "rubric", "r.txt"}) {
    const grade::Rubric r = grade::parse_rubric(toml, name);
    REQUIRE(r.launches.size() == 2);
    CHECK(r.launches[0].scan == "exclusive");
    CHECK(r.launches[1].scan == "inclusive");
    CHECK(r.max_score() == 2.5);
  }
  // A .json name is JSON whatever its text, so TOML there is refused as JSON.
  CHECK(refusal(toml, "r.json").find("rubric r.json: not JSON") == 0);
  // JSON text under a name without .toml reads as JSON.
  CHECK(grade::parse_rubric(R"({"items": [{"id": "a", "check": "outputs", "points": 1}]})", "rubric").max_score() == 1);
}

TEST_CASE("toml rubric: each mistake is one line naming the file, the line it is at and the problem") {
  const std::string items = "[[items]]\nid = \"a\"\ncheck = \"outputs\"\npoints = 1\n";
  // Not TOML: the line and column of the syntax error.
  const std::string syntax = refusal("title = \"x\"\nscan = \n" + items);
  CHECK(syntax.find("rubric r.toml:2: not TOML: ") == 0);
  CHECK(syntax.find("column") != std::string::npos);
  // The same checks as JSON's, at the key's line.
  CHECK(refusal("title = \"x\"\n" + items + "\n[[items]]\nid = \"b\"\ncheck = \"no-race\"\npoints = 1\n")
            .find("rubric r.toml:9: items[1] (b): unknown check 'no-race' (outputs,") == 0);
  CHECK(refusal(items + "[[items]]\nid = \"b\"\ncheck = \"no-races\"\n\npoints = -1\n").find("rubric r.toml:9: items[1] (b): 'points' is -1, outside 0") == 0);
  CHECK(refusal("itemz = 1\n" + items).find("rubric r.toml:1: unknown key 'itemz'") == 0);
  CHECK(refusal(items + "[[items]]\ncheck = \"outputs\"\nid = \"a\"\npoints = 1\n").find("rubric r.toml:7: items[1]: a second item 'a'") == 0);
  CHECK(refusal("scan = \"both\"\n" + items).find("rubric r.toml:1: scan 'both' is not inclusive") == 0);
  CHECK(refusal("launch = \"k<<<1>>>(in\"\n" + items).find("rubric r.toml:1: launch: launch 'k<<<1>>>(in'") == 0);
  CHECK(refusal("title = 1979-05-27\n" + items).find("rubric r.toml:1: 'title' is a date or time") == 0);
  CHECK(refusal("title = 3\n" + items).find("rubric r.toml:1: 'title' is not a string") == 0);
  CHECK(refusal("items = [1]\n").find("rubric r.toml:1: items[0]: not a table") == 0);
  CHECK(refusal("title = \"no items\"\n").find("rubric r.toml: 'items' is not a list of items") == 0);
  for (const std::string& line : {syntax, refusal("title = \"a\nb\"\n" + items), refusal("[[items]]\nid = \"A\"\n")}) {
    CHECK_FALSE(line.empty());
    CHECK(line.find('\n') == std::string::npos);
  }
}

TEST_CASE("toml rubric: check --rubric R.toml grades by it, and a bad one is one line, exit code 2, nothing written") {
  sv_test::TempDir dir;
  const std::string kernel = "'" SCANVIZ_SOURCE_DIR "/assets/kernels/pmpp_kogge_stone_incorrect.cu'";
  std::ofstream(dir.path / "points.toml") << "[[items]]\nid = \"race-free\"\ncheck = \"no-races\"\npoints = 7\n";
  const sv_test::Run graded = sv_test::scanviz("check " + kernel + " --rubric points.toml --format json", dir.path);
  CHECK(graded.code == 1);
  const nlohmann::json j = nlohmann::json::parse(graded.out);
  CHECK(j["rubric"]["max_score"] == 7);
  CHECK(j["rubric"]["score"] == 0);
  std::ofstream(dir.path / "bad.toml") << "[[items]]\nid = \"race-free\"\ncheck = \"no-race\"\npoints = 7\n";
  const sv_test::Run bad = sv_test::scanviz("check " + kernel + " --rubric bad.toml --format gradescope --out results.json", dir.path);
  CHECK(bad.code == 2);
  CHECK(bad.out.empty());
  CHECK(sv_test::lines(bad.err) == 1);
  CHECK(bad.err.find("rubric bad.toml:3: items[0] (race-free): unknown check 'no-race'") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.path / "results.json"));
}
