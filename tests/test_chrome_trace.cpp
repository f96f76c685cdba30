// scanviz export --format chrome-trace: the Chrome Trace Event Format that Perfetto and
// chrome://tracing open. Every output is held to a JSON schema of the format written as a fixture
// (tests/fixtures/chrome_trace_schema.json) and to the rules a viewer relies on: spans nest on their
// lane, no pid or tid 0, every lane named, events in ts order, flows paired. The expectations come
// from the traces themselves (their tile times, steps and events), never from the converter's output.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "emulator/record.hpp"
#include "helpers.hpp"
#include "run_command.hpp"
#include "trace/chrome_trace.hpp"
#include "trace/trace_json.hpp"

namespace {

using json = nlohmann::json;
using namespace sv;
namespace fs = std::filesystem;

constexpr double kEps = 1e-6;  // us: a picosecond, far below the nanosecond a GPU trace resolves

// ---- the schema: a validator for the JSON Schema keywords the fixture uses ------------------------

const json& schema() {
  static const json s = json::parse(sv_test::slurp(fs::path(SCANVIZ_SOURCE_DIR) / "tests/fixtures/chrome_trace_schema.json"));
  return s;
}

bool has_type(const json& v, const std::string& type) {
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "string") return v.is_string();
  if (type == "number") return v.is_number();
  if (type == "integer") return v.is_number_integer();
  if (type == "boolean") return v.is_boolean();
  return false;
}

struct SchemaCheck {
  std::vector<std::string> errors;

  void fail(const std::string& path, const std::string& what) {
    if (errors.size() < 10) errors.push_back((path.empty() ? "(document)" : path) + ": " + what);
  }
  static bool valid(const json& s, const json& v) {
    SchemaCheck sub;
    sub.check(s, v, "");
    return sub.errors.empty();
  }
  void check(const json& s, const json& v, const std::string& path) {
    for (const auto& [key, x] : s.items()) {
      if (key == "$schema" || key == "title" || key == "description" || key == "$defs" || key == "then") continue;
      if (key == "$ref") {
        check(schema().at(json::json_pointer(x.get<std::string>().substr(1))), v, path);
      } else if (key == "type") {
        if (!has_type(v, x.get<std::string>())) fail(path, "not of type " + x.get<std::string>() + ": " + v.dump());
      } else if (key == "enum") {
        if (std::find(x.begin(), x.end(), v) == x.end()) fail(path, v.dump() + " is none of " + x.dump());
      } else if (key == "const") {
        if (v != x) fail(path, v.dump() + " is not " + x.dump());
      } else if (key == "minimum") {
        if (v.is_number() && v.get<double>() < x.get<double>()) fail(path, v.dump() + " is below " + x.dump());
      } else if (key == "minLength") {
        if (v.is_string() && v.get<std::string>().size() < x.get<std::size_t>()) fail(path, "too short");
      } else if (key == "minProperties") {
        if (v.is_object() && v.size() < x.get<std::size_t>()) fail(path, "too few fields");
      } else if (key == "maxProperties") {
        if (v.is_object() && v.size() > x.get<std::size_t>()) fail(path, "too many fields: " + v.dump());
      } else if (key == "required") {
        if (v.is_object())
          for (const json& name : x)
            if (!v.contains(name.get<std::string>())) fail(path, "no field " + name.dump() + " in " + v.dump());
      } else if (key == "properties") {
        if (v.is_object())
          for (const auto& [name, sub] : x.items())
            if (v.contains(name)) check(sub, v.at(name), path + "." + name);
      } else if (key == "additionalProperties") {
        if (v.is_object())
          for (const auto& [name, value] : v.items()) {
            if (s.contains("properties") && s["properties"].contains(name)) continue;
            if (x.is_boolean() && !x.get<bool>()) fail(path, "field '" + name + "' is not in the format");
            if (x.is_object()) check(x, value, path + "." + name);
          }
      } else if (key == "items") {
        if (v.is_array())
          for (std::size_t i = 0; i < v.size(); ++i) check(x, v[i], path + "[" + std::to_string(i) + "]");
      } else if (key == "allOf") {
        for (const json& sub : x) check(sub, v, path);
      } else if (key == "if") {
        if (valid(x, v) && s.contains("then")) check(s["then"], v, path);
      } else if (key == "not") {
        if (valid(x, v)) fail(path, "matches " + x.dump() + ", which it must not");
      } else {
        fail(path, "schema keyword '" + key + "' unknown to this check");
      }
    }
  }
};

