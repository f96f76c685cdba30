// A mutation fuzz of the trace loader, shared by the test files that have a trace at hand.
#pragma once

#include <cstdint>
#include <random>
#include <string>

namespace sv_test {

// One mutated copy of a trace's JSON text: two times in three damaged as bytes (truncated, bytes
// flipped or replaced, spans deleted or duplicated, a number token replaced by -1, 1e30, "x", null
// or 99999999999), else one field of the parsed document changed (a huge or edge number, a wrong
// type, removed, duplicated, emptied, swapped with a sibling). `how` says what was done.
std::string mutate_trace(const std::string& json, std::mt19937_64& rng, std::string& how);

// Makes `copies` mutated copies of a trace's JSON text with mutate_trace. Each must
// load or throw sv::TraceError with a one-line message, nothing else; one that loads must save to
// text that reloads to the same text. Also checks that more than a tenth of the copies are rejected.
void fuzz_trace_loader(const std::string& json, int copies, std::uint64_t seed);

}  // namespace sv_test
