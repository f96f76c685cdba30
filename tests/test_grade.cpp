// Rubrics and the graded card: the default rubric, a bad rubric as one line naming the problem, each
// check over real report cards, and the Gradescope and JUnit forms of a grade.
#include <doctest/doctest.h>

#include <algorithm>

#include "cuda_subset/check.hpp"
#include "grade/grade.hpp"
#include "grade/grade_formats.hpp"
#include "grade/rubric.hpp"
#include "own_kernel_helpers.hpp"

using namespace sv;

namespace {

cuda::CheckReport check_file(const std::string& relative, bool exclusive = false) {
  cuda::CheckOptions o;
  o.exclusive = exclusive;
  return cuda::check_kernel(relative, sv_test::read_source(relative), o);
}

const grade::ItemResult& item(const grade::Grade& g, const std::string& id) {
  const auto it = std::find_if(g.items.begin(), g.items.end(), [&](const grade::ItemResult& i) { return i.item.id == id; });
  REQUIRE(it != g.items.end());
  return *it;
}

std::string refusal(const std::string& text) {
  try {
    (void)grade::parse_rubric(text, "r.json");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

const char* kItems = R"("items": [{"id": "correct", "check": "outputs", "points": 1}])";

}  // namespace

TEST_CASE("rubric: the default one is embedded, with three items worth 10 points") {
  const grade::Rubric r = grade::load_rubric("");
  CHECK(r.source == "default rubric");
  REQUIRE(r.items.size() == 3);
  CHECK(r.max_score() == 10);
  CHECK(r.find("race-free"));
  CHECK(r.find("correct")->check == "outputs");
  CHECK(r.scan == "either");
  CHECK(r.float_tolerance == 1);
}

TEST_CASE("rubric: each mistake in a rubric is one line that names the file and the problem") {
  CHECK(refusal("{").find("rubric r.json: not JSON") == 0);
  CHECK(refusal("[]").find("not a JSON object") != std::string::npos);
  CHECK(refusal(R"({"itemz": []})").find("unknown key 'itemz'") != std::string::npos);
  CHECK(refusal(R"({"items": []})").find("'items' is not a list of items") != std::string::npos);
  CHECK(refusal(R"({"items": [{"id": "a", "check": "no-race", "points": 1}]})").find("unknown check 'no-race'") != std::string::npos);
  CHECK(refusal(R"({"items": [{"id": "a", "check": "outputs"}]})").find("no 'points'") != std::string::npos);
  CHECK(refusal(R"({"items": [{"id": "a", "check": "outputs", "points": -1}]})").find("'points'") != std::string::npos);
  CHECK(refusal(R"({"items": [{"id": "A b", "check": "outputs", "points": 1}]})").find("'id'") != std::string::npos);
  CHECK(refusal(R"({"items": [{"id": "a", "check": "outputs", "points": 1}, {"id": "a", "check": "no-races", "points": 1}]})").find("a second item 'a'") !=
        std::string::npos);
  CHECK(refusal(R"({"items": [{"id": "a", "check": "matches", "algorithm": "bogo", "points": 1}]})").find("'bogo' is not a race-free block algorithm") !=
        std::string::npos);
  CHECK(refusal(R"({"items": [{"id": "a", "check": "matches", "points": 1}]})").find("names an 'algorithm'") != std::string::npos);
  CHECK(refusal(R"({"items": [{"id": "a", "check": "scan", "points": 1}]})").find("needs the rubric's 'scan'") != std::string::npos);
  CHECK(refusal(std::string(R"({"scan": "both", )") + kItems + "}").find("scan 'both'") != std::string::npos);
  CHECK(refusal(std::string(R"({"launch": "k<<<1>>>(in", )") + kItems + "}").find("launch 'k<<<1>>>(in'") != std::string::npos);
  CHECK(refusal(std::string(R"({"float_tolerance": 0, )") + kItems + "}").find("'float_tolerance'") != std::string::npos);
  for (const std::string& line : {refusal("{"), refusal(R"({"itemz": []})")}) CHECK(line.find('\n') == std::string::npos);
  // A well-formed one with every check reads.
  const grade::Rubric r = grade::parse_rubric(R"J({"scan": "exclusive", "launches": ["k<<<1, 8>>>(in, out, n)", {"launch": "j<<<1, 8>>>(in, out, n)", "scan": "inclusive"}],
    "items": [{"id": "a", "check": "outputs", "points": 2, "partial": true}, {"id": "b", "check": "scan", "points": 1},
              {"id": "c", "check": "work", "algorithm": "brent-kung", "factor": 1.5, "points": 1}, {"id": "d", "check": "gpu-time", "against": "copy", "factor": 3, "points": 1, "hidden": true}]})J",
                                              "r.json");
  CHECK(r.launches.size() == 2);
  CHECK(r.launches[0].scan == "exclusive");
  CHECK(r.launches[1].scan == "inclusive");
  CHECK(r.max_score() == 5);
  CHECK(r.find("d")->hidden);
}

TEST_CASE("rubric: the example of docs/grading.md and the Gradescope autograder's rubric read") {
  const std::string doc = sv_test::read_source("docs/grading.md");
  const auto start = doc.find("```json\n");
  REQUIRE(start != std::string::npos);
  const auto end = doc.find("```", start + 8);
  const grade::Rubric example = grade::parse_rubric(doc.substr(start + 8, end - start - 8), "docs/grading.md");
  CHECK(example.items.size() == 6);
  CHECK(example.launches.size() == 1);
  CHECK(example.find("brent-kung")->hidden);
  const grade::Rubric gradescope = grade::load_rubric(std::string(SCANVIZ_SOURCE_DIR) + "/graders/gradescope/rubric.json");
  CHECK(gradescope.scan == "inclusive");
  CHECK(gradescope.max_score() == 11);
}

TEST_CASE("grade: a correct kernel gets every point, a racy one loses the race item with both lines and threads") {
  const grade::Rubric rubric = grade::load_rubric("");
  const grade::Grade good = grade::grade_report(check_file("tests/kernels/correct_kogge_stone.cu"), rubric, "either");
  CHECK(good.verdict == "correct");
  CHECK(good.score == 10);
  CHECK(std::all_of(good.items.begin(), good.items.end(), [](const grade::ItemResult& i) { return i.passed; }));

  const cuda::CheckReport racy = check_file("assets/kernels/pmpp_kogge_stone_incorrect.cu");
  REQUIRE(!racy.hazards.empty());
  const grade::Grade bad = grade::grade_report(racy, rubric, "either");
  CHECK(bad.verdict == "wrong");
  const grade::ItemResult& race = item(bad, "race-free");
  CHECK_FALSE(race.passed);
  CHECK(race.score == 0);
  REQUIRE(!race.lines.empty());
  CHECK(race.lines.front().find("hazard: ") == 0);
  CHECK(race.lines.front().find("(line " + std::to_string(racy.hazards.front().line_write) + ")") != std::string::npos);
  CHECK(race.lines.front().find("thread " + std::to_string(racy.hazards.front().thread_second)) != std::string::npos);
  const bool faulted = std::any_of(racy.errors.begin(), racy.errors.end(), [](const cuda::CheckError& e) { return e.severity == "error"; });
  CHECK(item(bad, "fault-free").passed == !faulted);
  double sum = 0;
  for (const grade::ItemResult& i : bad.items) sum += i.passed ? i.item.points : 0;
  CHECK(bad.score == sum);
  CHECK(bad.score < bad.max_score);
}

TEST_CASE("grade: faults with their lines, wrong outputs with why, partial points, and a kernel of the other scan") {
  const grade::Rubric rubric = grade::parse_rubric(R"({"scan": "inclusive", "items": [
      {"id": "correct", "check": "outputs", "points": 4, "partial": true}, {"id": "faults", "check": "no-faults", "points": 1},
      {"id": "inclusive", "check": "scan", "points": 1}, {"id": "bk", "check": "matches", "algorithm": "brent-kung", "points": 1},
      {"id": "efficient", "check": "work", "algorithm": "brent-kung", "points": 1}, {"id": "fast", "check": "gpu-time", "points": 1}]})",
                                                   "r.json");
  const cuda::CheckReport oob = check_file("tests/kernels/off_by_one_load.cu");
  const grade::Grade g = grade::grade_report(oob, rubric, "inclusive");
  const grade::ItemResult& faults = item(g, "faults");
  CHECK_FALSE(faults.passed);
  REQUIRE(!oob.errors.empty());
  CHECK(std::any_of(faults.lines.begin(), faults.lines.end(),
                    [&](const std::string& l) { return l.find("at line " + std::to_string(oob.errors.front().line)) != std::string::npos; }));
  const grade::ItemResult& correct = item(g, "correct");
  const auto right = std::count_if(oob.cases.begin(), oob.cases.end(), [](const cuda::CheckCase& c) { return c.outcome == "correct"; });
  CHECK(correct.score == doctest::Approx(4.0 * static_cast<double>(right) / static_cast<double>(oob.cases.size())));
  CHECK_FALSE(item(g, "fast").passed);
  CHECK(item(g, "fast").summary.find("without --gpu") != std::string::npos);

  // Wrong outputs: the case and why, from the symbolic run.
  const cuda::CheckReport ident = check_file("tests/kernels/wrong_identity.cu", true);
  const grade::Grade w = grade::grade_report(ident, rubric, "exclusive");
  const grade::ItemResult& out = item(w, "correct");
  CHECK_FALSE(out.passed);
  CHECK(std::any_of(out.lines.begin(), out.lines.end(), [](const std::string& l) { return l.find("wrong: n = ") == 0; }));
  CHECK(std::any_of(out.lines.begin(), out.lines.end(), [](const std::string& l) { return l.find("why") == 0; }));

  // Brent-Kung: its work and steps, within its bound; Kogge-Stone is over it.
  const grade::Grade bk = grade::grade_report(check_file("kernels/block/cuda/brent_kung.cu"), rubric, "inclusive");
  CHECK(item(bk, "bk").passed);
  CHECK(item(bk, "efficient").passed);
  const grade::Grade ks = grade::grade_report(check_file("tests/kernels/correct_kogge_stone.cu"), rubric, "inclusive");
  CHECK_FALSE(item(ks, "bk").passed);
  CHECK_FALSE(item(ks, "efficient").passed);
  CHECK(item(ks, "efficient").summary.find("over") != std::string::npos);

  // An exclusive scan where the inclusive is asked: told from its outputs, so every output is wrong and the scan item fails.
  const cuda::CheckReport blelloch = check_file("kernels/block/cuda/blelloch.cu");
  REQUIRE(blelloch.exclusive);
  const grade::Grade other = grade::grade_report(blelloch, rubric, "inclusive");
  CHECK(other.verdict == "wrong");
  CHECK_FALSE(item(other, "inclusive").passed);
  CHECK(item(other, "inclusive").summary.find("exclusive") != std::string::npos);
  CHECK_FALSE(item(other, "correct").passed);
  CHECK(item(other, "correct").score == 0);
}

