// graders/gradescope/run_autograder in a scratch folder shaped like Gradescope's /autograder (source/
// with the zip's files, submission/ with the student's, results/), with the built scanviz: the
// results.json it writes for a correct, a buggy, a refused and an empty submission, checked against
// the autograder specification's field names and types.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <set>

#include "run_command.hpp"

using namespace sv_test;

namespace {

const fs::path kSource = SCANVIZ_SOURCE_DIR;

// Runs the autograder on `submission` (a file copied in, or none) and returns its results.json.
nlohmann::json autograde(const TempDir& dir, const std::string& submission, const std::string& text = "") {
  const fs::path root = dir.path / "autograder";
  fs::remove_all(root);
  fs::create_directories(root / "source");
  fs::create_directories(root / "submission");
  for (const char* f : {"run_autograder", "rubric.json", "setup.sh"}) fs::copy_file(kSource / "graders/gradescope" / f, root / "source" / f);
  if (!submission.empty()) fs::copy_file(kSource / submission, root / "submission" / fs::path(submission).filename());
  if (!text.empty()) std::ofstream(root / "submission" / "scan.cu") << text;
  const Run r = run_shell("AUTOGRADER_ROOT='" + root.string() + "' SCANVIZ=" + scanviz_exe() + " bash '" + (root / "source/run_autograder").string() + "'", dir.path);
  CHECK(r.code == 0);
  CAPTURE(r.out);
  CAPTURE(r.err);
  REQUIRE(fs::exists(root / "results/results.json"));
  return nlohmann::json::parse(slurp(root / "results/results.json"));
}

// The specification's fields: optional ones of their types where present, every test's of its types.
void check_fields(const nlohmann::json& j) {
  REQUIRE(j.is_object());
  const std::set<std::string> top = {"score", "execution_time", "output", "output_format", "visibility", "stdout_visibility", "tests", "extra_data", "test_output_format", "test_name_format", "leaderboard"};
  for (const auto& [key, value] : j.items()) CHECK_MESSAGE(top.count(key), key);
  CHECK(j["score"].is_number());
  if (j.contains("execution_time")) CHECK(j["execution_time"].is_number_integer());
  CHECK(j["output"].is_string());
  const std::set<std::string> formats = {"text", "html", "simple_format", "md", "ansi"};
  const std::set<std::string> visibilities = {"hidden", "after_due_date", "after_published", "visible"};
  CHECK(formats.count(j["output_format"].get<std::string>()));
  CHECK(visibilities.count(j["visibility"].get<std::string>()));
  CHECK(visibilities.count(j["stdout_visibility"].get<std::string>()));
  REQUIRE(j["tests"].is_array());
  for (const nlohmann::json& t : j["tests"]) {
    const std::set<std::string> keys = {"score", "max_score", "status", "name", "name_format", "number", "output", "output_format", "tags", "visibility", "extra_data"};
    for (const auto& [key, value] : t.items()) CHECK_MESSAGE(keys.count(key), key);
    CHECK(t["name"].is_string());
    CHECK(t["score"].is_number());
    CHECK(t["max_score"].is_number());
    CHECK(t["score"].get<double>() <= t["max_score"].get<double>());
    CHECK((t["status"] == "passed" || t["status"] == "failed"));
    CHECK(t["output"].is_string());
    CHECK(t["output_format"] == "md");
    CHECK(visibilities.count(t["visibility"].get<std::string>()));
  }
}

double total(const nlohmann::json& j) {
  double s = 0;
  for (const nlohmann::json& t : j["tests"]) s += t["score"].get<double>();
  return s;
}

}  // namespace

TEST_CASE("gradescope autograder: a correct Brent-Kung gets every point, a racy one loses the race, the hidden item shows after publishing") {
  TempDir dir;
  const nlohmann::json rubric = nlohmann::json::parse(slurp(kSource / "graders/gradescope/rubric.json"));
  double max = 0;
  for (const auto& item : rubric["items"]) max += item["points"].get<double>();

  const nlohmann::json good = autograde(dir, "assets/kernels/cs677_brent_kung.cu");
  check_fields(good);
  REQUIRE(good["tests"].size() == rubric["items"].size());
  CHECK(good["score"].get<double>() == max);
  CHECK(total(good) == good["score"].get<double>());
  for (std::size_t i = 0; i < rubric["items"].size(); ++i) {
    CHECK(good["tests"][i]["name"] == rubric["items"][i]["name"]);
    CHECK(good["tests"][i]["visibility"] == (rubric["items"][i].value("hidden", false) ? "after_published" : "visible"));
  }

  const nlohmann::json bad = autograde(dir, "tests/kernels/brent_kung_missing_barrier.cu");
  check_fields(bad);
  CHECK(bad["score"].get<double>() < max);
  CHECK(total(bad) == doctest::Approx(bad["score"].get<double>()));
  bool race_failed = false;
  for (const nlohmann::json& t : bad["tests"])
    if (t["status"] == "failed" && t["output"].get<std::string>().find("hazard: ") != std::string::npos) race_failed = true;
  CHECK(race_failed);
}

TEST_CASE("gradescope autograder: a file scanviz refuses and a submission without a .cu file still get a results.json that says why") {
  TempDir dir;
  const nlohmann::json refused = autograde(dir, "", "__global__ void scan(float* in, float* out, int n) { out[0] = in[0] +; }\n");
  check_fields(refused);
  CHECK(refused["score"] == 0);
  REQUIRE(!refused["tests"].empty());
  CHECK(refused["tests"][0]["output"].get<std::string>().find("syntax at line 1") != std::string::npos);
  const nlohmann::json empty = autograde(dir, "");
  check_fields(empty);
  CHECK(empty["score"] == 0);
  CHECK(empty["tests"].empty());
  CHECK(empty["output"].get<std::string>().find("No .cu file") != std::string::npos);
}
