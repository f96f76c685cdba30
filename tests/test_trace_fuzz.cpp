// The trace loader over mutated copies of real emulator traces: it loads them or rejects them with a
// TraceError, never crashes or hangs; and real traces round-trip exactly.
#include <doctest/doctest.h>

#include "fuzz_trace.hpp"
#include "helpers.hpp"
#include "trace/trace_json.hpp"

using namespace sv;

TEST_CASE("real traces round-trip through JSON byte for byte") {
  for (const char* algo : {"kogge-stone-racy", "kogge-stone-double-buffer", "blelloch"}) {
    for (auto [op, type] : sv_test::all_ops()) {
      CAPTURE(algo);
      CAPTURE(op_name(op));
      const Trace t = sv_test::record(algo, 37, op, type, "random:3");
      const std::string text = trace_to_json(t);
      const Trace back = trace_from_json(text);
      CHECK(trace_to_json(back) == text);
      CHECK(back.events.size() == t.events.size());
      CHECK(back.result.output == t.result.output);
    }
  }
}

TEST_CASE("the loader survives 4000 mutated copies of a real racy trace") {
  const Trace t = sv_test::record_interval("kogge-stone-racy", 8, "in-order");
  sv_test::fuzz_trace_loader(trace_to_json(t), 4000, 2024);
}

TEST_CASE("the loader survives 2000 mutated copies of a real float trace") {
  const Trace t = sv_test::record("brent-kung", 6, OpKind::Max, ValueType::F32, "round-robin");
  sv_test::fuzz_trace_loader(trace_to_json(t), 2000, 7);
}