std::vector<std::string> schema_errors(const json& doc) {
  SchemaCheck c;
  c.check(schema(), doc, "");
  return c.errors;
}

// ---- the rules the schema cannot say ------------------------------------------------------------

using Lane = std::pair<int, int>;  // (pid, tid)

Lane lane_of(const json& e) { return {e.at("pid").get<int>(), e.value("tid", 0)}; }
double end_of(const json& e) { return e.at("ts").get<double>() + e.at("dur").get<double>(); }

struct Checked {
  std::vector<std::string> problems;
  std::map<Lane, std::vector<json>> spans;  // each lane's spans in file order
  std::map<Lane, std::string> thread_names;
  std::vector<json> instants;
  std::map<std::int64_t, std::pair<json, json>> flows;  // id -> (s, f)

  std::vector<json> spans_of(const std::string& cat) const {
    std::vector<json> out;
    for (const auto& [lane, list] : spans)
      for (const json& s : list)
        if (s.at("cat") == cat) out.push_back(s);
    return out;
  }
  // The span of `cat` on `lane` that encloses `ts` (null when none does).
  json enclosing(Lane lane, double ts, const std::string& cat = "") const {
    const auto it = spans.find(lane);
    if (it == spans.end()) return nullptr;
    for (const json& s : it->second)
      if ((cat.empty() || s.at("cat") == cat) && s.at("ts").get<double>() <= ts + kEps && ts <= end_of(s) + kEps) return s;
    return nullptr;
  }
};

Checked check_events(const json& doc) {
  Checked c;
  const auto problem = [&](const std::string& p) {
    if (c.problems.size() < 10) c.problems.push_back(p);
  };
  std::set<int> named_pids;
  std::set<Lane> named_tids, sorted_tids, used_tids;
  std::set<int> used_pids;
  bool past_metadata = false;
  double last_ts = -1;
  std::map<Lane, std::vector<double>> open;  // each lane's open spans' ends
  for (const json& e : doc.at("traceEvents")) {
    const std::string ph = e.at("ph");
    const Lane lane = lane_of(e);
    if (lane.first <= 0 || (e.contains("tid") && lane.second <= 0)) problem("pid or tid 0: " + e.dump());
    if (ph == "M") {
      if (past_metadata) problem("metadata after the events: " + e.dump());
      const std::string name = e.at("name");
      if (name == "process_name") named_pids.insert(lane.first);
      if (name == "thread_name") {
        named_tids.insert(lane);
        c.thread_names[lane] = e.at("args").at("name");
      }
      if (name == "thread_sort_index") sorted_tids.insert(lane);
      continue;
    }
    past_metadata = true;
    used_pids.insert(lane.first);
    used_tids.insert(lane);
    const double ts = e.at("ts");
    if (ts < last_ts) problem("not sorted by ts: " + e.dump());
    last_ts = std::max(last_ts, ts);
    if (ph == "X") {
      std::vector<double>& ends = open[lane];
      while (!ends.empty() && ends.back() <= ts + kEps) ends.pop_back();
      if (!ends.empty() && end_of(e) > ends.back() + kEps) problem("span overlaps the span it starts in: " + e.dump());
      ends.push_back(end_of(e));
      c.spans[lane].push_back(e);
    } else if (ph == "i") {
      c.instants.push_back(e);
    } else if (ph == "s" || ph == "f") {
      std::pair<json, json>& f = c.flows[e.at("id").get<std::int64_t>()];
      json& slot = ph == "s" ? f.first : f.second;
      if (!slot.is_null()) problem("a second '" + ph + "' of flow " + e.at("id").dump());
      slot = e;
    }
  }
  for (int pid : used_pids)
    if (!named_pids.count(pid)) problem("pid " + std::to_string(pid) + " has no process_name");
  for (const Lane& l : used_tids)
    if (!named_tids.count(l) || !sorted_tids.count(l))
      problem("tid " + std::to_string(l.second) + " of pid " + std::to_string(l.first) + " lacks thread_name or thread_sort_index");
  for (const auto& [id, f] : c.flows) {
    if (f.first.is_null() || f.second.is_null()) {
      problem("flow " + std::to_string(id) + " is not an s and an f");
      continue;
    }
    if (f.first.at("ts").get<double>() > f.second.at("ts").get<double>() + kEps) problem("flow " + std::to_string(id) + " runs back in time");
    if (c.enclosing(lane_of(f.first), f.first.at("ts")).is_null() || c.enclosing(lane_of(f.second), f.second.at("ts")).is_null())
      problem("flow " + std::to_string(id) + " has an end in no span");
  }
  return c;
}

