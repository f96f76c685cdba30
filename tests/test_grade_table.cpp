// The class table from cards written by hand: the first finding by its order (a fault, a race, a wrong
// output), findings by the source line with blanks and comments left out, CSV quoting, Markdown cells,
// rows without a card, and the spread of GPU times.
#include <doctest/doctest.h>

#include "grade/class_table.hpp"

using namespace sv;

namespace {

nlohmann::json card(const std::string& verdict, double score) {
  return {{"verdict", verdict},
          {"matches", nullptr},
          {"errors", nlohmann::json::array()},
          {"hazards", nlohmann::json::array()},
          {"cases", nlohmann::json::array()},
          {"diagnoses", nlohmann::json::array()},
          {"rubric", {{"verdict", verdict}, {"score", score}, {"max_score", 10}, {"items", nlohmann::json::array()}}}};
}

nlohmann::json race(std::uint32_t write, std::uint32_t read) {
  return {{"kind", "RAW"}, {"buffer", "XY"}, {"memory", "shared"}, {"line_write", write}, {"line_read", read}, {"line_second", write}};
}

}  // namespace

TEST_CASE("class table: the first finding, findings counted by the line's text, rows without a card, CSV and Markdown") {
  grade::Submission a{"a.cu", "int x;\n  XY[t] += XY[t - s];   // mine\n", card("wrong", 7), "", 1.25};
  a.card["hazards"].push_back(race(2, 2));
  a.card["cases"].push_back({{"outcome", "wrong"}, {"n", 9}, {"detail", "output[3] = 4, expected 5"}});
  a.card["rubric"]["items"].push_back({{"id", "race-free"}, {"passed", false}});
  grade::Submission b{"b, \"quoted\".cu", "\n\nXY[t]   +=  XY[t - s];\n", card("wrong", 3), "", 2};
  b.card["hazards"].push_back(race(3, 3));
  b.card["errors"].push_back({{"kind", "out-of-bounds"}, {"line", 1}, {"severity", "error"}, {"message", "thread 1 accesses in[9]"}});
  b.card["gpu"] = {{"time", {{"kernel_ms", 0.25}}}};
  grade::Submission c{"c.cu", "", card("correct", 10), "", 1};
  c.card["matches"] = "brent-kung";
  c.card["gpu"] = {{"time", {{"kernel_ms", 0.5}}}};
  grade::Submission d{"d.cu", "", nullptr, "crashed: the check was killed by signal 6 (Aborted)", 0.5};

  const grade::ClassRow ra = grade::class_row(a), rb = grade::class_row(b), rc = grade::class_row(c), rd = grade::class_row(d);
  CHECK(ra.first == "RAW race on XY (shared), lines 2 and 2");
  CHECK(rb.first == "out-of-bounds at line 1: thread 1 accesses in[9]");  // a fault comes first
  CHECK(rc.first == "-");
  CHECK(rd.verdict == "error");
  CHECK(rd.first.find("crashed") == 0);
  CHECK(ra.failed_items == std::vector<std::string>{"race-free"});
  CHECK(rc.matches == "brent-kung");

  const std::vector<grade::ClassRow> rows = {ra, rb, rc, rd};
  const std::string csv = grade::class_csv(rows);
  CHECK(csv.find("\"b, \"\"quoted\"\".cu\",wrong,3,10,") != std::string::npos);
  // Both races are at one line, written differently: counted together.
  CHECK(csv.find("race on XY at `XY[t] += XY[t - s];`,2\n") != std::string::npos);
  CHECK(csv.find("race (shared memory),2\n") != std::string::npos);
  CHECK(csv.find("crashed,1\n") != std::string::npos);
  CHECK(csv.find("race-free,1\n") != std::string::npos);
  CHECK(csv.find("brent-kung,1\n") != std::string::npos);
  CHECK(csv.find("\ngpu_kernel_ms,value\nmeasured,2\nfastest,0.25\nmedian,0.375\nslowest,0.5\n") != std::string::npos);
  const std::string md = grade::class_markdown(rows, "Class");
  CHECK(md.find("4 submissions: 1 correct, 2 wrong, 1 error.") != std::string::npos);
  CHECK(md.find("| d.cu | error | 0 / 0 | crashed: ") != std::string::npos);
  CHECK(md.find("| race on XY at `XY[t] += XY[t - s];` | 2 of 4 |") != std::string::npos);
  CHECK(md.find("| median | 0.375 |") != std::string::npos);
  const std::string none = grade::class_csv({ra});
  CHECK(none.find("gpu_kernel_ms,value") == std::string::npos);
}
