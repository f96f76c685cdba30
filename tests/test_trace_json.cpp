// Trace JSON: round trips, the loader's error messages, a mutation fuzz, and the file functions.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/values.hpp"
#include "emulator/record.hpp"
#include "fuzz_trace.hpp"
#include "trace/trace.hpp"
#include "trace/trace_json.hpp"

namespace {

using namespace sv;

// =================================================================================================
// Hand-made traces
// =================================================================================================

Payload range(int lo, int hi) { return Payload::of(Interval::range(lo, hi)); }
Payload single(int i) { return Payload::of(Interval::single(i)); }

Event make_event(EventKind kind, std::uint32_t thread, std::uint32_t line, Payload value = {},
                 std::uint8_t buffer = kNoBuffer, std::int64_t index = -1, Origin a = Origin::none(),
                 Origin b = Origin::none()) {
  Event e;
  e.kind = kind;
  e.thread = thread;
  e.line = line;
  e.value = value;
  e.buffer = buffer;
  e.index = index;
  e.a = a;
  e.b = b;
  return e;
}

// Numbers events by position and gives them increasing times, the last one past 2^63.
void number_events(Trace& t) {
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    t.events[i].seq = i;
    t.events[i].time = 1000 + 7 * i;
    t.events[i].sm = static_cast<std::uint16_t>(i % 3 == 0 ? 65535 : i);
  }
  t.events.back().time = (std::uint64_t{1} << 63) + 5;
}

BufferSnapshot snapshot(std::vector<std::optional<Payload>> cells) {
  BufferSnapshot s;
  for (const auto& c : cells) {
    s.values.push_back(c.value_or(Payload{}));
    s.defined.push_back(c ? 1 : 0);
  }
  return s;
}

// Two threads of a Kogge-Stone-like round over 4 intervals: a load step and one stride step whose op
// combines two shared cells and is written back. Buffer 1 has undefined cells.
Trace make_interval_trace() {
  Trace t;
  TraceMeta& m = t.meta;
  m.algorithm = "kogge-stone";
  m.options = {{"variant", "double-buffer"}, {"note", "quote\" backslash\\ newline\n tab\t ctl\x01 \xc3\xa9"}};
  m.n = 4;
  m.block = 2;
  m.items_per_thread = 2;
  m.capacity = 4;
  m.grid = 1;
  m.op = OpKind::Interval;
  m.type = ValueType::Interval;
  m.exclusive = false;
  m.input_seed = 0;
  m.executor = {"emulator", "", "random", std::numeric_limits<std::uint64_t>::max(), "", 0, ""};
  m.input = {single(0), single(1), single(2), single(3)};

  t.buffers = {{"in", Space::Global, 4}, {"s", Space::Shared, 4}};
  using K = EventKind;
  t.events = {
      make_event(K::Read, 0, 10, single(0), 0, 0),
      make_event(K::Write, 0, 10, single(0), 1, 0, Origin::cell(0, 0)),
      make_event(K::Read, 1, 10, single(1), 0, 1),
      make_event(K::Write, 1, 10, single(1), 1, 1, Origin::cell(0, 1)),
      make_event(K::Barrier, 0, 11),
      make_event(K::Barrier, 1, 11),
      make_event(K::Read, 1, 20, single(0), 1, 0),
      make_event(K::Read, 1, 20, single(1), 1, 1),
      make_event(K::Op, 1, 20, range(0, 1), kNoBuffer, -1, Origin::cell(1, 0), Origin::cell(1, 1)),
      make_event(K::Write, 1, 20, range(0, 1), 1, 1, Origin::op(8)),
      make_event(K::Barrier, 0, 21),
      make_event(K::Barrier, 1, 21),
  };
  number_events(t);
  t.steps = {{Phase::Load, -1, 9, 0, 6}, {Phase::Stride, 1, 19, 6, 12}};

  const auto in = snapshot({single(0), single(1), single(2), single(3)});
  t.snapshots = {
      {in, snapshot({single(0), single(1), std::nullopt, std::nullopt})},
      {in, snapshot({single(0), range(0, 1), std::nullopt, Payload::of(Interval::identity())})},
  };
  t.result.reference = {single(0), range(0, 1), range(0, 2), range(0, 3)};
  t.result.output = {single(0), range(0, 1), Payload::of(Interval::invalid(0, 1, 3, 3)), range(0, 3)};
  t.result.outcome = Outcome::Wrong;
  return t;
}