// The schema and the rules, both: the checks every output of this file passes.
Checked valid_chrome_trace(const json& doc) {
  const std::vector<std::string> errors = schema_errors(doc);
  for (const std::string& e : errors) INFO(e);
  CHECK(errors.empty());
  Checked c = check_events(doc);
  for (const std::string& p : c.problems) INFO(p);
  CHECK(c.problems.empty());
  return c;
}

// ---- device-wide traces --------------------------------------------------------------------------

struct TileTimes {
  std::uint64_t start = 0, end = 0;
  std::uint16_t sm = 0;
};

// (pass, tile) -> its Start and End times, read from the trace's own tile events.
std::map<std::pair<int, std::int64_t>, TileTimes> tile_times(const Trace& t) {
  std::map<std::pair<int, std::int64_t>, TileTimes> out;
  for (const TileEvent& e : t.tile_events) {
    TileTimes& x = out[{e.pass, e.tile}];
    if (e.kind == TileEventKind::Start) {
      x.start = e.time;
      x.sm = e.sm;
    }
    if (e.kind == TileEventKind::End) x.end = e.time;
  }
  return out;
}

// Each tile is one span, as long as the trace's End - Start (ns written as us on a GPU, cycles as
// us on the emulator), on a lane named after the tile's multiprocessor.
void check_tile_spans(const Trace& t, const Checked& c) {
  const bool gpu = t.meta.executor.kind == "gpu";
  const auto times = tile_times(t);
  const std::vector<json> spans = c.spans_of("tile");
  CHECK(spans.size() == times.size());
  std::uint64_t t0 = UINT64_MAX;
  for (const TileEvent& e : t.tile_events) t0 = std::min(t0, e.time);
  std::set<std::pair<int, std::int64_t>> seen;
  for (const json& s : spans) {
    const std::pair<int, std::int64_t> key{s["args"]["pass"].get<int>(), s["args"]["tile"].get<std::int64_t>()};
    REQUIRE(times.count(key));
    CHECK(seen.insert(key).second);
    const TileTimes& x = times.at(key);
    const double scale = gpu ? 1000.0 : 1.0;
    CHECK(s["dur"].get<double>() == doctest::Approx(static_cast<double>(x.end - x.start) / scale).epsilon(1e-12));
    CHECK(s["ts"].get<double>() == doctest::Approx(static_cast<double>(x.start - (gpu ? t0 : 0)) / scale).epsilon(1e-12));
    const std::string lane = c.thread_names.at(lane_of(s));
    CHECK(lane.rfind("SM " + std::to_string(x.sm) + " slot ", 0) == 0);
  }
}