TEST_CASE("gradescope: results.json has the specification's fields and types, a test an item, hidden items after publishing") {
  grade::Rubric rubric = grade::load_rubric("");
  rubric.items[1].hidden = true;
  const cuda::CheckReport racy = check_file("assets/kernels/pmpp_kogge_stone_incorrect.cu");
  const grade::Grade g = grade::grade_report(racy, rubric, "either");
  const nlohmann::json j = grade::gradescope_results(racy, g, 2.4);
  CHECK(j["score"].is_number());
  CHECK(j["score"].get<double>() == g.score);
  CHECK(j["execution_time"].is_number_integer());
  CHECK(j["execution_time"] == 2);
  CHECK(j["output"].is_string());
  CHECK(j["output_format"] == "md");
  CHECK(j["visibility"] == "visible");
  CHECK(j["stdout_visibility"].is_string());
  REQUIRE(j["tests"].is_array());
  REQUIRE(j["tests"].size() == rubric.items.size());
  for (std::size_t i = 0; i < rubric.items.size(); ++i) {
    const nlohmann::json& t = j["tests"][i];
    CHECK(t["name"] == rubric.items[i].name);
    CHECK(t["score"].is_number());
    CHECK(t["max_score"] == rubric.items[i].points);
    CHECK((t["status"] == "passed" || t["status"] == "failed"));
    CHECK(t["output"].is_string());
    CHECK(t["output_format"] == "md");
    CHECK(t["visibility"] == (i == 1 ? "after_published" : "visible"));
  }
  CHECK(j["tests"][1]["status"] == "failed");
  CHECK(j["tests"][1]["output"].get<std::string>().find("hazard: ") != std::string::npos);
}