// One block of n threads (n = input size) scanning with max: each thread reads its element, then
// thread 1 combines elements 0 and 1 and writes the result back.
Trace make_numeric_trace(ValueType type, std::vector<Payload> input) {
  Trace t;
  TraceMeta& m = t.meta;
  const auto n = static_cast<std::uint32_t>(input.size());
  m.algorithm = "kogge-stone";
  m.n = n;
  m.block = static_cast<std::int32_t>(n);
  m.capacity = n;
  m.op = OpKind::Max;
  m.type = type;
  m.exclusive = true;
  m.input_seed = 42;
  m.executor = {"gpu", "NVIDIA H100 80GB HBM3", "", 7, "9.0", 132, "13.0"};
  m.input = input;
  t.buffers = {{"x", Space::Global, n}};

  for (std::uint32_t i = 0; i < n; ++i) t.events.push_back(make_event(EventKind::Read, i, 5, input[i], 0, i));
  for (std::uint32_t i = 0; i < n; ++i) t.events.push_back(make_event(EventKind::Barrier, i, 6));
  const Payload combined = apply_op(m.op, type, input[0], input[1]);
  t.events.push_back(make_event(EventKind::Op, 1, 7, combined, kNoBuffer, -1, Origin::cell(0, 0), Origin::cell(0, 1)));
  t.events.push_back(make_event(EventKind::Write, 1, 7, combined, 0, 1, Origin::op(t.events.size() - 1)));
  number_events(t);
  t.steps = {{Phase::Load, -1, 4, 0, 2 * n}, {Phase::Span, 1, 7, 2 * n, 2 * n + 2}};

  BufferSnapshot after_load{input, std::vector<std::uint8_t>(n, 1)};
  BufferSnapshot after_span = after_load;
  after_span.values[1] = combined;
  t.snapshots = {{after_load}, {after_span}};
  t.result.reference = reference_scan(m.op, type, input, m.exclusive);
  t.result.output = t.result.reference;
  return t;
}

Trace make_float_trace() {
  using L = std::numeric_limits<float>;
  std::vector<Payload> input;
  // 7.038531e-26 is the one float whose shortest text, read as a double, rounds to the wrong float.
  for (float v : {0.1f, L::infinity(), -L::infinity(), L::quiet_NaN(), -0.0f, 7.038531e-26f, L::max(),
                  L::denorm_min(), 16777216.0f, 1e10f})
    input.push_back(Payload::of(v));
  return make_numeric_trace(ValueType::F32, input);
}

Trace make_double_trace() {
  using L = std::numeric_limits<double>;
  std::vector<Payload> input;
  for (double v : {0.1, L::infinity(), L::quiet_NaN(), -L::infinity(), -0.0, L::max(),
                   L::denorm_min(), 123456789012345680000.0, 9007199254740993.0, -1e300})
    input.push_back(Payload::of(v));
  return make_numeric_trace(ValueType::F64, input);
}

Trace make_int64_trace() {
  using L = std::numeric_limits<std::int64_t>;
  std::vector<Payload> input;
  for (std::int64_t v : {L::min(), L::max(), std::int64_t{-1}, std::int64_t{0}, std::int64_t{1} << 53})
    input.push_back(Payload::of(v));
  return make_numeric_trace(ValueType::I64, input);
}

Trace make_int32_trace() {
  using L = std::numeric_limits<std::int32_t>;
  std::vector<Payload> input;
  for (std::int32_t v : {L::min(), L::max(), -7, 0}) input.push_back(Payload::of(v));
  return make_numeric_trace(ValueType::I32, input);
}

// =================================================================================================
// Comparison
// =================================================================================================

void check_same_values(const std::vector<Payload>& a, const std::vector<Payload>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO("value " << i);
    CHECK(a[i] == b[i]);
  }
}