// Every inspection that saw A or P is one flow, from the lane of the tile that published what it saw
// (its first publish of that flag) to the reader's lane at the read.
void check_flows(const Trace& t, const Checked& c) {
  std::map<std::tuple<int, std::int64_t, int>, const TileEvent*> publish;
  for (const TileEvent& e : t.tile_events)
    if (e.kind == TileEventKind::Publish) {
      const TileEvent*& p = publish[{e.pass, e.target, static_cast<int>(e.flag)}];
      if (!p || e.time < p->time) p = &e;
    }
  std::uint64_t t0 = UINT64_MAX;
  for (const TileEvent& e : t.tile_events) t0 = std::min(t0, e.time);
  const bool gpu = t.meta.executor.kind == "gpu";
  const auto ts_of = [&](std::uint64_t time) { return gpu ? static_cast<double>(time - t0) / 1000.0 : static_cast<double>(time); };
  std::multiset<std::tuple<std::int64_t, std::int64_t, double>> expected, found;  // (writer, reader, read's ts)
  for (const TileEvent& e : t.tile_events)
    if (e.kind == TileEventKind::Inspect && e.flag != TileFlag::X) {
      const TileEvent* p = publish.at({e.pass, e.target, static_cast<int>(e.flag)});
      if (p->time <= e.time) expected.insert({p->tile, e.tile, ts_of(e.time)});
    }
  for (const auto& [id, f] : c.flows) {
    const json from = c.enclosing(lane_of(f.first), f.first["ts"], "tile");
    const json to = c.enclosing(lane_of(f.second), f.second["ts"], "tile");
    REQUIRE(!from.is_null());
    REQUIRE(!to.is_null());
    CHECK(f.second["bp"] == "e");
    found.insert({from["args"]["tile"].get<std::int64_t>(), to["args"]["tile"].get<std::int64_t>(), f.second["ts"].get<double>()});
  }
  CHECK(found == expected);
}

// A GPU trace made here: SM 3 runs tiles 0 and 1 at once and tile 3 after tile 0; SM 7 runs tile 2.
Trace synthetic_gpu_trace() {
  Trace t;
  t.meta.algorithm = "decoupled-lookback";
  t.meta.n = 4096;
  t.meta.block = 256;
  t.meta.items_per_thread = 4;
  t.meta.capacity = 1024;
  t.meta.grid = 4;
  t.meta.executor.kind = "gpu";
  t.meta.executor.device = "Test GPU";
  t.steps.push_back(Step{Phase::SinglePass, 0, 0, 0, 0});
  constexpr std::uint64_t base = 1795650690675525952;  // a %globaltimer reading
  const auto ev = [&](std::uint64_t at, TileEventKind kind, std::int64_t tile, std::int64_t target, std::uint16_t sm,
                      TileFlag flag = TileFlag::X, std::int32_t value = 0) {
    TileEvent e;
    e.time = base + at;
    e.kind = kind;
    e.tile = tile;
    e.target = target;
    e.block = static_cast<std::uint32_t>(tile);
    e.sm = sm;
    e.flag = flag;
    if (tile_event_has_value(kind)) e.value = Payload::of(value);
    t.tile_events.push_back(e);
  };
  using K = TileEventKind;
  ev(0, K::Start, 0, -1, 3);
  ev(2500, K::Publish, 0, 0, 3, TileFlag::P, 10);
  ev(5000, K::End, 0, -1, 3);
  ev(1000, K::Start, 1, -1, 3);
  ev(1500, K::Publish, 1, 1, 3, TileFlag::A, 4);
  ev(1550, K::Inspect, 1, 0, 3, TileFlag::X);
  ev(1600, K::Wait, 1, 0, 3);
  ev(2600, K::Inspect, 1, 0, 3, TileFlag::P, 10);
  ev(3000, K::Publish, 1, 1, 3, TileFlag::P, 14);
  ev(7000, K::End, 1, -1, 3);
  ev(200, K::Start, 2, -1, 7);
  ev(900, K::Publish, 2, 2, 7, TileFlag::A, 5);
  ev(1700, K::Inspect, 2, 1, 7, TileFlag::A, 4);
  ev(2700, K::Inspect, 2, 0, 7, TileFlag::P, 10);
  ev(3100, K::Publish, 2, 2, 7, TileFlag::P, 19);
  ev(6000, K::End, 2, -1, 7);
  ev(5000, K::Start, 3, -1, 3);
  ev(5200, K::Publish, 3, 3, 3, TileFlag::A, 1);
  ev(5300, K::Inspect, 3, 2, 3, TileFlag::P, 19);
  ev(5400, K::Publish, 3, 3, 3, TileFlag::P, 20);
  ev(9000, K::End, 3, -1, 3);
  return t;
}

