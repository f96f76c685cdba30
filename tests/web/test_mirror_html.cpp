// The page's hidden DOM mirror as HTML (app/web/mirror_html.*): the racy lesson's step, narration,
// race cells and wrong outputs in words, and a report card's verdict, cases, hazards (both lines and
// threads) and faults, and a class's submissions, all escaped.
#include <doctest/doctest.h>

#include <string>

#include "entry/record.hpp"
#include "lesson_run.hpp"
#include "web/mirror_html.hpp"

using namespace sv;

namespace {

gui::MirrorShown racy_step(const TraceView& view, int step) {
  gui::MirrorShown m;
  m.heading = lesson_heading(view);
  m.step = mirror_step(view, step);
  return m;
}

bool has(const std::string& html, const std::string& part) {
  INFO(part);
  return html.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("mirror html: text is escaped") {
  CHECK(web::html_escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;");
  CHECK(web::html_element("li", "x < y") == "<li>x &lt; y</li>");
}

TEST_CASE("mirror html: the racy lesson's step line and narration as a heading and a paragraph, its race cells and wrong outputs in words") {
  RunRequest r = default_lesson_request();
  r.algorithm = "kogge-stone-racy";
  r.op = OpKind::Sum;
  const TraceView view = make_trace_view(record(lesson_run(r)).trace);
  const std::string first = web::lesson_html(racy_step(view, 0));
  CHECK(has(first, "<h1 id=\"mirror-title\">Lesson: kogge-stone-racy, n = 8, sum</h1>"));
  CHECK(has(first, "<h2 id=\"mirror-step\">Step 1 of 5: load</h2>"));
  CHECK(has(first, "<p id=\"mirror-narration\">"));
  CHECK(has(first, "<th scope=\"row\">7</th>"));
  CHECK(!has(first, "class=\"race\""));
  // The slides' race: step 2 reads cells another thread overwrote.
  const std::string racy = web::lesson_html(racy_step(view, 1));
  CHECK(has(racy, "<td class=\"race\">"));
  CHECK(has(racy, "race)</td>"));
  CHECK(has(racy, "<h3>Races in this step: "));
  const std::string last = web::lesson_html(racy_step(view, 4));
  CHECK(has(last, "<td class=\"wrong\">"));
  CHECK(has(last, "wrong, expected "));
  CHECK(has(last, "<p>Result: wrong."));
}

TEST_CASE("mirror html: a report card's verdict, cases, hazards with both lines and threads, and faults") {
  cuda::CheckReport r;
  r.file = "scan.cu";
  r.kernel = "scan";
  r.verdict = "wrong";
  r.block = r.capacity = 8;
  r.cases.push_back({8, 1, 1, "in-order", "integers", "wrong", "output[3] = 17, expected 20"});
  r.cases.push_back({8, 1, 32, "in-order", "integers", "correct", ""});
  cuda::CheckHazard h;
  h.kind = "RAW";
  h.buffer = "XY";
  h.memory = "shared";
  h.index = 1;
  h.line_write = h.line_read = 16;
  h.thread_first = 1;
  h.thread_second = 2;
  h.n = 8;
  h.schedule = "in-order";
  h.warp = 1;
  r.hazards = {h, h};
  r.hazards[1].index = 2;
  r.errors.push_back({"out-of-bounds", 21, 5, "XY[8] <read> past its 8 elements", "error"});
  const std::string card = web::card_html(&r, "WRONG");
  CHECK(has(card, "<h2 id=\"mirror-verdict\">Report card: WRONG</h2>"));
  CHECK(has(card, "<td>output[3] = 17, expected 20</td>"));
  CHECK(has(card, "<h3>Hazards: 2</h3>"));
  CHECK(has(card, "thread 1 wrote it (line 16), thread 2 read it (line 16)"));
  CHECK(has(card, "and 1 more like it"));
  CHECK(has(card, "<h3>Faults: 1</h3>"));
  CHECK(has(card, "at line 21: XY[8] &lt;read&gt; past"));
  CHECK(web::card_html(nullptr, "") == "<h2 id=\"mirror-verdict\">Report card: not checked yet</h2>");
}

TEST_CASE("mirror html: a class as a heading, its summary and a table of its submissions, the one open marked") {
  gui::MirrorClass c{"3 dropped files", "3 dropped files: 3 submissions, 2 graded: 1 correct, 1 wrong, 0 error", false, {}};
  c.entries.push_back({"alice.cu", "correct", "10/10", "-", false});
  c.entries.push_back({"bob<1>.cu", "WRONG", "4/10", "race on temp between lines 9 and 11", true});
  c.entries.push_back({"carol.cu", "checking 3/48", "", "", false});
  const std::string html = web::class_html(c);
  CHECK(has(html, "<h2 id=\"mirror-class-title\">Class: 3 dropped files</h2>"));
  CHECK(has(html, "<p>3 dropped files: 3 submissions, 2 graded"));
  CHECK(has(html, "<th scope=\"col\">first finding</th>"));
  CHECK(has(html, "<tr><th scope=\"row\">alice.cu</th><td>correct</td><td>10/10</td><td>-</td></tr>"));
  CHECK(has(html, "<tr aria-current=\"true\"><th scope=\"row\">bob&lt;1&gt;.cu (open)</th><td>WRONG</td>"));
  CHECK(has(html, "<td>checking 3/48</td><td></td><td></td></tr>"));
  CHECK(html.find("aria-current") == html.rfind("aria-current"));  // one row is open
}
