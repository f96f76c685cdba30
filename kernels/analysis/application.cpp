// Stream compaction and allocation from a trace's exclusive sum.
#include "analysis/application.hpp"

#include <stdexcept>

#include "core/values.hpp"

namespace sv {


// ---- the view ----

ApplicationView application_view(const Trace& t) {
  const TraceMeta& m = t.meta;
  ApplicationView v;
  v.kind = m.application.kind;
  if (v.kind != "compact" && v.kind != "allocate") throw std::invalid_argument("the trace is not of a compaction or allocation");
  const std::size_t n = static_cast<std::size_t>(m.n);
  v.input = v.kind == "compact" ? m.application.values : m.input;
  if (v.input.size() != n || t.result.output.size() != n)
    throw std::invalid_argument("the application's values do not match the trace's n");
  for (std::size_t i = 0; i < n; ++i) {
    v.marks.push_back(static_cast<std::int64_t>(application_number(m.type, m.input[i])));
    v.scan.push_back(static_cast<std::int64_t>(application_number(m.type, t.result.output[i])));
  }
  v.total = n ? v.scan.back() + v.marks.back() : 0;
  v.correct = t.result.outcome == Outcome::Correct;
  if (v.total < 0 || v.total > kMaxAllocatedCells) {  // a wrong scan can claim anything: draw nothing
    v.total = 0;
    v.correct = false;
    return v;
  }
  v.owner.assign(static_cast<std::size_t>(v.total), -1);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t width = v.kind == "compact" ? (v.marks[i] ? 1 : 0) : v.marks[i];
    for (std::int64_t c = v.scan[i]; c < v.scan[i] + width; ++c) {
      if (c < 0 || c >= v.total) {
        ++v.collisions;
        continue;
      }
      if (v.owner[c] >= 0) ++v.collisions;
      v.owner[c] = static_cast<std::int64_t>(i);
    }
  }
  v.correct = v.correct && v.collisions == 0;
  return v;
}

}  // namespace sv
