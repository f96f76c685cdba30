// The run request: its key=value text reads back to the same request, a trace's meta reads back to
// a request that records the same run, and each bad field is refused by name.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/values.hpp"
#include "emulator/record.hpp"
#include "helpers.hpp"
#include "run/request.hpp"
#include "trace/trace_json.hpp"

using namespace sv;

namespace {

RunRequest request(const std::vector<std::pair<std::string, std::string>>& fields) {
  RunRequest r;
  for (const auto& [k, v] : fields) set_field(r, k, v);
  return r;
}

// The field a request is refused by, and its text as the command line spells it.
std::pair<std::string, std::string> refusal(const RunRequest& r) {
  try {
    (void)run_config(r);
  } catch (const RequestError& e) {
    return {e.field, request_error_text(e, "--")};
  }
  return {"(accepted)", ""};
}

}  // namespace

TEST_CASE("run request: the printed text parses back to the same request, field by field") {
  const std::vector<std::vector<std::pair<std::string, std::string>>> cases = {
      {{"algo", "kogge-stone"}},
      {{"algo", "warp-raking"}, {"n", "16"}, {"warp", "4"}, {"op", "interval"}, {"schedule", "random:7"}},
      {{"algo", "brent-kung"}, {"n", "12"}, {"op", "max"}, {"type", "double"}, {"exclusive", "1"}, {"seed", "99"}},
      {{"algo", "decoupled-lookback"}, {"n", "5000"}, {"option", "window=4"}, {"option", "launch=reverse"}, {"block", "64"}},
      {{"algo", "sklansky"}, {"input", "3,6,7,4"}, {"flags", "1,0,1,0"}, {"executor", "emulator"}},
      {{"algo", "blelloch"}, {"app", "compact"}, {"predicate", "x > 0 && x % 3 != 1"}, {"n", "20"}},
      {{"algo", "kogge-stone-racy"}, {"executor", "gpu"}, {"amplify", "5"}, {"input", "slides"}},
  };
  for (const auto& fields : cases) {
    const RunRequest r = request(fields);
    const std::string text = print_request(r);
    CAPTURE(text);
    CHECK(parse_request(text) == r);
    CHECK(request_fields(r).size() == fields.size());
  }
  CHECK(print_request(RunRequest{}).empty());
  // The window's and links' scan form sets the same fields.
  CHECK(request({{"scan", "segmented:0.5"}}).flags == "random:0.5");
  CHECK(request({{"scan", "compact:x > 3"}}).predicate == "x > 3");
  CHECK(request({{"scan", "allocate"}}).app == "allocate");
  CHECK(request({{"input", "random:5"}}) == request({{"seed", "5"}}));
  CHECK(request({{"input", "3,6"}, {"input", "random"}}).input.empty());
  CHECK(parse_request("# a comment\n\nalgo=sklansky\r\nn=4\n") == request({{"algo", "sklansky"}, {"n", "4"}}));
}

TEST_CASE("run request: a trace's meta reads back to a request that records the same run") {
  const std::vector<std::vector<std::pair<std::string, std::string>>> cases = {
      {{"algo", "kogge-stone"}, {"n", "37"}, {"seed", "4"}},
      {{"algo", "warp-sklansky"}, {"n", "16"}, {"warp", "4"}, {"op", "min"}, {"type", "int64"}, {"exclusive", "1"}},
      {{"algo", "brent-kung"}, {"n", "8"}, {"op", "interval"}, {"schedule", "reverse"}, {"warp", "1"}},
      {{"algo", "kogge-stone-racy"}, {"n", "40"}, {"schedule", "random:3"}, {"warp", "1"}},
      {{"algo", "sklansky"}, {"input", "3,-6,7,4,0"}, {"flags", "1,0,0,1,0"}},
      {{"algo", "blelloch"}, {"n", "24"}, {"app", "compact"}, {"predicate", "x > 0"}, {"seed", "9"}},
      {{"algo", "kogge-stone-double-buffer"}, {"n", "24"}, {"app", "allocate"}, {"seed", "9"}},
      {{"algo", "chained"}, {"n", "3000"}, {"option", "fence=off"}, {"option", "launch=reverse"}},
      {{"algo", "hierarchical"}, {"n", "700"}, {"block", "32"}, {"op", "product"}, {"type", "double"}},
      {{"algo", "decoupled-lookback"}, {"n", "1000"}, {"flags", "random:0.1"}, {"seed", "2"}},
  };
  for (const auto& fields : cases) {
    const RunRequest r = request(fields);
    CAPTURE(print_request(r));
    const Trace first = record_scan(run_config(r));
    const RunRequest back = request_from_meta(first.meta);
    CAPTURE(print_request(back));
    const Trace again = record_scan(run_config(back));
    sv_test::check_same_run(first, again);
    CHECK(again.meta.flags == first.meta.flags);
    CHECK(again.meta.options == first.meta.options);
    CHECK(again.meta.application.values == first.meta.application.values);
    CHECK(again.meta.executor.schedule == first.meta.executor.schedule);
    CHECK(again.events.size() == first.events.size());
    CHECK(request_from_meta(again.meta) == back);  // a fixed point after one read
  }
}