json span_of_tile(const Checked& c, std::int64_t tile) {
  for (const json& s : c.spans_of("tile"))
    if (s["args"]["tile"] == tile) return s;
  return nullptr;
}

Trace record_device(const std::string& algo, std::int64_t n, std::int32_t block, std::map<std::string, std::string> options = {}) {
  BlockRunConfig c = sv_test::config(algo, n, OpKind::Sum, ValueType::I32);
  c.block = block;
  c.options = std::move(options);
  return record_device_scan(c);
}

// ---- block-level traces --------------------------------------------------------------------------

// The (step, block, thread) that read, wrote or applied the operator, and the barrier arrivals.
struct StepWork {
  std::set<std::tuple<std::size_t, std::uint32_t, std::uint32_t>> worked;
  std::size_t barriers = 0;
};

StepWork step_work(const Trace& t) {
  StepWork w;
  for (std::size_t k = 0; k < t.steps.size(); ++k)
    for (std::uint64_t i = t.steps[k].first_event; i < t.steps[k].end_event; ++i) {
      const Event& e = t.events[i];
      if (e.kind == EventKind::Barrier) ++w.barriers;
      else w.worked.insert({k, e.block, e.thread});
    }
  return w;
}

// One span per thread and step it worked in, [k, k + 1) in process block + 1 on a lane of that thread
// alone, and one barrier instant per arrival, at the end of its step.
void check_thread_lanes(const Trace& t, const Checked& c) {
  const StepWork w = step_work(t);
  std::set<std::tuple<std::size_t, std::uint32_t, std::uint32_t>> found;
  std::map<Lane, std::pair<std::uint32_t, std::uint32_t>> thread_of;  // lane -> (block, thread)
  std::map<std::pair<std::uint32_t, std::uint32_t>, Lane> lane_of_thread;
  const auto same_thread = [&](const json& e) {
    const std::pair<std::uint32_t, std::uint32_t> bt{e["args"]["block"].get<std::uint32_t>(), e["args"]["thread"].get<std::uint32_t>()};
    CHECK(lane_of(e).first == static_cast<int>(bt.first) + 1);
    CHECK(thread_of.emplace(lane_of(e), bt).first->second == bt);
    CHECK(lane_of_thread.emplace(bt, lane_of(e)).first->second == lane_of(e));
    return bt;
  };
  std::size_t spans = 0;
  for (const auto& [lane, list] : c.spans)
    for (const json& s : list) {
      ++spans;
      const auto k = s["args"]["step"].get<std::size_t>();
      REQUIRE(k < t.steps.size());
      CHECK(s["ts"].get<double>() == static_cast<double>(k));
      CHECK(s["dur"].get<double>() == 1.0);
      CHECK(s["name"] == t.steps[k].label());
      const auto [block, thread] = same_thread(s);
      found.insert({k, block, thread});
    }
  CHECK(spans == w.worked.size());
  CHECK(found == w.worked);
  std::size_t barriers = 0;
  for (const json& i : c.instants) {
    if (i["cat"] != "barrier") continue;
    ++barriers;
    same_thread(i);
    CHECK(i["ts"].get<double>() == static_cast<double>(i["args"]["step"].get<std::size_t>() + 1));
  }
  CHECK(barriers == w.barriers);
  CHECK(c.flows.empty());
  const auto warp = static_cast<std::uint32_t>(t.meta.warp_width());
  for (const auto& [lane, bt] : thread_of)
    CHECK(c.thread_names.at(lane) == "thread " + std::to_string(bt.second) + " (warp " + std::to_string(bt.second / warp) + ")");
}

}  // namespace

