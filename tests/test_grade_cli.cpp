// `scanviz check` as graders run it: --format (gradescope, junit, json, text), --rubric, --only and
// --out; bad input is one line and exit code 2 with nothing written.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "run_command.hpp"

using namespace sv_test;

namespace {

const std::string kSource = SCANVIZ_SOURCE_DIR;
const std::string kCorrect = "'" + kSource + "/tests/kernels/correct_kogge_stone.cu'";
const std::string kRacy = "'" + kSource + "/tests/kernels/missing_barrier.cu'";

}  // namespace

TEST_CASE("check --only: the exit code is the item's pass (0) or fail (1), and the output that item alone") {
  TempDir dir;
  const Run pass = scanviz("check " + kRacy + " --only fault-free", dir.path);
  CHECK(pass.code == 0);
  CHECK(pass.out.find("pass fault-free") != std::string::npos);
  CHECK(pass.out.find("race-free (") == std::string::npos);
  const Run fail = scanviz("check " + kRacy + " --only race-free", dir.path);
  CHECK(fail.code == 1);
  CHECK(fail.out.find("FAIL race-free") != std::string::npos);
  CHECK(fail.out.find("hazard: ") != std::string::npos);
  CHECK(scanviz("check " + kCorrect + " --only race-free", dir.path).code == 0);
  CHECK(scanviz("check " + kCorrect + " --only correct", dir.path).code == 0);
  const Run unknown = scanviz("check " + kCorrect + " --only races", dir.path);
  CHECK(unknown.code == 2);
  CHECK(unknown.out.empty());
  CHECK(lines(unknown.err) == 1);
  CHECK(unknown.err.find("--only races: no such item") != std::string::npos);
}

TEST_CASE("check --format: gradescope and junit to a file, json as --json, and text with the rubric's score") {
  TempDir dir;
  const Run gs = scanviz("check " + kRacy + " --format gradescope --out results.json", dir.path);
  CHECK(gs.code == 1);  // the verdict's exit code
  CHECK(gs.out.empty());
  const nlohmann::json j = nlohmann::json::parse(slurp(dir.path / "results.json"));
  CHECK(j["tests"].size() == 3);
  CHECK(j["score"].get<double>() < 10);
  const Run junit = scanviz("check " + kRacy + " --format junit", dir.path);
  CHECK(junit.out.find("<testsuite ") != std::string::npos);
  CHECK(junit.out.find("<failure ") != std::string::npos);
  const Run json = scanviz("check " + kCorrect + " --json", dir.path);
  const Run format = scanviz("check " + kCorrect + " --format json", dir.path);
  CHECK(json.code == 0);
  const nlohmann::json a = nlohmann::json::parse(json.out), b = nlohmann::json::parse(format.out);
  CHECK(a["rubric"]["score"] == 10);
  CHECK(a["verdict"] == b["verdict"]);
  CHECK(a["cases"].size() == b["cases"].size());
  CHECK(a["float_judge"].is_string());
  const Run text = scanviz("check " + kCorrect + " --rubric '" + kSource + "/graders/gradescope/rubric.json'", dir.path);
  CHECK(text.out.find("score: ") != std::string::npos);
  CHECK(text.out.find("FAIL work-efficient") != std::string::npos);  // Kogge-Stone's work is over Brent-Kung's
  CHECK(text.out.find("pass correct") != std::string::npos);
}

TEST_CASE("check: an unknown format, a bad rubric, a missing file are one line and exit code 2, and nothing is written") {
  TempDir dir;
  const auto refused = [&](const std::string& args, const std::string& says) {
    CAPTURE(args);
    const Run r = scanviz(args, dir.path);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(lines(r.err) == 1);
    CHECK(r.err.find(says) != std::string::npos);
    CHECK(dir.files().empty());
  };
  refused("check " + kCorrect + " --format xml --out r.xml", "unknown format 'xml'");
  refused("check " + kCorrect + " --json --format junit --out r.xml", "--json and --format junit");
  refused("check " + kCorrect + " --rubric missing.json --format gradescope --out r.json", "rubric missing.json: cannot open");
  run_shell("printf '{\"items\": [{\"id\": \"a\", \"check\": \"outputs\"}]}' > ../bad-rubric.json", dir.path);
  refused("check " + kCorrect + " --rubric ../bad-rubric.json --format gradescope --out r.json", "no 'points'");
  refused("check missing.cu --format junit --out r.xml", "cannot read the kernel missing.cu");
  fs::remove(dir.path.parent_path() / "bad-rubric.json");
}