void check_same(const Trace& x, const Trace& y) {
  const TraceMeta& a = x.meta;
  const TraceMeta& b = y.meta;
  CHECK(a.algorithm == b.algorithm);
  CHECK(a.options == b.options);
  CHECK(a.n == b.n);
  CHECK(a.block == b.block);
  CHECK(a.items_per_thread == b.items_per_thread);
  CHECK(a.capacity == b.capacity);
  CHECK(a.grid == b.grid);
  CHECK(a.op == b.op);
  CHECK(a.type == b.type);
  CHECK(a.exclusive == b.exclusive);
  CHECK(a.input_seed == b.input_seed);
  CHECK(a.executor.kind == b.executor.kind);
  CHECK(a.executor.device == b.executor.device);
  CHECK(a.executor.schedule == b.executor.schedule);
  CHECK(a.executor.seed == b.executor.seed);
  check_same_values(a.input, b.input);

  REQUIRE(x.buffers.size() == y.buffers.size());
  for (std::size_t i = 0; i < x.buffers.size(); ++i) {
    CHECK(x.buffers[i].name == y.buffers[i].name);
    CHECK(x.buffers[i].space == y.buffers[i].space);
    CHECK(x.buffers[i].length == y.buffers[i].length);
  }

  REQUIRE(x.steps.size() == y.steps.size());
  for (std::size_t i = 0; i < x.steps.size(); ++i) {
    CHECK(x.steps[i].phase == y.steps[i].phase);
    CHECK(x.steps[i].param == y.steps[i].param);
    CHECK(x.steps[i].line == y.steps[i].line);
    CHECK(x.steps[i].first_event == y.steps[i].first_event);
    CHECK(x.steps[i].end_event == y.steps[i].end_event);
  }

  REQUIRE(x.events.size() == y.events.size());
  for (std::size_t i = 0; i < x.events.size(); ++i) {
    INFO("event " << i);
    const Event& e = x.events[i];
    const Event& f = y.events[i];
    CHECK(e.seq == f.seq);
    CHECK(e.time == f.time);
    CHECK(e.kind == f.kind);
    CHECK(e.buffer == f.buffer);
    CHECK(e.sm == f.sm);
    CHECK(e.block == f.block);
    CHECK(e.thread == f.thread);
    CHECK(e.line == f.line);
    CHECK(e.index == f.index);
    CHECK(e.a == f.a);
    CHECK(e.b == f.b);
    CHECK(e.value == f.value);
  }

  REQUIRE(x.snapshots.size() == y.snapshots.size());
  for (std::size_t k = 0; k < x.snapshots.size(); ++k) {
    REQUIRE(x.snapshots[k].size() == y.snapshots[k].size());
    for (std::size_t b = 0; b < x.snapshots[k].size(); ++b) {
      INFO("snapshot " << k << " buffer " << b);
      check_same_values(x.snapshots[k][b].values, y.snapshots[k][b].values);
      CHECK(x.snapshots[k][b].defined == y.snapshots[k][b].defined);
    }
  }

  check_same_values(x.result.output, y.result.output);
  check_same_values(x.result.reference, y.result.reference);
  CHECK(x.result.outcome == y.result.outcome);
}

// =================================================================================================
// Helpers for the rejection tests
// =================================================================================================

// The loader's message for this text, or "(loaded)".
std::string load_error(const std::string& text) {
  try {
    trace_from_json(text);
  } catch (const TraceError& e) {
    return e.what();
  }
  return "(loaded)";
}