TEST_CASE("chrome-trace: the checks refuse what a viewer would misdraw") {
  const auto meta = [](int pid, int tid) {
    return json::array({{{"ph", "M"}, {"name", "process_name"}, {"pid", pid}, {"args", {{"name", "p"}}}},
                        {{"ph", "M"}, {"name", "thread_name"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", "t"}}}},
                        {{"ph", "M"}, {"name", "thread_sort_index"}, {"pid", pid}, {"tid", tid}, {"args", {{"sort_index", 1}}}}});
  };
  const auto span = [](double ts, double dur, int tid = 1) {
    return json{{"ph", "X"}, {"name", "s"}, {"cat", "c"}, {"pid", 1}, {"tid", tid}, {"ts", ts}, {"dur", dur}};
  };
  const auto doc = [&](json events) {
    json all = meta(1, 1);
    for (json& e : events) all.push_back(e);
    return json{{"traceEvents", all}, {"displayTimeUnit", "ms"}};
  };
  // A good one first, so that what fails below fails for its one fault.
  CHECK(schema_errors(doc({span(0, 4), span(1, 2), span(4, 1)})).empty());
  CHECK(check_events(doc({span(0, 4), span(1, 2), span(4, 1)})).problems.empty());

  CHECK_FALSE(check_events(doc({span(0, 4), span(3, 2)})).problems.empty());   // overlaps, not nested
  CHECK_FALSE(check_events(doc({span(1, 1), span(0, 4)})).problems.empty());   // not sorted by ts
  CHECK_FALSE(check_events(doc({span(0, 1), span(1, 1, 2)})).problems.empty());  // tid 2 has no name
  CHECK_FALSE(check_events(doc({span(0, 1, 0)})).problems.empty());            // tid 0
  json unpaired = span(0, 4);
  unpaired["ph"] = "s";
  unpaired["id"] = 1;
  unpaired.erase("dur");
  CHECK_FALSE(check_events(doc({span(0, 4), unpaired})).problems.empty());    // an s without its f

  CHECK_FALSE(schema_errors(doc({span(0, -1)})).empty());                      // negative dur
  json no_dur = span(0, 1);
  no_dur.erase("dur");
  CHECK_FALSE(schema_errors(doc({no_dur})).empty());
  json string_ts = span(0, 1);
  string_ts["ts"] = "0";
  CHECK_FALSE(schema_errors(doc({string_ts})).empty());
  json flow_end = {{"ph", "f"}, {"name", "f"}, {"cat", "c"}, {"id", 1}, {"pid", 1}, {"tid", 1}, {"ts", 0}};
  CHECK_FALSE(schema_errors(doc({flow_end})).empty());  // no bp
  json instant = {{"ph", "i"}, {"name", "i"}, {"pid", 1}, {"tid", 1}, {"ts", 0}};
  CHECK_FALSE(schema_errors(doc({instant})).empty());  // no scope
  json process_tid = meta(1, 1)[0];
  process_tid["tid"] = 1;
  CHECK_FALSE(schema_errors(doc({process_tid})).empty());
}

TEST_CASE("chrome-trace: a GPU trace's tiles on (SM, slot) lanes, with their waits and look-back flows") {
  const Trace t = synthetic_gpu_trace();
  const json doc = chrome_trace(t);
  CHECK(doc["displayTimeUnit"] == "ns");
  const Checked c = valid_chrome_trace(doc);
  check_tile_spans(t, c);
  check_flows(t, c);
  CHECK(c.flows.size() == 4);  // tile 1 read tile 0's P; tile 2 tile 1's A and tile 0's P; tile 3 tile 2's P

  // Tiles 0 and 1 overlap on SM 3: two lanes; tile 3 starts as tile 0 ends and takes its lane.
  const json t0 = span_of_tile(c, 0), t1 = span_of_tile(c, 1), t2 = span_of_tile(c, 2), t3 = span_of_tile(c, 3);
  CHECK(lane_of(t0) != lane_of(t1));
  CHECK(lane_of(t3) == lane_of(t0));
  CHECK(c.thread_names.at(lane_of(t0)) == "SM 3 slot 0");
  CHECK(c.thread_names.at(lane_of(t1)) == "SM 3 slot 1");
  CHECK(c.thread_names.at(lane_of(t2)) == "SM 7 slot 0");
  CHECK(c.spans.size() == 3);
  CHECK(t0["ts"] == 0.0);
  CHECK(t1["dur"].get<double>() == doctest::Approx(6.0));

  // Tile 1 waited on tile 0 from 1.6 us until the poll that saw its P at 2.6 us, inside its span.
  const std::vector<json> waits = c.spans_of("look-back");
  REQUIRE(waits.size() == 1);
  CHECK(lane_of(waits[0]) == lane_of(t1));
  CHECK(waits[0]["ts"].get<double>() == doctest::Approx(1.6));
  CHECK(waits[0]["dur"].get<double>() == doctest::Approx(1.0));
  CHECK(waits[0]["args"]["target"] == 0);

  // The other tile events are instants on their tile's lane: 7 publishes and 5 inspections.
  CHECK(c.instants.size() == 12);
  for (const json& i : c.instants) CHECK(i["s"] == "t");
}

TEST_CASE("chrome-trace: device-wide traces of the emulator, every algorithm") {
  for (const std::string algo : {"decoupled-lookback", "chained", "reduce-then-scan", "hierarchical"}) {
    CAPTURE(algo);
    const Trace t = record_device(algo, 20000, 32);
    REQUIRE(tile_times(t).size() > 4);
    const Checked c = valid_chrome_trace(chrome_trace(t));
    check_tile_spans(t, c);
    check_flows(t, c);
    // The emulator keeps at most `resident` blocks on a multiprocessor at once: no more lanes than that.
    const int resident = std::stoi(t.meta.options.count("resident") ? t.meta.options.at("resident") : "2");
    std::map<std::string, int> lanes_per_sm;
    for (const auto& [lane, name] : c.thread_names) ++lanes_per_sm[name.substr(0, name.find(" slot"))];
    for (const auto& [sm, lanes] : lanes_per_sm) CHECK(lanes <= resident);
    if (algo == "decoupled-lookback" || algo == "chained") CHECK_FALSE(c.flows.empty());
  }
  // A deadlock: tiles that never end still get spans, which nest.
  const Trace dead = record_device("decoupled-lookback", 100003, 0,
                                   {{"tile-ids", "static"}, {"launch", "reverse"}, {"sms", "3"}, {"resident", "2"}, {"items", "16"}});
  CHECK(dead.result.outcome == Outcome::Deadlock);
  const Checked c = valid_chrome_trace(chrome_trace(dead));
  CHECK(c.spans_of("tile").size() == tile_times(dead).size());
}

TEST_CASE("chrome-trace: the stored H100 trace of the pipelined kernel, its warp roles nested in each tile") {
  const Trace t = load_trace(fs::path(SCANVIZ_SOURCE_DIR) / "assets/examples/pipelined-h100.json");
  const Checked c = valid_chrome_trace(chrome_trace(t));
  check_tile_spans(t, c);
  check_flows(t, c);
  std::size_t look_backs = 0, stores = 0, waits = 0;
  for (const TileEvent& e : t.tile_events) {
    look_backs += e.kind == TileEventKind::LookBack;
    stores += e.kind == TileEventKind::Store;
  }
  for (const json& s : c.spans_of("warp role")) {
    const json tile = c.enclosing(lane_of(s), s["ts"], "tile");
    REQUIRE(!tile.is_null());
    CHECK(tile["args"]["tile"] == s["args"]["tile"]);
    (s["name"] == "look-back warp" ? look_backs : stores) -= 1;
  }
  CHECK(look_backs == 0);
  CHECK(stores == 0);
  for (const json& w : c.spans_of("look-back")) {  // each wait inside its tile's look-back warp
    ++waits;
    const json warp = c.enclosing(lane_of(w), w["ts"], "warp role");
    REQUIRE(!warp.is_null());
    CHECK(warp["name"] == "look-back warp");
    CHECK(warp["args"]["tile"] == w["args"]["tile"]);
    CHECK(end_of(w) <= end_of(warp) + kEps);
  }
  CHECK(waits == static_cast<std::size_t>(std::count_if(t.tile_events.begin(), t.tile_events.end(),
                                                        [](const TileEvent& e) { return e.kind == TileEventKind::Wait; })));
}

TEST_CASE("chrome-trace: block-level traces put threads on lanes and steps on the clock") {
  for (const std::string algo : {"kogge-stone", "brent-kung", "warp-raking", "kogge-stone-racy"}) {
    CAPTURE(algo);
    const Trace t = sv_test::record(algo, 64, OpKind::Sum, ValueType::I32, "round-robin");
    const json doc = chrome_trace(t);
    CHECK(doc["displayTimeUnit"] == "ms");
    const Checked c = valid_chrome_trace(doc);
    check_thread_lanes(t, c);
    CHECK(c.spans.count({1, 1}));  // thread 0 of block 0
  }
}

TEST_CASE("chrome-trace: scanviz export writes the file, and refuses bad input with exit 2 and no file") {
  sv_test::TempDir d;
  REQUIRE(sv_test::scanviz("trace --algo brent-kung --n 16 --executor emulator --out t.json", d.path).code == 0);
  sv_test::Run r = sv_test::scanviz("export --format chrome-trace t.json out.json", d.path);
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out.rfind("wrote out.json: ", 0) == 0);
  const Checked c = valid_chrome_trace(json::parse(sv_test::slurp(d.path / "out.json")));
  check_thread_lanes(load_trace(d.path / "t.json"), c);

  r = sv_test::scanviz("export --format chrome-trace - - < t.json", d.path);  // standard input to standard output
  CHECK(r.code == 0);
  CHECK(json::parse(r.out) == json::parse(sv_test::slurp(d.path / "out.json")));
  CHECK(r.err.rfind("wrote standard output: ", 0) == 0);

  // A kernel of your own on two blocks: a process a block, the second block's threads on lanes of their own.
  r = sv_test::scanviz("trace --kernel '" SCANVIZ_SOURCE_DIR "/kernels/block/cuda/kogge_stone.cu' --n 16 --block 8 --grid 2 --out k.json", d.path);
  REQUIRE(r.code == 0);
  REQUIRE(sv_test::scanviz("export --format chrome-trace k.json k.ct.json", d.path).code == 0);
  const Checked k = valid_chrome_trace(json::parse(sv_test::slurp(d.path / "k.ct.json")));
  check_thread_lanes(load_trace(d.path / "k.json"), k);
  std::set<int> pids, tids;
  for (const auto& [lane, list] : k.spans) {
    pids.insert(lane.first);
    tids.insert(lane.second);
  }
  CHECK(pids == std::set<int>{1, 2});
  CHECK(tids.size() == 16);

  {
    std::ofstream(d.path / "bad.json") << "{\"format\": \"scanviz-trace\", \"version\": ";
    std::ofstream(d.path / "other.json") << "{\"traceEvents\": []}";
    fs::create_directory(d.path / "folder");
  }
  const std::vector<std::string> before = d.files();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"export --format chrome-trace nowhere.json o.json", "nowhere.json"},
      {"export --format chrome-trace bad.json o.json", "bad.json"},
      {"export --format chrome-trace other.json o.json", "other.json"},
      {"export --format chrome-trace folder o.json", "folder"},
      {"export --format perfetto t.json o.json", "--format 'perfetto'"},
      {"export t.json o.json", "--format"},
      {"export --format chrome-trace t.json", "OUT"},
      {"export --format chrome-trace t.json no/such/folder/o.json", "cannot write no/such/folder/o.json"},
      {"export --format chrome-trace t.json folder", "cannot write folder"},
  };
  for (const auto& [args, says] : cases) {
    CAPTURE(args);
    r = sv_test::scanviz(args, d.path);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(sv_test::lines(r.err) == 1);
    CHECK(r.err.find(says) != std::string::npos);
    CHECK(d.files() == before);  // neither o.json nor a temporary file
    CHECK(fs::is_empty(d.path / "folder"));
  }
}
