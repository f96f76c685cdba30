// The applications of scan the slides list, as pure functions of a trace whose scan they use:
// stream compaction (keep the elements that pass a predicate; the exclusive sum of the predicate gives
// each kept element its output slot) and allocation (the exclusive sum of the requests gives each its
// offset: [8,6,7,5,3,0,9] -> [0,8,14,21,26,29,29]). The scan is a traced kernel run like any other;
// the scatter is derived here from the scan the trace recorded, so a wrong scan scatters wrongly.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/application_input.hpp"  // Predicate, compaction_flags, check_requests
#include "core/payload.hpp"
#include "trace/trace.hpp"

namespace sv {

// The four rows a student reads, from a trace with meta.application set.
struct ApplicationView {
  std::string kind;                      // "compact" or "allocate"
  std::vector<Payload> input;            // compact: the elements; allocate: the requests
  std::vector<std::int64_t> marks;       // compact: the predicate (0 or 1); allocate: the requests
  std::vector<std::int64_t> scan;        // the exclusive sum the trace's kernel produced (slots, offsets)
  std::int64_t total = 0;                // kept elements, or cells allocated (last scan + last mark)
  // The scattered output: for each output cell, the element that went there (-1: none). Compaction:
  // out[scan[i]] = input[i] where marks[i]; allocation: cells scan[i] .. scan[i] + marks[i] - 1 owned by i.
  std::vector<std::int64_t> owner;
  std::int64_t collisions = 0;           // cells claimed twice (a wrong scan)
  bool correct = true;                   // the scan matched the reference and nothing collided
};

// Throws std::invalid_argument when the trace has no application (or an inconsistent one).
ApplicationView application_view(const Trace& trace);

}  // namespace sv