TEST_CASE("run request: each bad field is refused by its name, whichever view set it") {
  struct Case {
    std::vector<std::pair<std::string, std::string>> fields;
    std::string field, text;
  };
  const std::vector<Case> cases = {
      {{{"algo", "nope"}}, "algo", "--algo: unknown algorithm 'nope'"},
      {{{"algo", "kogge-stone"}, {"n", "0"}}, "n", "--n must be at least 1, not 0"},
      {{{"algo", "kogge-stone"}, {"n", "5000"}}, "n", "exceeds"},
      {{{"algo", "kogge-stone"}, {"input", "1,2,3"}, {"n", "4"}}, "n", "--n 4 does not match the 3 values of --input"},
      {{{"algo", "kogge-stone"}, {"op", "or"}, {"input", "0,1,2"}}, "input", "--input: value 2 at position 2 is not 0 or 1"},
      {{{"algo", "kogge-stone"}, {"op", "bitxor"}, {"type", "float"}}, "type", "--type: operator bitxor does not apply"},
      {{{"algo", "warp-raking"}, {"n", "16"}, {"warp", "3"}}, "warp", "--warp: warp width 3 is not a power of two from 2 to 32"},
      {{{"algo", "hierarchical"}, {"warp", "4"}}, "warp", "--warp applies to the block algorithms, not hierarchical"},
      {{{"algo", "kogge-stone-racy"}, {"warp", "1"}, {"executor", "gpu"}}, "warp", "--warp narrows kogge-stone-racy's lockstep"},
      {{{"algo", "kogge-stone"}, {"schedule", "reverse"}, {"executor", "gpu"}}, "schedule", "--schedule applies to the emulator only"},
      {{{"algo", "chained"}, {"schedule", "reverse"}}, "schedule", "--option launch=ORDER"},
      {{{"algo", "kogge-stone"}, {"predicate", "x > 0"}}, "predicate", "--predicate goes with --app compact"},
      {{{"algo", "kogge-stone"}, {"app", "compact"}}, "predicate", "--app compact needs --predicate"},
      {{{"algo", "kogge-stone"}, {"app", "allocate"}, {"op", "max"}}, "op", "scans with sum, not max"},
      {{{"algo", "kogge-stone"}, {"app", "allocate"}, {"input", "1,-2"}}, "input", "negative"},
      {{{"algo", "kogge-stone"}, {"app", "compact"}, {"predicate", "y > 0"}}, "predicate", "--predicate: predicate 'y > 0'"},
      {{{"algo", "kogge-stone"}, {"flags", "1,0"}, {"n", "3"}}, "flags", "--flags: 2 flags for 3 values"},
      {{{"algo", "kogge-stone"}, {"option", "window=3"}}, "option", "--option window: kogge-stone has no switches"},
      {{{"algo", "kogge-stone"}, {"executor", "emulator"}, {"amplify", "3"}}, "amplify", "--amplify 3 applies to the GPU"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const auto [field, text] = refusal(request(c.fields));
    CHECK(field == c.field);
    CHECK(text.find(c.text) != std::string::npos);
    CHECK(text.find("{") == std::string::npos);
  }
  // What the text alone can tell is refused as the field is set: a seed is a whole number from 1
  // (-1 is not 2^64 - 1), an algorithm has a name.
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"seed", "-1"}, {"seed", "x"}, {"n", "abc"}, {"n", "99999999999999999999"}, {"algo", ""}, {"op", "divide"},
      {"type", "int8"}, {"schedule", "sideways"}, {"option", "window"}, {"executor", "tpu"}, {"app", "sort"},
      {"scan", "plain:1"}, {"exclusive", "maybe"}, {"input", ""}, {"input", "random:0"}, {"block", "-3"}, {"amplify", "-1"}};
  for (const auto& [key, value] : bad) {
    CAPTURE(key);
    CAPTURE(value);
    RunRequest r;
    try {
      set_field(r, key, value);
      FAIL("accepted");
    } catch (const RequestError& e) {
      CHECK(e.field == key);
      CHECK(std::string(e.what()).rfind(key, 0) == 0);  // the message starts with the field
    }
  }
  RunRequest twice;
  set_field(twice, "option", "window=2");
  CHECK_THROWS_WITH_AS(set_field(twice, "option", "window=3"), "option window is given twice", RequestError);
  CHECK_THROWS_WITH_AS(parse_request("algo=kogge-stone\ncolour=red\n"), doctest::Contains("unknown key 'colour'"), RequestError);
}

TEST_CASE("run request: random allocation requests are the sizes 0 to 9, given ones are kept") {
  const BlockRunConfig c = run_config(request({{"algo", "kogge-stone"}, {"app", "allocate"}, {"n", "64"}, {"seed", "3"}}));
  const std::vector<Payload> drawn = random_input(OpKind::Sum, ValueType::I32, 64, 3);
  bool negative = false;
  for (std::size_t i = 0; i < c.input.size(); ++i) {
    const std::int32_t v = drawn[i].as<std::int32_t>();
    negative |= v < 0;
    CHECK(c.input[i].as<std::int32_t>() == ((v % 10) + 10) % 10);
  }
  CHECK(negative);
  CHECK(c.exclusive);
  const BlockRunConfig given = run_config(request({{"algo", "kogge-stone"}, {"app", "allocate"}, {"input", "8,6,7,5,3,0,9"}}));
  CHECK(format_value(ValueType::I32, given.input[6]) == "9");
}

TEST_CASE("run request: a GPU trace of the pipelined kernel reads back without the tile it may not set") {
  const Trace t = load_trace(std::string(SCANVIZ_SOURCE_DIR) + "/assets/examples/pipelined-h100.json");
  const RunRequest r = request_from_meta(t.meta);
  CAPTURE(print_request(r));
  CHECK(r.algorithm == "decoupled-lookback");
  CHECK(r.executor == "gpu");
  CHECK(r.options.at("pipelined") == "on");
  CHECK(r.block == 0);
  CHECK(r.options.count("items") == 0);
  CHECK_NOTHROW(validate_request(r));
  CHECK(parse_request(print_request(r)) == r);
}