// The message for the interval trace's JSON after an edit.
std::string error_after(const std::function<void(nlohmann::json&)>& edit, const Trace& trace = make_interval_trace()) {
  auto j = nlohmann::json::parse(trace_to_json(trace));
  edit(j);
  return load_error(j.dump());
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// A fresh, empty directory, removed at the end of the test.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::random_device rd;
    path = std::filesystem::temp_directory_path() / ("scanviz_test_trace_json_" + std::to_string(rd()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

std::vector<Trace> all_traces() {
  return {make_interval_trace(), make_float_trace(), make_double_trace(), make_int64_trace(), make_int32_trace()};
}

}  // namespace

// =================================================================================================
// Round trips
// =================================================================================================

TEST_CASE("trace json: text round trip keeps every field and the exact text") {
  for (const Trace& t : all_traces()) {
    INFO("type " << type_name(t.meta.type));
    const std::string text = trace_to_json(t);
    CHECK(nlohmann::json::accept(text));
    CHECK(trace_to_json(t) == text);  // deterministic
    const Trace back = trace_from_json(text);
    check_same(t, back);
    CHECK(trace_to_json(back) == text);
  }
}

TEST_CASE("trace json: file round trip") {
  TempDir dir;
  for (const Trace& t : all_traces()) {
    const auto file = dir.path / ("trace_" + std::string(type_name(t.meta.type)) + ".json");
    save_trace(file, t);
    CHECK(std::filesystem::exists(file));
    CHECK_FALSE(std::filesystem::exists(file.string() + ".tmp"));
    const Trace back = load_trace(file);
    check_same(t, back);
    CHECK(trace_to_json(back) == trace_to_json(t));
    save_trace(file, back);  // overwrites
    CHECK(trace_to_json(load_trace(file)) == trace_to_json(t));
  }
}

TEST_CASE("trace json: values are written as the schema says") {
  const std::string floats = trace_to_json(make_float_trace());
  CHECK(floats.find("\"nan\"") != std::string::npos);
  CHECK(floats.find("\"inf\"") != std::string::npos);
  CHECK(floats.find("\"-inf\"") != std::string::npos);
  CHECK(floats.find("-0.0") != std::string::npos);
  CHECK(floats.find("7.038531e-26") != std::string::npos);

  const auto j = nlohmann::json::parse(trace_to_json(make_interval_trace()));
  CHECK(j["format"] == "scanviz-trace");
  CHECK(j["version"] == 1);
  CHECK(j["meta"]["input"] == nlohmann::json::array({"x0", "x1", "x2", "x3"}));
  CHECK(j["result"]["output"][2] == "!x0..x1,x3");
  CHECK(j["snapshots"][1][1] == nlohmann::json::parse(R"(["x0", "x0..x1", null, "ID"])"));
  CHECK(j["steps"][1]["label"] == "stride = 1");
  CHECK(j["events"][8] ==
        nlohmann::json::parse(R"([8, "op", 0, 1, 0, null, null, "x0..x1", 20, 1056, 8, [1, 0], [1, 1]])"));
  CHECK(j["events"][9][11] == 8);
  CHECK(j["events"][4] ==
        nlohmann::json::parse(R"([4, "barrier", 0, 0, 0, null, null, null, 11, 1028, 4, null, null])"));
  CHECK(j["events"][11][9] == (std::uint64_t{1} << 63) + 5);
  CHECK(j["meta"]["options"]["note"] == "quote\" backslash\\ newline\n tab\t ctl\x01 \xc3\xa9");
}

TEST_CASE("trace json: invalid UTF-8 in names is replaced, and the replacement round trips") {
  Trace t = make_interval_trace();
  t.buffers[1].name = "bad \xff\xfe utf8 \xc3";
  const std::string text = trace_to_json(t);
  CHECK(nlohmann::json::accept(text));
  const Trace back = trace_from_json(text);
  CHECK(back.buffers[1].name == "bad \xef\xbf\xbd\xef\xbf\xbd utf8 \xef\xbf\xbd");
  CHECK(trace_to_json(back) == text);
}

// =================================================================================================
// Rejections, each naming the bad field
// =================================================================================================

TEST_CASE("trace json: malformed text") {
  const std::string text = trace_to_json(make_interval_trace());
  CHECK(starts_with(load_error(text.substr(0, text.size() / 2)), "truncated or malformed JSON at byte "));
  CHECK(starts_with(load_error(""), "truncated or malformed JSON at byte "));
  CHECK(starts_with(load_error(text + "x"), "truncated or malformed JSON at byte "));
  CHECK(starts_with(load_error("[1e999]"), "malformed JSON: "));
  CHECK(load_error("[1, 2]") == "(top level): expected a JSON object, got an array");
  CHECK(load_error("{}") == "format: missing");
  // Nesting is refused as it opens, 16 levels down: thirty megabytes of '[' took gigabytes.
  std::string sixteen;
  for (int i = 0; i < 16; ++i) sixteen += "[0]";
  CHECK(load_error(std::string(100000, '[')) == sixteen + ": nested deeper than 16 levels");
  CHECK(load_error(std::string(30 << 20, '[')) == sixteen + ": nested deeper than 16 levels");
  CHECK(load_error(std::string(100000, '[') + std::string(100000, ']')) == sixteen + ": nested deeper than 16 levels");
  CHECK(load_error(std::string(16, '[') + std::string(16, ']')) == "(top level): expected a JSON object, got an array");
  std::string deep = text;  // built as text: nlohmann's dump() would recurse 100000 deep
  const std::string algorithm = "\"algorithm\": \"kogge-stone\"";
  REQUIRE(deep.find(algorithm) != std::string::npos);
  deep.replace(deep.find(algorithm), algorithm.size(),
               "\"algorithm\": " + std::string(100000, '[') + std::string(100000, ']'));
  CHECK(load_error(deep) == "meta.algorithm" + sixteen.substr(0, 14 * 3) + ": nested deeper than 16 levels");
}

TEST_CASE("trace json: a key twice in one object is refused, where nlohmann would keep the last") {
  const std::string text = trace_to_json(make_interval_trace());
  const auto twice = [&](const std::string& member) {
    std::string t = text;
    REQUIRE(t.find(member) != std::string::npos);
    return t.replace(t.find(member), member.size(), member + ", " + member);
  };
  CHECK(load_error(twice("\"grid\": 1")) == "meta.grid: duplicate key (a key appears once in an object)");
  CHECK(load_error(twice("\"format\": \"scanviz-trace\"")) == "format: duplicate key (a key appears once in an object)");
  CHECK(load_error(twice("\"kind\": \"emulator\"")) == "meta.executor.kind: duplicate key (a key appears once in an object)");
  std::string odd = text;  // a key that is no plain word is quoted, and the message stays one line
  odd.replace(odd.find("{"), 1, "{\"a\\nb\": 1, \"a\\nb\": 2, ");
  CHECK(load_error(odd) == "[\"a\\nb\"]: duplicate key (a key appears once in an object)");
}

TEST_CASE("trace json: header and meta") {
  using J = nlohmann::json;
  CHECK(error_after([](J& j) { j["version"] = 4; }) == "version: unsupported version 4 (this scanviz reads versions 1 to 3)");
  CHECK(error_after([](J& j) { j["version"] = 0; }) == "version: unsupported version 0 (this scanviz reads versions 1 to 3)");
  CHECK(error_after([](J& j) { j["version"] = "1"; }) == "version: expected an integer, got \"1\"");
  CHECK(error_after([](J& j) { j["format"] = "other"; }) == "format: expected \"scanviz-trace\", got \"other\"");
  CHECK(error_after([](J& j) { j["meta"]["n"] = "4"; }) == "meta.n: expected an integer, got \"4\"");
  CHECK(error_after([](J& j) { j["meta"]["n"] = 3000000000LL; }) ==
        "meta.n: 3000000000 is out of range (0..2147483648)");
  CHECK(error_after([](J& j) { j["meta"]["n"] = 4.0; }) == "meta.n: expected an integer, got 4.0");
  CHECK(error_after([](J& j) { j["meta"]["block"] = 2048; }) == "meta.block: 2048 is out of range (1..1024)");
  CHECK(error_after([](J& j) { j["meta"]["grid"] = -1; }) == "meta.grid: -1 is out of range (1..2147483647)");
  CHECK(error_after([](J& j) { j["meta"]["input_seed"] = -1; }) ==
        "meta.input_seed: -1 is out of range (0..18446744073709551615)");
  CHECK(starts_with(error_after([](J& j) { j["meta"]["op"] = "avg"; }),
                    "meta.op: expected one of sum, product, min, max, interval"));
  CHECK(starts_with(error_after([](J& j) { j["meta"]["op"] = "sum"; }), "meta.type: operator sum does not apply"));
  CHECK(error_after([](J& j) { j["meta"]["exclusive"] = 0; }) == "meta.exclusive: expected true or false, got 0");
  CHECK(starts_with(error_after([](J& j) { j["meta"]["executor"]["kind"] = "cpu"; }), "meta.executor.kind: "));
  CHECK(error_after([](J& j) { j["meta"]["options"]["x"] = 1; }) == "meta.options.x: expected a string, got 1");
  CHECK(error_after([](J& j) { j["meta"]["input"].erase(3); }) == "meta.input: expected 4 values (meta.n), got 3");
  CHECK(error_after([](J& j) { j["meta"].erase("capacity"); }) == "meta.capacity: missing");
  CHECK(error_after([](J& j) { j["meta"]["colour"] = 1; }) == "meta.colour: unknown field");
  CHECK(error_after([](J& j) { j["meta"]["a b\n"] = 1; }) == "meta[\"a b\\n\"]: unknown field");
  CHECK(error_after([](J& j) { j["extra"] = 1; }) == "extra: unknown field");
  // The counts that size what readers allocate agree with what the trace holds.
  CHECK(error_after([](J& j) { j["meta"]["algorithm"] = "bogus"; }) ==
        "meta.algorithm: unknown algorithm \"bogus\" (scanviz algos lists them; a kernel of your own is kernel:NAME)");
  // A kernel of your own is kernel: and a C identifier, and reads as one block.
  CHECK(error_after([](J& j) { j["meta"]["algorithm"] = "kernel:my_scan2"; }) == "(loaded)");
  for (const char* bad : {"kernel:", "kernel:2scan", "kernel:my scan", "kernel:a-b"})
    CHECK(starts_with(error_after([&](J& j) { j["meta"]["algorithm"] = bad; }), "meta.algorithm: unknown algorithm"));
  CHECK(starts_with(error_after([](J& j) {
                      j["meta"]["algorithm"] = "kernel:my_scan";
                      j["meta"]["grid"] = 2;
                    }),
                    "meta.grid: 2 is not 1"));
  CHECK(error_after([](J& j) {
          j["meta"]["algorithm"] = "kernel:my_scan";
          j["meta"]["options"]["scan"] = "whole";
        }) == "meta.options.scan: \"whole\" is not \"blocks\" (each block's section scanned on its own)");
  CHECK(error_after([](J& j) { j["meta"]["grid"] = 10000000; }) ==
        "meta.grid: 10000000 is not 1 (a block-level scan runs one block)");
  CHECK(error_after([](J& j) { j["meta"]["capacity"] = 100; }) ==
        "meta.capacity: 100 is outside meta.n..4 (meta.block x meta.items_per_thread)");
  CHECK(error_after([](J& j) { j["meta"]["items_per_thread"] = 100000; }) ==
        "meta.items_per_thread: 100000 is out of range (1..64 for a block-level scan)");
  CHECK(error_after([](J& j) { j["buffers"][1]["length"] = 1000000000; }) ==
        "buffers[1].length: 1000000000 is out of range (0..4)");
  BlockRunConfig c;
  c.algorithm = "decoupled-lookback";
  c.n = 13000;
  c.options = {{"items", "8"}};
  const Trace device = record_device_scan(c);  // 7 tiles of 256 x 8
  CHECK(error_after([](J& j) { j["meta"]["grid"] = 10000000; }, device) ==
        "meta.grid: 10000000 is not 7 (meta.n in tiles of meta.capacity)");
  CHECK(error_after([](J& j) { j["meta"]["capacity"] = 1; }, device) ==
        "meta.capacity: 1 is not meta.block x meta.items_per_thread (2048)");
}

TEST_CASE("trace json: logical and bitwise operators round trip, and a float type or a non-0/1 input is refused") {
  using J = nlohmann::json;
  for (auto [op, type] : {std::pair{OpKind::And, ValueType::I32}, std::pair{OpKind::Or, ValueType::I64},
                          std::pair{OpKind::BitXor, ValueType::I64}, std::pair{OpKind::BitAnd, ValueType::I32}}) {
    CAPTURE(op_name(op));
    BlockRunConfig c;
    c.algorithm = "brent-kung";
    c.n = 13;
    c.op = op;
    c.type = type;
    c.input_seed = 4;
    const Trace t = record_block_scan(c);
    CHECK(t.result.outcome == Outcome::Correct);
    const std::string text = trace_to_json(t);
    const Trace back = trace_from_json(text);
    CHECK(back.meta.op == op);
    CHECK(back.meta.type == type);
    CHECK(trace_to_json(back) == text);
    CHECK(error_after([](J& j) { j["meta"]["type"] = "float"; }, t) ==
          "meta.type: operator " + std::string(op_name(op)) + " does not apply to type float (" +
              std::string(op_name(op)) + " takes int32 or int64)");
    CHECK(starts_with(error_after([](J& j) { j["meta"]["type"] = "interval"; }, t), "meta.type: operator "));
  }
  BlockRunConfig c;
  c.algorithm = "kogge-stone";
  c.n = 4;
  c.op = OpKind::And;
  c.input = {Payload::of(1), Payload::of(1), Payload::of(0), Payload::of(1)};
  const Trace t = record_block_scan(c);
  CHECK(error_after([](J& j) { j["meta"]["input"][2] = 2; }, t) ==
        "meta.input: value 2 at position 2 is not 0 or 1 (and scans truth values)");
  CHECK(load_error(trace_to_json(t)) == "(loaded)");
}

TEST_CASE("trace json: buffers and steps") {
  using J = nlohmann::json;
  CHECK(error_after([](J& j) { j["buffers"][1]["name"] = "in"; }) == "buffers[1].name: duplicate buffer name \"in\"");
  CHECK(error_after([](J& j) { j["buffers"][0]["name"] = ""; }) == "buffers[0].name: empty buffer name");
  CHECK(starts_with(error_after([](J& j) { j["buffers"][0]["space"] = "local"; }),
                    "buffers[0].space: expected one of global, shared"));
  CHECK(error_after([](J& j) { j["buffers"][0]["length"] = -4; }) ==
        "buffers[0].length: -4 is out of range (0..4)");
  CHECK(starts_with(error_after([](J& j) { j["buffers"] = J::array_t(300); }), "buffers: 300 buffers, at most 255"));
  CHECK(starts_with(error_after([](J& j) { j["event_fields"][2] = "blk"; }), "event_fields[2]: expected \"block\""));
  CHECK(starts_with(error_after([](J& j) { j["steps"][1]["phase"] = "sideways"; }),
                    "steps[1].phase: expected one of load, stride, "));
  CHECK(error_after([](J& j) { j["steps"][1]["label"] = 3; }) == "steps[1].label: expected a string, got 3");
  CHECK(error_after([](J& j) { j["steps"][1]["label"] = "anything"; }) == "(loaded)");
  CHECK(error_after([](J& j) { j["steps"][1]["end_event"] = 13; }) ==
        "steps[1].end_event: 13 is past the end of the events (there are 12)");
  CHECK(error_after([](J& j) { j["steps"][1]["first_event"] = 5; }) ==
        "steps[1].first_event: 5 is before the end of the previous step (6)");
  CHECK(error_after([](J& j) { j["steps"][0]["first_event"] = 7; }) == "steps[0].first_event: 7 is after end_event 6");
  CHECK(error_after([](J& j) { j["steps"][0]["param"] = -2; }) ==
        "steps[0].param: -2 is out of range (-1..9223372036854775807)");
}

TEST_CASE("trace json: events") {
  using J = nlohmann::json;
  CHECK(error_after([](J& j) { j["events"][3][6] = 2000; }) ==
        "events[3].index: 2000 is out of range for buffer \"s\" (length 4)");
  CHECK(error_after([](J& j) { j["events"][3][6] = -1; }) ==
        "events[3].index: -1 is out of range for buffer \"s\" (length 4)");
  CHECK(error_after([](J& j) { j["events"][3][5] = 2; }) ==
        "events[3].buffer: 2 is out of range (there are 2 buffers)");
  CHECK(error_after([](J& j) { j["events"][8][11] = 9; }) ==
        "events[8].a: op origin 9 is not an earlier event (this is event 8)");
  CHECK(error_after([](J& j) { j["events"][9][11] = 7; }) == "events[9].a: op origin 7 is a read event, not an op");
  CHECK(error_after([](J& j) { j["events"][8][12] = J::array({1, 4}); }) ==
        "events[8].b[1]: 4 is out of range for buffer \"s\" (length 4)");
  CHECK(starts_with(error_after([](J& j) { j["events"][8][12] = "x"; }),
                    "events[8].b: expected null, the seq of an op"));
  CHECK(error_after([](J& j) { j["events"][0][7] = "x3..x1"; }) ==
        "events[0].value: \"x3..x1\" is not a valid interval value");
  CHECK(error_after([](J& j) { j["events"][2][3] = 2; }) == "events[2].thread: 2 is out of range (meta.block is 2)");
  CHECK(error_after([](J& j) { j["events"][2][2] = 1; }) == "events[2].block: 1 is out of range (meta.grid is 1)");
  CHECK(error_after([](J& j) { j["events"][2][4] = 1; }) == "events[2].warp: 1 does not match thread 1 (expected 0)");
  CHECK(error_after([](J& j) { j["events"][4][1] = "fence"; }) ==
        "events[4].kind: expected one of read, write, op, barrier, got \"fence\"");
  CHECK(error_after([](J& j) { j["events"][5][0] = 4; }) == "events[5].seq: 4 is not the event's position 5");
  CHECK(error_after([](J& j) { j["events"][4][7] = "x0"; }) ==
        "events[4].value: expected null for a barrier event, got \"x0\"");
  CHECK(error_after([](J& j) { j["events"][8][5] = 1; }) == "events[8].buffer: expected null for an op event, got 1");
  CHECK(error_after([](J& j) { j["events"][1][9] = -5; }) ==
        "events[1].time: -5 is out of range (0..18446744073709551615)");
  CHECK(error_after([](J& j) { j["events"][1][10] = 65536; }) == "events[1].sm: 65536 is out of range (0..65535)");
  CHECK(error_after([](J& j) { j["events"][1][8] = 1.5; }) == "events[1].line: expected an integer, got 1.5");
  CHECK(error_after([](J& j) { j["events"][1].erase(12); }) ==
        "events[1]: expected 13 fields (see event_fields), got 12");
}

TEST_CASE("trace json: snapshots and result") {
  using J = nlohmann::json;
  CHECK(error_after([](J& j) { j["snapshots"][1][1].erase(3); }) ==
        "snapshots[1][1]: expected 4 values (the length of buffer \"s\"), got 3");
  CHECK(error_after([](J& j) { j["snapshots"].erase(1); }) == "snapshots: expected 2 snapshots (one per step), got 1");
  CHECK(error_after([](J& j) { j["snapshots"][0].erase(1); }) == "snapshots[0]: expected 2 buffers, got 1");
  CHECK(error_after([](J& j) { j["snapshots"][0][0][2] = 7; }) ==
        "snapshots[0][0][2]: expected an interval (a string such as \"x0..x3\"), got 7");
  CHECK(error_after([](J& j) { j["result"]["reference"].push_back("x4"); }) ==
        "result.reference: expected 4 values (meta.n), got 5");
  CHECK(starts_with(error_after([](J& j) { j["result"]["outcome"] = "maybe"; }),
                    "result.outcome: expected one of correct, wrong"));
}

TEST_CASE("trace json: numeric values") {
  using J = nlohmann::json;
  const Trace f32 = make_float_trace();
  CHECK(error_after([](J& j) { j["meta"]["input"][0] = 1e39; }, f32) ==
        "meta.input[0]: 1e+39 is out of range for float");
  CHECK(starts_with(error_after([](J& j) { j["meta"]["input"][0] = "1.5"; }, f32), "meta.input[0]: expected a float"));
  CHECK(error_after([](J& j) { j["meta"]["input"][0] = 3; }, f32) == "(loaded)");
  CHECK(error_after([](J& j) { j["meta"]["input"][0] = 3.4028235e38; }, f32) == "(loaded)");  // FLT_MAX as a double

  const Trace i32 = make_int32_trace();
  CHECK(error_after([](J& j) { j["events"][0][7] = 1.5; }, i32) == "events[0].value: expected an integer, got 1.5");
  CHECK(error_after([](J& j) { j["events"][0][7] = 2147483648LL; }, i32) ==
        "events[0].value: 2147483648 is out of range (-2147483648..2147483647)");
  CHECK(error_after([](J& j) { j["events"][0][7] = "nan"; }, i32) ==
        "events[0].value: expected an integer, got \"nan\"");

  const Trace i64 = make_int64_trace();
  CHECK(error_after([](J& j) { j["result"]["output"][1] = std::uint64_t{1} << 63; }, i64) ==
        "result.output[1]: 9223372036854775808 is out of range (-9223372036854775808..9223372036854775807)");
  CHECK(starts_with(load_error(R"({"format": "scanviz-trace", "version": 1e400})"), "malformed JSON: "));
}

TEST_CASE("trace json: error messages are one line") {
  using J = nlohmann::json;
  const std::string msg = error_after([](J& j) {
    j["buffers"][0]["name"] = "a\nb";
    j["buffers"][1]["name"] = "a\nb";
  });
  CHECK(msg == "buffers[1].name: duplicate buffer name \"a\\nb\"");
}

// =================================================================================================
// Fuzz
// =================================================================================================

TEST_CASE("trace json: mutation fuzz of the loader") {
  std::uint64_t seed = 1;
  for (const Trace& t : all_traces()) sv_test::fuzz_trace_loader(trace_to_json(t), 300, seed++);
}

// =================================================================================================
// Files
// =================================================================================================

TEST_CASE("trace json: file errors") {
  TempDir dir;
  const Trace t = make_interval_trace();

  const auto nowhere = dir.path / "no_such_dir" / "t.json";
  try {
    save_trace(nowhere, t);
    FAIL("save_trace into a missing directory did not throw");
  } catch (const TraceError& e) {
    CHECK(std::string(e.what()) == "cannot write " + nowhere.string() + ": No such file or directory");
  }
  CHECK_FALSE(std::filesystem::exists(nowhere));
  CHECK(std::filesystem::is_empty(dir.path));

  const auto missing = dir.path / "missing.json";
  try {
    load_trace(missing);
    FAIL("load_trace of a missing file did not throw");
  } catch (const TraceError& e) {
    CHECK(std::string(e.what()) == missing.string() + ": cannot open: No such file or directory");
  }

  CHECK_THROWS_AS(load_trace(dir.path), TraceError);

  const auto bad = dir.path / "bad.json";
  {
    auto j = nlohmann::json::parse(trace_to_json(t));
    j["events"][3][6] = 2000;
    std::ofstream(bad) << j.dump();
  }
  try {
    load_trace(bad);
    FAIL("load_trace of a bad trace did not throw");
  } catch (const TraceError& e) {
    CHECK(std::string(e.what()) == bad.string() +
                                    ": events[3].index: 2000 is out of range for buffer \"s\" (length 4)");
  }

  // A directory in the way is refused before anything is written; it stays.
  const auto occupied = dir.path / "occupied";
  std::filesystem::create_directories(occupied / "inside");
  try {
    save_trace(occupied, t);
    FAIL("save_trace over a non-empty directory did not throw");
  } catch (const TraceError& e) {
    CHECK(std::string(e.what()) == "cannot write " + occupied.string() + ": Is a directory");
  }
  CHECK(std::filesystem::is_directory(occupied / "inside"));
  CHECK(std::vector<std::filesystem::path>(std::filesystem::directory_iterator(dir.path), {}).size() == 2);  // occupied, bad.json
}
