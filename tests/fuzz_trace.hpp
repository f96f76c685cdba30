// A mutation fuzz of the trace loader, shared by the test files that have a trace at hand.
#pragma once

#include <cstdint>
#include <string>

namespace sv_test {

// Makes `copies` mutated copies of a trace's JSON text (truncated, bytes flipped or replaced, spans
// deleted or duplicated, number tokens replaced by -1, 1e30, "x", null or 99999999999). Each must
// load or throw sv::TraceError with a one-line message, nothing else; one that loads must save to
// text that reloads to the same text. Also checks that more than a tenth of the copies are rejected.
void fuzz_trace_loader(const std::string& json, int copies, std::uint64_t seed);

}  // namespace sv_test
