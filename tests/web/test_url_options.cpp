// The page's links (app/web/url_options): each key a link may carry opens what it names, the link the
// window writes back opens the same options, and the spellings of older links still open.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "lesson_run.hpp"
#include "run/prepare.hpp"
#include "web/url_options.hpp"

using namespace sv;
using sv::gui::GuiOptions;

namespace {

GuiOptions opened(const std::string& query) {
  GuiOptions o;
  const std::string bad = web::apply_query(query, o);
  INFO(query);
  CHECK(bad == "");
  return o;
}

// A query's key=value pairs, sorted.
std::vector<std::string> pairs_of(const std::string& query) {
  std::vector<std::string> pairs;
  for (std::size_t at = 1; at < query.size();) {
    const std::size_t amp = query.find('&', at);
    pairs.push_back(query.substr(at, amp == std::string::npos ? std::string::npos : amp - at));
    at = amp == std::string::npos ? query.size() : amp + 1;
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

void check_same(const GuiOptions& a, const GuiOptions& b) {
  CHECK(print_request(a.lesson) == print_request(b.lesson));
  CHECK(a.lesson == b.lesson);
  CHECK(a.input_given == b.input_given);
  CHECK(a.step == b.step);
  CHECK(a.side_by_side == b.side_by_side);
  CHECK(a.lecture == b.lecture);
  CHECK(a.charts == b.charts);
  CHECK(a.timing == b.timing);
  CHECK(a.divergence == b.divergence);
  CHECK(a.floats == b.floats);
  CHECK(a.bench_json == b.bench_json);
  CHECK(a.lookback == b.lookback);
}

}  // namespace

TEST_CASE("links: the default lesson's link names nothing, and each key's link opens the same options again") {
  CHECK(web::link_query(GuiOptions{}) == "");
  // One link per key a link writes, in the spelling it writes (values %-encoded).
  const std::vector<std::string> links = {
      "?algo=brent-kung", "?n=16", "?block=64", "?warp=2&algo=warp-raking", "?op=max", "?op=max&type=int64",
      "?exclusive=1", "?input=5%2C1%2C4%2C2", "?input=random%3A3", "?input=slides&n=16", "?seed=9",
      "?schedule=random%3A5", "?schedule=reverse", "?option=window%3D4", "?flags=1%2C0%2C0%2C1&input=3%2C6%2C7%2C4",
      "?scan=segmented%3A0.5", "?scan=compact%3Ax%20%3E%200", "?scan=allocate", "?executor=gpu&amplify=3",
      "?executor=auto", "?step=3", "?side=1", "?lecture=1", "?charts=1", "?timing=1", "?divergence=1",
      "?op=sum&type=float&input=mixed&floats=1",
      "?bench=examples%2Fbench-h200.json", "?lookback=fig6"};
  for (const std::string& link : links) {
    CAPTURE(link);
    const GuiOptions o = opened(link);
    const std::string written = web::link_query(o);
    CAPTURE(written);
    // The link written back names each key of the link (in any order), and nothing else.
    CHECK(pairs_of(written) == pairs_of(link));
    check_same(opened(written), o);
  }
}

TEST_CASE("links: the spellings of older links open the lesson they named") {
  // The address the window wrote for the default lesson at step 0: every lesson key named.
  const GuiOptions d = opened("?algo=kogge-stone-double-buffer&n=8&op=interval&schedule=in-order&step=0");
  CHECK(d.lesson.algorithm == "kogge-stone-double-buffer");
  CHECK(d.lesson.n == 8);
  CHECK(d.lesson.op == OpKind::Interval);
  CHECK(d.lesson.input == "slides");
  CHECK(d.step == 0);
  CHECK(web::link_query(d) == "?schedule=in-order&step=0");
  const GuiOptions s = opened("?scan=segmented:0.5&input=random:3");
  CHECK(s.lesson.flags == "random:0.5");
  CHECK(s.lesson.input == "");
  CHECK(s.lesson.seed == 3);
  CHECK(s.input_given);
  const std::string written = web::link_query(s);
  CHECK(written.find("scan=segmented%3A0.5") != std::string::npos);
  CHECK(written.find("input=random%3A3") != std::string::npos);
  const GuiOptions t = opened("?algo=brent-kung&op=max&type=int64&exclusive=1&input=5,1,4,2&warp=4&lecture=1&side=1");
  CHECK(t.lesson.type == ValueType::I64);
  CHECK(t.lesson.exclusive);
  CHECK(t.lesson.input == "5,1,4,2");
  CHECK(t.lesson.warp == 4);
  CHECK(t.lecture);
  CHECK(t.side_by_side);
  const GuiOptions c = opened("?scan=compact:x%252==0&charts=1");
  CHECK(c.lesson.app == "compact");
  CHECK(c.lesson.predicate == "x%2==0");
  CHECK(c.charts);
}

TEST_CASE("links: font-scale sets the window's text size and play starts the timeline, neither written back") {
  const GuiOptions o = opened("?font-scale=2&play=1");
  CHECK(o.font_scale == 2.0f);
  CHECK(o.play);
  CHECK(web::link_query(o).empty());
  CHECK(opened("?font-scale=1.5").font_scale == 1.5f);
}

TEST_CASE("links: a value a link cannot use is one message naming the key and the value") {
  const std::pair<const char*, const char*> bad[] = {
      {"?n=eight", "link: n: 'eight' is not a whole number"},
      {"?schedule=sideways", "link: schedule: unknown schedule 'sideways'"},
      {"?input=random:0", "link: input: 'random:0' is not slides"},
      {"?scan=compact:x%252", "link: scan: 'compact:x%2' is not plain"},
      {"?op=xor", "link: op: unknown operator 'xor'"},
      {"?exclusive=maybe", "link: exclusive: 'maybe' is not 1 or 0"},
      {"?step=-1", "link: step=-1 is not a whole number"},
      {"?step=99999999999", "link: step=99999999999 is too large"},
      {"?colour=red", "link: unknown key 'colour' ("},
      {"?font-scale=4", "link: font-scale=4 is not a number from 1 to 3"},
      {"?font-scale=big", "link: font-scale=big is not a number from 1 to 3"},
  };
  for (const auto& [query, what] : bad) {
    CAPTURE(query);
    GuiOptions o;
    const std::string said = web::apply_query(query, o);
    CHECK(said.rfind(what, 0) == 0);
    CHECK(said.find('\n') == std::string::npos);
  }
}

TEST_CASE("links: a float lesson's input opens a float sum without op and type, as the command line's --input does") {
  const GuiOptions o = opened("?input=uniform&floats=1");
  CHECK(o.lesson.op == OpKind::Sum);
  CHECK(o.lesson.type == ValueType::F32);
  CHECK(run_config(lesson_run(o.lesson)).input.size() == 8);  // the lesson's n, and no refusal of the input
  CHECK(opened("?input=cancel&type=double").lesson.type == ValueType::F64);
  CHECK(opened("?op=max&input=mixed").lesson.op == OpKind::Max);  // said: kept, and refused when it runs
  CHECK_THROWS_AS((void)run_config(lesson_run(opened("?op=max&input=mixed").lesson)), RequestError);
  CHECK(opened("?input=3,6,7,4").lesson.op == GuiOptions{}.lesson.op);  // typed values: the lesson's operator
}