TEST_CASE("junit: one testsuite, a testcase an item, a failure with the card's text, escaped") {
  const grade::Rubric rubric = grade::load_rubric("");
  const cuda::CheckReport racy = check_file("assets/kernels/pmpp_kogge_stone_incorrect.cu");
  grade::Grade g = grade::grade_report(racy, rubric, "either");
  g.items[1].summary = "a <b> & \"c\" 'd'";
  g.items[1].lines.push_back("x < y && z > w\x01");
  const std::string x = grade::junit_xml(racy, g, 1.5);
  CHECK(x.find("<?xml") == 0);
  const auto count = [&](const std::string& s) {
    std::size_t n = 0;
    for (std::size_t at = x.find(s); at != std::string::npos; at = x.find(s, at + 1)) ++n;
    return n;
  };
  CHECK(count("<testsuite ") == 1);
  CHECK(count("<testcase ") == rubric.items.size());
  const auto failed = static_cast<std::size_t>(std::count_if(g.items.begin(), g.items.end(), [](const grade::ItemResult& i) { return !i.passed; }));
  CHECK(count("<failure ") == failed);
  CHECK(x.find("failures=\"" + std::to_string(failed) + "\"") != std::string::npos);
  CHECK(x.find("a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos;") != std::string::npos);
  CHECK(x.find("x &lt; y &amp;&amp; z &gt; w?") != std::string::npos);
  CHECK(x.find("x < y") == std::string::npos);
  CHECK(x.find('\x01') == std::string::npos);
}
